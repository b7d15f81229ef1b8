/**
 * bench:start — how long a fresh start takes (new data directory, the README's start path, demo
 * data, until the ready banner), alone and four at once, on this machine; the four-at-once times
 * are also given as a ratio to the single start measured in the same run. Goal (issue 20): every
 * fresh start ready in ≤ 20 s, whether 1 or 4 start at once.
 *
 *   warm: the database templates are in the cache (every start after the first on a machine)
 *   cold: an empty cache directory (the first start on a machine, or after the code changed)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type StartedServer } from '../../tests/support/server';
import { printResult, seconds } from './report';

const GOAL_S = 20;

async function startMany(n: number, env: Record<string, string> = {}): Promise<number[]> {
  const servers: StartedServer[] = await Promise.all(Array.from({ length: n }, () => startServer({ env })));
  await Promise.all(servers.map((s) => s.stop()));
  return servers.map((s) => s.readyMs / 1000);
}

const report = (name: string, times: number[], baseline: number) => {
  const worst = Math.max(...times);
  printResult(name, `${times.map(seconds).join(', ')} (worst ${seconds(worst)})`, `≤ ${GOAL_S} s each`, worst / baseline, worst <= GOAL_S, 'worst / single warm start');
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
