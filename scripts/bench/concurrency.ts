/**
 * npm run bench:concurrency — many users at once on one server process: the demo portal as
 * `npm start` runs it (src/server/main.ts, demo data, default logging to a pipe), nbadmin logged
 * in, and BENCH_CONNECTIONS (default 100) connections asking for the first page of the equipment
 * list for BENCH_SECONDS (default 20) after a short warm-up (autocannon in this process, 10 s
 * request timeout). Measured on the embedded default (PGlite, one connection) and, when
 * DATABASE_URL names a reachable PostgreSQL, on a throw-away database next to it.
 *
 * Goal per storage: no errors, no timeouts, no non-2xx answer, p99 latency ≤ 1 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import type { Server } from './portal';
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:concurrency',
  "Many users at once on one demo server process: BENCH_CONNECTIONS connections ask for the equipment list's first page for BENCH_SECONDS, on the embedded database and, when DATABASE_URL is reachable, on PostgreSQL (goal: no errors or timeouts, p99 ≤ 1 s).",
  [
    ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
    ['BENCH_CONNECTIONS', 'concurrent connections (default 100)'],
    ['BENCH_SECONDS', 'seconds of load (default 20)'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { default: autocannon } = await import('autocannon');
const { login, reachablePostgres, startProcess, stopProcesses, throwAwayDatabase } = await import('./portal');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 3;
const GOAL_P99_MS = 1000;
const API_BASE = '/espServer';
const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));

/** The demo portal in its own process on a free port; resolves with its API prefix once ready. */
async function startPortal(env: NodeJS.ProcessEnv): Promise<Server> {
  const server = await startProcess(
    [MAIN],
    { PORT: '0', HOST: '127.0.0.1', PORTAL_CAPTCHA: 'off', PORTAL_API_BASE: API_BASE, NODE_ENV: 'production', ...env },
    /Portal ready: (http:\/\/[^\s"]+)/,
  );
  return { ...server, prefix: `${server.prefix}${API_BASE}` };
}

/** autocannon counts timeouts among its errors. */
const failures = (r: Result) => r.errors + r.non2xx;

async function measure(storage: string, env: NodeJS.ProcessEnv): Promise<void> {
  const servers: Server[] = [];
  try {
    servers.push(await startPortal(env));
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
        `${r.errors} errors (${r.timeouts} timeouts), ${r.non2xx} non-2xx of ${total} requests`,
    );
    const met = failures(r) === 0 && r.latency.p99 <= GOAL_P99_MS;
    printResult(
      `concurrency ${storage} ${CONNECTIONS} connections`,
      `p99 ${r.latency.p99} ms, ${failures(r)} errors/timeouts/non-2xx, ${r.requests.average.toFixed(0)} req/s`,
      `0 errors, p99 ≤ ${GOAL_P99_MS} ms`,
      r.latency.p99 / GOAL_P99_MS,
      met,
      'p99/goal',
    );
  } finally {
    await stopProcesses(servers);
  }
}

async function main(): Promise<void> {
  console.log(`bench:concurrency — equipment list, first page, ${CONNECTIONS} connections for ${SECONDS} s, one server process`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-concurrency-'));
  try {
    await measure('PGlite', { PORTAL_DATA_DIR: dataDir, DATABASE_URL: '' });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const adminUrl = await reachablePostgres('PostgreSQL');
  if (!adminUrl) return;
  const database = await throwAwayDatabase(adminUrl, 'portal_bench_concurrency');
  try {
    await measure('PostgreSQL', { DATABASE_URL: database.url });
  } finally {
    await database.drop();
  }
}

await main();
