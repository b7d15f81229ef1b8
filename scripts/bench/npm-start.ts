/**
 * `npm start` as a person runs it (the npm command in the checkout at `root`: scripts/start.mjs
 * builds when the sources changed, then runs the compiled server), on a data directory, timed from
 * the command to the ready banner and on to the first answer of the login page (GET /login, 200):
 * what a user waits for. Shared by bench:restart and bench:start.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The RSS of a process, in MB (0 once it is gone). */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The processes of a process group (npm, its shell, the server). */
function groupMembers(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Fields after the command's closing parenthesis: state, ppid, pgrp.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pgid) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface NpmStartOptions {
  root: string;
  dataDir: string;
  /** Wait this long after ready, then read the idle server's RSS (default: no reading). */
  idleMs?: number;
  /** Extra arguments of start.mjs (e.g. --prepare: runs to its end instead of a ready banner). */
  args?: string[];
}

export interface NpmStartResult {
  /** Seconds from the command to the login page's first answer (to the end, with --prepare). */
  readyS: number;
  /** Seconds from the command to the ready banner (0 with --prepare). */
  bannerS: number;
  /** The largest RSS of the command's processes (the server) after `idleMs`, in MB. */
  rss: number;
  output: string;
}

/** Polls GET `url` until it answers 200. */
async function firstAnswer(url: string, deadline: number): Promise<void> {
  for (;;) {
    const status = await fetch(url)
      .then(async (r) => (await r.arrayBuffer(), r.status))
      .catch(() => 0);
    if (status === 200) return;
    if (performance.now() > deadline) throw new Error(`${url} answered ${status || 'nothing'}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function npmStart({ root, dataDir, idleMs, args = [] }: NpmStartOptions): Promise<NpmStartResult> {
  const started = performance.now();
  // Its own process group, so the server under npm is stopped with it.
  const child = spawn('npm', ['start', '--silent', ...(args.length ? ['--', ...args] : [])], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PORTAL_DATA_DIR: dataDir, PORTAL_CAPTCHA: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const toEnd = args.includes('--prepare');
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const { bannerS, address } = await new Promise<{ bannerS: number; address: string }>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after 300 s:\n${output}`)), 300_000);
      const hear = (chunk: Buffer) => {
        output += chunk.toString();
        const ready = /Portal ready: (http:\/\/\S+)/.exec(output);
        if (!toEnd && ready) {
          clearTimeout(timer);
          resolve({ bannerS: (performance.now() - started) / 1000, address: ready[1] });
        }
      };
      child.stdout.on('data', hear);
      child.stderr.on('data', hear);
      void exited.then((code) => {
        clearTimeout(timer);
        if (toEnd && code === 0) resolve({ bannerS: 0, address: '' });
        else reject(new Error(`exited with ${code}:\n${output}`));
      });
    });
    if (toEnd) return { readyS: (performance.now() - started) / 1000, bannerS, rss: 0, output };
    await firstAnswer(`${address}/login`, performance.now() + 60_000);
    const readyS = (performance.now() - started) / 1000;
    if (idleMs) await new Promise((r) => setTimeout(r, idleMs));
    const rss = idleMs ? Math.max(0, ...groupMembers(child.pid!).map(rssMb)) : 0;
    return { readyS, bannerS, rss, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }
}
