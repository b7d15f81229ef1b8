/**
 * bench:first-load — JavaScript a new visitor's browser receives (transferred, compressed, no cache)
 * for the login page and for the login page plus the first shell page (nbadmin's home), in Chromium
 * against the built front end and the real server. Goal: ≤ 250 KB and ≤ 700 KB; the
 * same budget fails `npm test` (tests/e2e/first-load.test.ts). Also prints the uncompressed bytes
 * (gzip and identity are what a browser without brotli would get) and the biggest scripts.
 * Builds the front end first unless BENCH_SKIP_BUILD is set.
 */
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:first-load',
  "The JavaScript a new visitor's browser receives for the login page and for the first shell page, compressed, in Chromium against the built front end (goals: ≤ 250 KB and ≤ 700 KB).",
  [['BENCH_SKIP_BUILD', 'set: use the existing build']],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { buildFrontEnd } = await import('../build-front-end');
const { startServer } = await import('../../tests/support/server');
const { FIRST_LOAD_BUDGET, measureFirstLoad } = await import('../../tests/e2e/support/transfer');
type Transfer = import('../../tests/e2e/support/transfer').Transfer;

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

console.log('bench:first-load — transferred JavaScript of a first visit (Chromium, no cache)');
if (!process.env.BENCH_SKIP_BUILD) await buildFrontEnd();
const server = await startServer();
try {
  const load = await measureFirstLoad(server.baseURL, 'nbadmin');
  const both = load.login.js + load.shell.js;
  printResult(
    'login page JS',
    kb(load.login.js),
    `≤ ${kb(FIRST_LOAD_BUDGET.login)}`,
    load.login.js / FIRST_LOAD_BUDGET.login,
    load.login.js <= FIRST_LOAD_BUDGET.login,
    'measured / goal',
  );
  printResult(
    'login + first shell page JS',
    kb(both),
    `≤ ${kb(FIRST_LOAD_BUDGET.loginAndShell)}`,
    both / FIRST_LOAD_BUDGET.loginAndShell,
    both <= FIRST_LOAD_BUDGET.loginAndShell,
    'measured / goal',
  );
  console.log(`  (CSS ${kb(load.login.css + load.shell.css)}; all bodies incl. HTML and API ${kb(load.login.all + load.shell.all)})`);
  for (const [phase, t] of Object.entries<Transfer>({ ...load })) {
    console.log(`  ${phase}: ${t.scripts.length} scripts, largest:`);
    for (const s of [...t.scripts].sort((a, b) => b.bytes - a.bytes).slice(0, 6))
      console.log(`    ${kb(s.bytes).padStart(9)} ${s.encoding.padEnd(8)} ${s.path}`);
  }
} finally {
  await server.stop();
}
