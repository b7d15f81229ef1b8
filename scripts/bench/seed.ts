/**
 * npm run bench:seed — bulk seeding of generated equipment rows (`npm run seed -- --equipment N`,
 * bulkEquipment): the COPY path against the former multi-row INSERT path, measured in the same run
 * on the same kind of database, both preparing every row the same way (resources/bulk.ts: derive
 * hooks, owner, audit columns). Each path starts from an empty equipment table in a new database:
 * on PGlite (a new data directory), and on PostgreSQL when DATABASE_URL is set (a throw-away
 * `portal_bench_seed_*` database next to it, dropped at the end).
 *
 * Goal: 1,000,000 rows in ≤ 3 min, measured: the COPY path loads the whole million (an
 * extrapolation from fewer rows would not see index builds and B-trees grow faster than the rows;
 * ~2 min on PGlite, ~1 min on PostgreSQL here). The INSERT baseline (22 min per million at the
 * issue's start) is extrapolated from its rows; the ratio is COPY/INSERT time per row.
 *
 * Env: BENCH_SEED_ROWS (COPY, default 1000000; fewer gives an extrapolated, quicker figure),
 * BENCH_SEED_BASELINE_ROWS (INSERT, default 20000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchCommandLine, printResult, seconds } from './report';

benchCommandLine(
  'bench:seed',
  'Bulk seeding of generated equipment rows: the COPY path against the multi-row INSERT path, on the embedded database and, when DATABASE_URL is set, on a throw-away PostgreSQL database (goal: 1,000,000 rows in ≤ 3 min).',
  [
    ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
    ['BENCH_SEED_ROWS', 'rows by COPY (default 1000000)'],
    ['BENCH_SEED_BASELINE_ROWS', 'rows by INSERT (default 20000)'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { sql } = await import('kysely');
const { buildApp } = await import('../../src/server/app');
const { seedDemoData } = await import('../../src/server/db/seed');
const { bulkEquipment, EQUIPMENT } = await import('../../src/server/domain/equipment/seed');
const { reachablePostgres, throwAwayDatabase } = await import('./portal');

const ROWS = Number(process.env.BENCH_SEED_ROWS ?? 1_000_000);
const BASELINE_ROWS = Number(process.env.BENCH_SEED_BASELINE_ROWS ?? 20_000);
const TARGET_ROWS = 1_000_000;
const GOAL_S = 180;

type Target = { databaseUrl: string } | { dataDir: string };

/** Seconds `method` takes to bulk-seed `count` rows into a new database of `target`; checks the count. */
async function timeSeed(target: Target, method: 'copy' | 'insert', count: number): Promise<number> {
  const app = await buildApp({ databaseUrl: null, ...target, captchaEnabled: false, logLevel: 'silent', staticDir: null, pgStatementTimeoutMs: 0 });
  try {
    await app.ready();
    await seedDemoData(app.db);
    const table = sql.table(app.resources.get(EQUIPMENT)!.model.table);
    const started = performance.now();
    await bulkEquipment(app, count, { method });
    const elapsed = (performance.now() - started) / 1000;
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${table}`.execute(app.db);
    if (rows[0].n !== count) throw new Error(`${method}: ${rows[0].n} rows in the table, ${count} seeded`);
    return elapsed;
  } finally {
    await app.close();
  }
}

async function measure(label: string, newTarget: () => Promise<{ target: Target; drop: () => Promise<void> }>): Promise<void> {
  const run = async (method: 'copy' | 'insert', count: number) => {
    const { target, drop } = await newTarget();
    try {
      const s = await timeSeed(target, method, count);
      console.log(
        `  ${label}: ${method.toUpperCase().padEnd(6)} ${count.toLocaleString('en').padStart(9)} rows in ${seconds(s)} (${Math.round(count / s).toLocaleString('en')} rows/s)`,
      );
      return (s * TARGET_ROWS) / count;
    } finally {
      await drop();
    }
  };
  const insert = await run('insert', BASELINE_ROWS);
  const copy = await run('copy', ROWS);
  const how = ROWS === TARGET_ROWS ? 'measured' : `extrapolated from ${ROWS.toLocaleString('en')}`;
  printResult(
    `seed 1,000,000 equipment rows, ${label}`,
    `COPY ${seconds(copy)} (${how}), INSERT ${seconds(insert)} (extrapolated from ${BASELINE_ROWS.toLocaleString('en')})`,
    `≤ ${GOAL_S} s`,
    copy / insert,
    copy <= GOAL_S,
    'COPY/INSERT time per row',
  );
}

console.log(
  `bench:seed — bulk equipment seeding: COPY (${ROWS.toLocaleString('en')} rows) vs multi-row INSERT (${BASELINE_ROWS.toLocaleString('en')} rows), 1M figure per kind of database`,
);
await measure('PGlite', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-seed-'));
  return { target: { dataDir }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
});
const adminUrl = await reachablePostgres('PostgreSQL');
if (adminUrl) {
  await measure('PostgreSQL', async () => {
    const database = await throwAwayDatabase(adminUrl, 'portal_bench_seed');
    return { target: { databaseUrl: database.url }, drop: database.drop };
  });
}
