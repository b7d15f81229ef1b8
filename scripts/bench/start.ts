/**
 * bench:start — how long a fresh start takes (new data directory, the README's start path, demo
 * data, until the ready banner), alone and four at once, on this machine; the four-at-once times
 * are also given as a ratio to the single start measured in the same run. Goal: every
 * fresh start ready in ≤ 20 s, whether 1 or 4 start at once.
 *
 *   warm: the database templates are in the cache (every start after the first on a machine)
 *   cold: an empty cache directory (the first start on a machine, or after the code changed)
 *
 * Then `npm start` on a fresh clone right after `npm ci` (goal: ready in ≤ 10 s): a copy of the
 * working tree (tracked and untracked files that are not ignored: what a clone holds) whose
 * node_modules links to this checkout's packages but holds no cache or build; npm's prepare step
 * (scripts/start.mjs --prepare, which `npm ci` runs) is timed, then the first `npm start` on a new
 * data directory; and, for comparison in the same run, the first start of the same copy with
 * nothing built (dist/ and the caches removed: `npm ci --ignore-scripts`, or the start before
 * the prepare step existed). BENCH_START_SKIP_CLONE=1 leaves this part out.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type StartedServer } from '../../tests/support/server';
import { npmStart } from './npm-start';
import { benchCommandLine, printResult, seconds } from './report';

benchCommandLine(
  'bench:start',
  'How long a fresh start takes (new data directory, demo data, until the ready banner), alone and four at once, warm and cold cache; then `npm start` on a fresh copy of the working tree after its prepare step (goal: ≤ 20 s; ≤ 10 s after npm ci).',
  [['BENCH_START_SKIP_CLONE', '1: leave out the fresh-copy part']],
);

const GOAL_S = 20;
const CLONE_GOAL_S = 10;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function startMany(n: number, env: Record<string, string> = {}): Promise<number[]> {
  const servers: StartedServer[] = await Promise.all(Array.from({ length: n }, () => startServer({ env })));
  await Promise.all(servers.map((s) => s.stop()));
  return servers.map((s) => s.readyMs / 1000);
}

const report = (name: string, times: number[], baseline: number) => {
  const worst = Math.max(...times);
  printResult(
    name,
    `${times.map(seconds).join(', ')} (worst ${seconds(worst)})`,
    `≤ ${GOAL_S} s each`,
    worst / baseline,
    worst <= GOAL_S,
    'worst / single warm start',
  );
};

console.log('bench:start — fresh starts (new PGlite data directory, demo data) until ready');
await startMany(1); // fills the cache, as the first start on a machine does
const [single] = await startMany(1);
report('1 start, warm cache', [single], single);
report('4 at once, warm cache', await startMany(4), single);
const cold = mkdtempSync(join(tmpdir(), 'portal-bench-cache-'));
try {
  report('1 start, cold cache', await startMany(1, { PORTAL_CACHE_DIR: cold }), single);
  rmSync(cold, { recursive: true, force: true });
  report('4 at once, cold cache', await startMany(4, { PORTAL_CACHE_DIR: cold }), single);
} finally {
  rmSync(cold, { recursive: true, force: true });
}

/** A fresh clone of the working tree at `dir`, its node_modules linking to this checkout's packages (no .cache). */
function freshClone(dir: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the working tree
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  mkdirSync(join(dir, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules')))
    if (name !== '.cache' && name !== '.vite') symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name));
}

if (!process.env.BENCH_START_SKIP_CLONE) {
  console.log('npm start on a fresh clone right after npm ci (its prepare step), then with nothing built');
  const clone = mkdtempSync(join(tmpdir(), 'portal-bench-clone-'));
  const data = (name: string) => join(clone, '.tmp', name);
  try {
    freshClone(clone);
    const prepared = await npmStart({ root: clone, dataDir: data('prepare'), args: ['--prepare'] });
    console.log(`  npm ci's prepare step (build + database templates): ${seconds(prepared.readyS)}`);
    const first = await npmStart({ root: clone, dataDir: data('first') });
    rmSync(join(clone, 'dist'), { recursive: true, force: true });
    rmSync(join(clone, 'node_modules', '.cache'), { recursive: true, force: true });
    const unbuilt = await npmStart({ root: clone, dataDir: data('unbuilt') });
    console.log(`  first npm start with nothing built (no prepare step): ${seconds(unbuilt.readyS)}`);
    printResult(
      'first npm start after npm ci (fresh clone)',
      seconds(first.readyS),
      `≤ ${CLONE_GOAL_S} s`,
      first.readyS / CLONE_GOAL_S,
      first.readyS <= CLONE_GOAL_S,
      'measured / goal',
    );
    console.log(`  (${(unbuilt.readyS / first.readyS).toFixed(1)}× faster than the first start with nothing built)`);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
}
