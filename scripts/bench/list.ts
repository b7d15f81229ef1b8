/**
 * npm run bench:list — the list endpoint over 1,000,000 generated rows on PostgreSQL: the engine
 * (buildApp, /r/<resource>/list) vs a hand-written Fastify route + SQL serving the same filtered,
 * paged queries (list-fixture.ts QUERIES) with the same page shape, both behind a real logged-in
 * session and the unit scope.
 *
 * Needs DATABASE_URL (any database on the server: a throw-away `portal_bench_*` database is made
 * next to it and dropped at the end); without it, or when the server is unreachable, it says so and
 * exits 0. Each server runs in its own process; autocannon (this process) drives them over
 * loopback: a warm-up, then engine, baseline, baseline, engine for BENCH_SECONDS (default 10) each.
 * Goal: engine ≥ 0.8 × baseline requests/s on the filtered page, ≥ 0.95 × on the light first page.
 *
 * Env: BENCH_ROWS (default 1000000), BENCH_SECONDS (10), BENCH_CONNECTIONS (10).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Result } from 'autocannon';
import type { Server } from './portal';
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:list',
  "The list endpoint over generated rows on PostgreSQL: the engine's /r/<resource>/list against a hand-written Fastify route and SQL serving the same pages (goal: engine ≥ 0.8 × the baseline's requests/s on the filtered page, ≥ 0.95 × on the first page). Needs DATABASE_URL; without it, it says so and exits 0.",
  [
    ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
    ['BENCH_ROWS', 'rows generated (default 1000000)'],
    ['BENCH_SECONDS', 'seconds per run (default 10)'],
    ['BENCH_CONNECTIONS', 'concurrent connections (default 10)'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { default: autocannon } = await import('autocannon');
const { buildApp } = await import('../../src/server/app');
const { DEMO_UNITS, seedDemoData } = await import('../../src/server/db/seed');
const { QUERIES, RESOURCE, TABLE, insertRowsSql, queryString, writeSchemaDir } = await import('./list-fixture');
const { cleanupOnce, login, reachablePostgres, startProcess, stopProcesses, throwAwayDatabase, withClient } = await import('./portal');

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 3;
const INSERT_CHUNK = 250_000;
/** Engine/baseline throughput goals: the database-bound filtered page, and the light first page where the engine's own per-request cost shows. */
const GOALS: Record<string, number> = { filtered: 0.8, 'first-page': 0.95 };
/** The whole run must stay under five minutes; past this it aborts and cleans up. */
const DEADLINE_MS = 4.5 * 60_000;

const SERVER_SCRIPT = fileURLToPath(new URL('./list-server.ts', import.meta.url));

const log = (message: string) => console.log(`  ${message}`);

/** Creates the tables through the engine (as `npm start` would), the demo accounts, then the rows. */
async function prepareDatabase(url: string, schemaDir: string): Promise<void> {
  const app = await buildApp({ databaseUrl: url, schemaDir, captchaEnabled: false, logLevel: 'silent', staticDir: null });
  try {
    await seedDemoData(app.db);
  } finally {
    await app.close();
  }
  await withClient(url, async (client) => {
    const started = performance.now();
    for (let from = 1; from <= ROWS; from += INSERT_CHUNK) {
      const to = Math.min(ROWS, from + INSERT_CHUNK - 1);
      await client.query(insertRowsSql(from, to));
      process.stdout.write(`\r  generating rows: ${to.toLocaleString('en')} / ${ROWS.toLocaleString('en')}`);
    }
    await client.query(`VACUUM ANALYZE ${TABLE}`);
    console.log(` (${((performance.now() - started) / 1000).toFixed(1)} s incl. indexes and ANALYZE)`);
  });
}

/** Starts list-server.ts in its own process and waits for its `listening <prefix>` line. */
const startServer = (mode: 'engine' | 'baseline', env: NodeJS.ProcessEnv): Promise<Server> => startProcess([SERVER_SCRIPT, mode], env, /^listening (\S+)$/);

interface PageReply {
  result: string;
  data: { count: number; list: { id: string; unitId: string }[] };
}

/** Both servers must answer the same page for the same URL, or the comparison means nothing. */
async function assertSameAnswer(engineUrl: string, baselineUrl: string, unitId: string): Promise<number> {
  const [a, b] = await Promise.all([engineUrl, baselineUrl].map(async (url) => (await (await fetch(url)).json()) as PageReply));
  if (a.result !== 'true' || b.result !== 'true')
    throw new Error(`a server refused the bench query: ${JSON.stringify({ engine: a, baseline: b }).slice(0, 400)}`);
  const ids = (p: PageReply) => p.data.list.map((r) => r.id).join();
  if (a.data.count !== b.data.count || ids(a) !== ids(b)) throw new Error(`engine and baseline disagree: count ${a.data.count} vs ${b.data.count}`);
  if (a.data.list.length === 0 || a.data.list.some((r) => r.unitId !== unitId)) throw new Error('the bench page is empty or not scoped to the unit');
  return a.data.count;
}

async function load(url: string, duration: number): Promise<Result> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, timeout: 10 });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx replies, ${result.errors} errors`);
  return result;
}

/** Warm-up, then engine, baseline, baseline, engine; prints each run and the mean ratio. */
async function measure(name: string, engineUrl: string, baselineUrl: string): Promise<void> {
  await load(engineUrl, WARMUP_SECONDS);
  await load(baselineUrl, WARMUP_SECONDS);
  const runs: { server: 'engine' | 'baseline'; result: Result }[] = [];
  for (const server of ['engine', 'baseline', 'baseline', 'engine'] as const) {
    const result = await load(server === 'engine' ? engineUrl : baselineUrl, SECONDS);
    runs.push({ server, result });
    log(`${server.padEnd(8)} ${result.requests.average.toFixed(0).padStart(6)} req/s   latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`);
  }
  const mean = (server: string) => {
    const mine = runs.filter((r) => r.server === server);
    return mine.reduce((sum, r) => sum + r.result.requests.average, 0) / mine.length;
  };
  const ratio = mean('engine') / mean('baseline');
  const goal = GOALS[name] ?? 0.8;
  printResult(
    `list ${name} throughput`,
    `engine ${mean('engine').toFixed(0)} vs baseline ${mean('baseline').toFixed(0)} req/s`,
    `≥ ${goal}×`,
    ratio,
    ratio >= goal,
    'engine/baseline',
  );
}

async function main(): Promise<void> {
  console.log(`bench:list — ${ROWS.toLocaleString('en')} rows, engine vs hand-written Fastify + SQL, ${CONNECTIONS} connections, ${SECONDS} s × 2 each`);
  const adminUrl = await reachablePostgres('bench:list');
  if (!adminUrl) return;

  let database: Awaited<ReturnType<typeof throwAwayDatabase>> | undefined;
  const schemaDir = mkdtempSync(join(tmpdir(), 'bench-list-'));
  const servers: Server[] = [];
  const cleanup = cleanupOnce(DEADLINE_MS, async () => {
    await stopProcesses(servers);
    await database?.drop();
    rmSync(schemaDir, { recursive: true, force: true });
  });

  try {
    database = await throwAwayDatabase(adminUrl, 'portal_bench');
    writeSchemaDir(schemaDir);
    await prepareDatabase(database.url, schemaDir);

    const env = { BENCH_DATABASE_URL: database.url, BENCH_SCHEMA_DIR: schemaDir };
    servers.push(await startServer('engine', env), await startServer('baseline', env));
    const [engine, baseline] = servers;
    const sid = await login(engine.prefix);
    for (const [name, query] of Object.entries(QUERIES)) {
      const engineUrl = `${engine.prefix}/r/${RESOURCE}/list?${queryString(query)}&__sid=${sid}`;
      const baselineUrl = `${baseline.prefix}/list?${queryString(query)}&__sid=${sid}`;
      const count = await assertSameAnswer(engineUrl, baselineUrl, DEMO_UNITS.using.id);
      console.log(`  [${name}] unit scope + ${JSON.stringify(query)} → ${count.toLocaleString('en')} matching rows; both servers return the same page`);
      await measure(name, engineUrl, baselineUrl);
    }
  } finally {
    await cleanup();
  }
}

await main();
