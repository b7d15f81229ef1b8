/**
 * HAProxy in front of server processes, configured as the operators' guide says
 * (docs/operations.md "Several processes, a balancer, PostgreSQL"): round robin, the health check
 * on /health/ready, and the retries that send a request which found a process stopping (refused
 * connection, empty answer, 503) to another one. Debian's package, which .ci/run installs.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { API } from '../../src/shared/contract';

export const HAPROXY = '/usr/sbin/haproxy';
export const haproxyInstalled = (): boolean => existsSync(HAPROXY);

/** What the balancer asks each process (200 = send it requests). */
export const READY_CHECK = '/espServer/health/ready';

/** A port nothing listens on now (the kernel's choice), for a process told its PORT. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

/**
 * The guide's configuration on 127.0.0.1:`port` with `backends` (base URLs) as portal1, portal2, …
 * (checked every 2 s: a process is up after two good answers, down after two bad). Each answer
 * names the server that gave it in X-Served-By.
 */
export function haproxyConfig(port: number, backends: readonly string[], check = READY_CHECK): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 60s',
    '  timeout server 60s',
    // A loaded process answers its check late, not never. Without this the check's timeout is
    // `inter`: with `inter 1s` the scale-out soak's 200 connections (p99 near 6 s on 2 cores) had
    // both processes taken out at once, 12,538 answers of 503 in its 5 s warm-up.
    '  timeout check 5s',
    '  retries 3',
    '  option redispatch',
    '  retry-on conn-failure empty-response 503',
    'frontend portal',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    '  default_backend portal_servers',
    'backend portal_servers',
    '  balance roundrobin',
    `  option httpchk GET ${check}`,
    '  default-server inter 2s fall 2 rise 2',
    '  http-response set-header X-Served-By %s',
    ...backends.map((url, i) => `  server portal${i + 1} ${new URL(url).host} check`),
    '',
  ].join('\n');
}

export interface Balancer {
  /** The balancer's base URL (without the API base). */
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts HAProxy with `haproxyConfig` (written into `dir`) and waits until it answers through a
 * process that is up (at most `limitMs`: the first health checks take a few seconds).
 */
export async function startBalancer(dir: string, backends: readonly string[], options: { check?: string; limitMs?: number } = {}): Promise<Balancer> {
  const port = await freePort();
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, backends, options.check));
  const child = spawn(HAPROXY, ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (chunk) => (errors += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.limitMs ?? 60_000);
  while (!(await answers(url))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`HAProxy did not answer through a backend within ${(options.limitMs ?? 60_000) / 1000} s; its output:\n${errors}`);
    }
    await sleep(200);
  }
  return { url, stop };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether `url` answers the public app configuration with 200; which server answered. */
async function answers(url: string): Promise<string | null> {
  const res = await fetch(`${url}/espServer${API.appConfig}`).catch(() => null);
  if (!res) return null;
  await res.arrayBuffer();
  return res.ok ? (res.headers.get('x-served-by') ?? '') : null;
}

/**
 * Waits until the balancer sends requests to the backend named `server` (portal1, …) again: its
 * health checks passed (at most `limitMs`). Round robin: among two backends up, every other answer.
 */
export async function waitUntilRouted(balancer: Balancer, server: string, limitMs = 120_000): Promise<number> {
  const started = Date.now();
  while ((await answers(balancer.url)) !== server) {
    if (Date.now() - started > limitMs) throw new Error(`the balancer did not route to ${server} within ${limitMs / 1000} s`);
    await sleep(100);
  }
  return Date.now() - started;
}
