/**
 * `npm start` as a person runs it (scripts/start.mjs of the checkout at `root`: build when the
 * sources changed, then the compiled server) on a data directory, timed from the command to the
 * ready banner. Shared by bench:restart and bench:start.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

export interface NpmStartOptions {
  root: string;
  dataDir: string;
  /** Wait this long after ready, then read the idle server's RSS (default: no reading). */
  idleMs?: number;
  /** Extra arguments of start.mjs (e.g. --prepare: runs to its end instead of a ready banner). */
  args?: string[];
}

/** Seconds to ready (or to the end, with --prepare), the RSS after `idleMs`, and what it printed. */
export async function npmStart({ root, dataDir, idleMs, args = [] }: NpmStartOptions): Promise<{ readyS: number; rss: number; output: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'scripts/start.mjs'), ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PORTAL_DATA_DIR: dataDir, PORTAL_CAPTCHA: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const toEnd = args.includes('--prepare');
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const readyS = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after 300 s:\n${output}`)), 300_000);
      const hear = (chunk: Buffer) => {
        output += chunk.toString();
        if (!toEnd && output.includes('Portal ready:')) {
          clearTimeout(timer);
          resolve((performance.now() - started) / 1000);
        }
      };
      child.stdout.on('data', hear);
      child.stderr.on('data', hear);
      void exited.then((code) => {
        clearTimeout(timer);
        if (toEnd && code === 0) resolve((performance.now() - started) / 1000);
        else reject(new Error(`exited with ${code}:\n${output}`));
      });
    });
    if (idleMs) await new Promise((r) => setTimeout(r, idleMs));
    return { readyS, rss: idleMs ? rssMb(child.pid!) : 0, output };
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  }
}
