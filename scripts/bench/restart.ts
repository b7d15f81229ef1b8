/**
 * bench:restart — `npm start` as a person runs it (scripts/start.mjs: build only when the sources
 * changed, then the compiled server), on one data directory: the first run builds when needed and
 * creates the database; then 5 restarts with nothing changed, each timed from the command to the
 * ready banner, with the idle server's RSS 5 s after ready. Goal (issue 18): warm restart ≤ 3 s.
 * Medians are printed. Uses a free port and a temporary data directory; the checkout's dist/ is
 * (re)built by the first run if it is out of date.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { printResult, seconds } from './report';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOAL_S = 3;
const RUNS = 5;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Runs `node scripts/start.mjs` until ready; returns seconds to ready and the RSS 5 s later. */
async function start(dataDir: string): Promise<{ readyS: number; rss: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PORTAL_DATA_DIR: dataDir, PORTAL_CAPTCHA: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    const readyS = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready after 300 s:\n${output}`)), 300_000);
      const hear = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('Portal ready:')) {
          clearTimeout(timer);
          resolve((performance.now() - started) / 1000);
        }
      };
      child.stdout.on('data', hear);
      child.stderr.on('data', hear);
      child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
    });
    await new Promise((r) => setTimeout(r, 5000));
    return { readyS, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

console.log(`bench:restart — npm start (scripts/start.mjs) restarted ${RUNS} times with nothing changed`);
const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-restart-'));
try {
  const first = await start(dataDir);
  console.log(`  first run (builds when out of date, creates the database): ${seconds(first.readyS)}`);
  const runs: { readyS: number; rss: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await start(dataDir));
  const ready = median(runs.map((r) => r.readyS));
  console.log(`  restarts: ${runs.map((r) => seconds(r.readyS)).join(', ')}; idle RSS ${runs.map((r) => r.rss.toFixed(0)).join(', ')} MB`);
  printResult('warm restart (median)', seconds(ready), `≤ ${GOAL_S} s`, ready / GOAL_S, ready <= GOAL_S, 'measured / goal');
  console.log(`  idle RSS (median): ${median(runs.map((r) => r.rss)).toFixed(0)} MB`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
