/**
 * bench:restart — `npm start` as a person runs it (the npm command; scripts/start.mjs builds only
 * when the sources changed, then runs the compiled server), on one data directory: the first run
 * builds when needed and creates the database; then 5 restarts with nothing changed, each timed
 * from the command to the login page's first answer (and to the ready banner before it), with the
 * idle server's RSS 5 s after. Goal: warm restart ≤ 3 s to the login page.
 * Medians are printed. Uses a free port and a temporary data directory; the checkout's dist/ is
 * (re)built by the first run if it is out of date.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { npmStart } from './npm-start';
import { benchCommandLine, printResult, seconds } from './report';

benchCommandLine(
  'bench:restart',
  "`npm start` as a person runs it on one data directory: a first run, then 5 restarts with nothing changed, each timed to the login page's first answer, with the idle server's memory (goal: warm restart ≤ 3 s).",
);

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GOAL_S = 3;
const RUNS = 5;

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** Runs `npm start` until the login page answers; seconds to it, to the banner, and the RSS 5 s later. */
const start = (dataDir: string) => npmStart({ root: ROOT, dataDir, idleMs: 5000 });

console.log(`bench:restart — npm start (scripts/start.mjs) restarted ${RUNS} times with nothing changed`);
const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-restart-'));
try {
  const first = await start(dataDir);
  console.log(`  first run (builds when out of date, creates the database): ${seconds(first.readyS)}`);
  const runs: { readyS: number; bannerS: number; rss: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await start(dataDir));
  const ready = median(runs.map((r) => r.readyS));
  console.log(`  restarts to the login page: ${runs.map((r) => seconds(r.readyS)).join(', ')}`);
  console.log(`  of which to the ready banner: ${runs.map((r) => seconds(r.bannerS)).join(', ')}`);
  console.log(`  idle RSS: ${runs.map((r) => r.rss.toFixed(0)).join(', ')} MB (load average ${loadavg()[0].toFixed(1)})`);
  printResult('warm restart to the login page (median)', seconds(ready), `≤ ${GOAL_S} s`, ready / GOAL_S, ready <= GOAL_S, 'measured / goal');
  console.log(`  idle RSS (median): ${median(runs.map((r) => r.rss)).toFixed(0)} MB`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
