/**
 * npm run bench:concurrency — many users at once on one server process: the demo portal as
 * `npm start` runs it (the compiled server bundle under plain node, demo data, default logging to
 * a pipe), nbadmin logged in, and BENCH_CONNECTIONS (default 100) connections asking for the first
 * page of the equipment list for BENCH_SECONDS (default 20) after a short warm-up (autocannon in
 * this process, 10 s request timeout). Measured on the embedded default (PGlite, one connection,
 * a fresh data directory) and, when DATABASE_URL names a reachable PostgreSQL, on a throw-away
 * database next to it (PORTAL_DEMO=on: a server on DATABASE_URL writes no demo data otherwise).
 *
 * Goals (docs/benchmarks.md), each printed PASS or MISS with its ratio:
 * - PGlite p99 ≤ 500 ms, and no errors, timeouts or non-2xx answers on either storage;
 * - PGlite throughput ≥ 0.6× PostgreSQL's, measured in the same run;
 * - the PGlite server's RSS ≤ 250 MB idle right after a fresh start (templates prepared first,
 *   as `npm install` does; read 2 s after the ready line): the median of BENCH_IDLE_STARTS
 *   (default 5) fresh starts, each on a new data directory. One reading moves ±15 MB from start
 *   to start (how much of malloc's memory the start-up threads leave behind), so a single one
 *   says little near the limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import type { Server } from './portal';
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:concurrency',
  "Many users at once on one demo server process as npm start runs it: BENCH_CONNECTIONS connections ask for the equipment list's first page for BENCH_SECONDS, on the embedded database and, when DATABASE_URL is reachable, on PostgreSQL (goals: PGlite p99 ≤ 500 ms, ≥ 0.6× PostgreSQL's throughput, ≤ 250 MB RSS idle after a fresh start).",
  [
    ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
    ['BENCH_CONNECTIONS', 'concurrent connections (default 100)'],
    ['BENCH_SECONDS', 'seconds of load (default 20)'],
    ['BENCH_IDLE_STARTS', 'fresh starts whose idle RSS makes the memory figure (median; default 5)'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { default: autocannon } = await import('autocannon');
const { build } = await import('esbuild');
const { NODE_BUNDLE } = await import('../build-server');
const { rssMb } = await import('./npm-start');
const { login, reachablePostgres, startProcess, stopProcesses, throwAwayDatabase } = await import('./portal');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
const IDLE_MS = 2000;
const GOAL_P99_MS = 500;
const GOAL_SHARE = 0.6;
const GOAL_RSS_MB = 250;
const IDLE_STARTS = Math.max(1, Number(process.env.BENCH_IDLE_STARTS ?? 5));
const API_BASE = '/espServer';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * The server as `npm start` runs it (scripts/build-server.ts), built for this run beside the
 * template cache: inside the project (the server finds its root by walking up) without touching
 * the dist/ others serve from.
 */
const BUNDLE = join(ROOT, 'node_modules', '.cache', 'portal', `bench-concurrency-${process.pid}.mjs`);
const ENV = { HOST: '127.0.0.1', PORTAL_CAPTCHA: 'off', PORTAL_API_BASE: API_BASE, NODE_ENV: 'production' };

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;

interface Measured {
  result: Result;
}

/** The demo portal in its own process on a free port (V8 flags as package.json's start passes them, source maps on as start.mjs has them); resolves with its API prefix once ready. */
async function startPortal(env: NodeJS.ProcessEnv): Promise<Server> {
  const server = await startProcess(
    ['--max-semi-space-size=4', '--wasm-lazy-compilation', '--v8-pool-size=1', '--enable-source-maps', BUNDLE],
    { PORT: '0', ...ENV, ...env },
    /Portal ready: (http:\/\/[^\s"]+)/,
    { tsx: false },
  );
  return { ...server, prefix: `${server.prefix}${API_BASE}` };
}

/** The RSS of `IDLE_STARTS` fresh PGlite servers IDLE_MS after ready, each on a new data directory, in MB, sorted. */
async function freshIdleRss(): Promise<number[]> {
  const readings: number[] = [];
  for (let i = 0; i < IDLE_STARTS; i++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-concurrency-idle-'));
    const servers: Server[] = [];
    try {
      servers.push(await startPortal({ PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' }));
      await new Promise((r) => setTimeout(r, IDLE_MS));
      readings.push(rssMb(servers[0].process.pid!));
    } finally {
      await stopProcesses(servers);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return readings.sort((a, b) => a - b);
}

/** autocannon counts timeouts among its errors. */
const failures = (r: Result) => r.errors + r.non2xx;

async function measure(storage: string, env: NodeJS.ProcessEnv): Promise<Measured> {
  const servers: Server[] = [];
  try {
    servers.push(await startPortal(env));
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleRss = rssMb(servers[0].process.pid!);
    console.log(`  [${storage}] idle ${IDLE_MS / 1000} s after ready: ${idleRss.toFixed(0)} MB RSS (${load()})`);
    const sid = await login(servers[0].prefix);
    const url = `${servers[0].prefix}/r/equipment/list?pageNo=1&pageSize=20&__sid=${sid}`;
    const first = (await (await fetch(url)).json()) as { result: string; data?: { count: number; list: unknown[] } };
    if (first.result !== 'true' || !first.data?.list.length) throw new Error(`the equipment list is refused or empty: ${JSON.stringify(first).slice(0, 300)}`);
    console.log(`  [${storage}] nbadmin's equipment list: ${first.data.count} rows, first page of ${first.data.list.length}`);
    await autocannon({ url, connections: CONNECTIONS, duration: WARMUP_SECONDS, timeout: 10 });
    const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, timeout: 10 });
    const total = r.requests.total ?? r.requests.average * SECONDS;
    console.log(
      `  [${storage}] ${r.requests.average.toFixed(0)} req/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms; ` +
        `${r.errors} errors (${r.timeouts} timeouts), ${r.non2xx} non-2xx of ${total} requests; ${rssMb(servers[0].process.pid!).toFixed(0)} MB RSS after (${load()})`,
    );
    printResult(
      `concurrency ${storage} ${CONNECTIONS} connections`,
      `p99 ${r.latency.p99} ms, ${failures(r)} errors/timeouts/non-2xx, ${r.requests.average.toFixed(0)} req/s`,
      `0 errors, p99 ≤ ${GOAL_P99_MS} ms`,
      r.latency.p99 / GOAL_P99_MS,
      failures(r) === 0 && r.latency.p99 <= GOAL_P99_MS,
      'p99/goal',
    );
    return { result: r };
  } finally {
    await stopProcesses(servers);
  }
}

/** One goal line: PASS or MISS (or SKIPPED when unmeasured), what was measured and its ratio. */
function goal(name: string, met: boolean | null, measured: string): void {
  console.log(`  GOAL ${met === null ? 'SKIPPED' : met ? 'PASS' : 'MISS'}  ${name}: ${measured}`);
}

async function main(): Promise<void> {
  console.log(`bench:concurrency — equipment list, first page, ${CONNECTIONS} connections for ${SECONDS} s, one server process (${load()})`);
  await build({ ...NODE_BUNDLE, entryPoints: [join(ROOT, 'src/server/main.ts')], outfile: BUNDLE });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-concurrency-'));
  let pglite: Measured;
  let postgres: Measured | null = null;
  let idleMedian: number;
  try {
    // The templates a fresh start loads, as `npm install` prepares them (scripts/start.mjs --prepare).
    execFileSync(process.execPath, [BUNDLE, '--prepare-database'], {
      env: { ...process.env, ...ENV, PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' },
      stdio: 'ignore',
    });
    const idle = await freshIdleRss();
    idleMedian = idle[Math.floor((idle.length - 1) / 2)];
    console.log(
      `  [PGlite] idle RSS of ${IDLE_STARTS} fresh starts: ${idle.map((x) => x.toFixed(0)).join(', ')} MB, median ${idleMedian.toFixed(0)} MB (${load()})`,
    );
    pglite = await measure('PGlite', { PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' });
    const adminUrl = await reachablePostgres('PostgreSQL');
    if (adminUrl) {
      const database = await throwAwayDatabase(adminUrl, 'portal_bench_concurrency');
      try {
        postgres = await measure('PostgreSQL', { DATABASE_URL: database.url, PORTAL_DEMO: 'on' });
      } finally {
        await database.drop();
      }
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(BUNDLE, { force: true });
    rmSync(`${BUNDLE}.map`, { force: true });
  }
  const p = pglite.result;
  console.log('goals:');
  goal(
    `PGlite p99 ≤ ${GOAL_P99_MS} ms, no errors`,
    failures(p) === 0 && p.latency.p99 <= GOAL_P99_MS,
    `p99 ${p.latency.p99} ms (${(p.latency.p99 / GOAL_P99_MS).toFixed(2)}× the limit), ${failures(p)} errors/timeouts/non-2xx`,
  );
  const share = postgres ? p.requests.average / postgres.result.requests.average : null;
  goal(
    `PGlite throughput ≥ ${GOAL_SHARE}× PostgreSQL`,
    share === null ? null : share >= GOAL_SHARE && failures(postgres!.result) === 0,
    share === null
      ? 'no PostgreSQL (set DATABASE_URL)'
      : `${p.requests.average.toFixed(0)} vs ${postgres!.result.requests.average.toFixed(0)} req/s = ${share.toFixed(2)}× (${(share / GOAL_SHARE).toFixed(2)}× the goal)`,
  );
  goal(
    `PGlite idle RSS ≤ ${GOAL_RSS_MB} MB right after a fresh start (median of ${IDLE_STARTS})`,
    idleMedian <= GOAL_RSS_MB,
    `${idleMedian.toFixed(0)} MB (${(idleMedian / GOAL_RSS_MB).toFixed(2)}× the limit)`,
  );
  // The same two as RESULT lines for `npm run bench`'s table (the p99 one is printed above).
  if (share !== null)
    printResult('concurrency PGlite/PostgreSQL throughput', `${share.toFixed(2)}×`, `≥ ${GOAL_SHARE}×`, share, share >= GOAL_SHARE, 'PGlite/PostgreSQL req/s');
  printResult(
    'concurrency PGlite idle RSS after a fresh start',
    `median ${idleMedian.toFixed(0)} MB of ${IDLE_STARTS} starts`,
    `≤ ${GOAL_RSS_MB} MB`,
    idleMedian / GOAL_RSS_MB,
    idleMedian <= GOAL_RSS_MB,
    'RSS/goal',
  );
}

await main();
