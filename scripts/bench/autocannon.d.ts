/** The part of autocannon's programmatic API the benches use (the package ships no types). */
declare module 'autocannon' {
  interface Histogram {
    average: number;
    stddev: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
    /** Requests: how many were sent in all. */
    total?: number;
  }
  export interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    timeout?: number;
    /** Each connection sends these in turn, from the first again after the last. */
    requests?: { method?: string; path: string }[];
  }
  export interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
