/**
 * HAProxy in front of server processes, configured as the operators' guide says
 * (docs/operations.md "Several processes, a balancer, PostgreSQL"): round robin, the health check
 * on /health/ready, and the retries that send a request which found a process stopping (refused
 * connection, empty answer, 503) to another one. Debian's package, which .ci/run installs.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { API } from '../../src/shared/contract';
import { freePort } from './ports';

export const HAPROXY = '/usr/sbin/haproxy';
export const haproxyInstalled = (): boolean => existsSync(HAPROXY);

/** What the balancer asks each process (200 = send it requests). */
export const READY_CHECK = '/espServer/health/ready';

/** A port nothing listens on now, for a process told its PORT (below the ephemeral range: ports.ts). */
export { freePort };

/** The configuration the offline package ships (etc/haproxy/portal.cfg), which operators copy. */
export const SHIPPED_CONFIG = fileURLToPath(new URL('../../scripts/package/haproxy.cfg', import.meta.url));

/**
 * The shipped configuration, run here: bound to 127.0.0.1:`port`, its example servers replaced by
 * `backends` (base URLs) as portal1, portal2, …, each answer naming the server that gave it in
 * X-Served-By, and its log lines off. Every other line — timeouts, retries, the health check — is
 * the operator's, so the tests prove the file the package carries.
 */
export function haproxyConfig(port: number, backends: readonly string[], check = READY_CHECK): string {
  const lines = readFileSync(SHIPPED_CONFIG, 'utf8')
    .split('\n')
    .filter((line) => !/^\s*(server |log |option httplog)/.test(line));
  const config = lines.map((line) => {
    if (/^\s*bind :80\b/.test(line)) return `  bind 127.0.0.1:${port}`;
    if (/^\s*option httpchk GET /.test(line)) return `  option httpchk GET ${check}`;
    return line;
  });
  const backend = config.findIndex((line) => line.startsWith('backend portal_servers'));
  if (backend < 0 || !config.some((l) => l.includes(`bind 127.0.0.1:${port}`)))
    throw new Error(`${SHIPPED_CONFIG}: no "bind :80" or "backend portal_servers" to run`);
  config.push('  http-response set-header X-Served-By %s', ...backends.map((url, i) => `  server portal${i + 1} ${new URL(url).host} check`), '');
  return config.join('\n');
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
