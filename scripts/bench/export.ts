/**
 * npm run bench:export — the XLSX export (`GET /r/equipment/export`, resources/xlsx/export.ts) of a
 * list of BENCH_EXPORT_ROWS (default 200,000) equipment rows against a CSV of the same rows and
 * columns written by this bench (there is no CSV export): the same query (listCriteria of the same
 * session, one REPEATABLE READ transaction, the cursor in batches of EXPORT_BATCH_SIZE), the same
 * column values (exportColumns), written to a sink that only counts the bytes. The XLSX goes over
 * HTTP to a reader in the same process that also only counts them.
 *
 * Each export runs in a new process (the RSS of one must not hide the other's), after a small
 * warm-up export of the same kind; measured: the time and the growth of the process's RSS over
 * what it was before the export (peak, sampled every 20 ms). Order: CSV, XLSX, repeated
 * BENCH_EXPORT_PAIRS times (default 5); medians are reported (and the largest RSS growth beside).
 *
 * On PGlite (a new data directory), and on PostgreSQL when DATABASE_URL is set (a throw-away
 * database; BENCH_EXPORT_STORAGE=postgres skips PGlite). Goal: XLSX ≤ 2 × the CSV
 * time and < 150 MB RSS growth of the XLSX run. The growth is noisy (it is mostly how far V8 lets its heap grow under the allocation rate, and on
 * PGlite the embedded database's memory too): the CSV run's is printed beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from '../../src/server/app';
import type { AnyDb } from '../../src/server/resources/repository';
import type { ExportColumn } from '../../src/server/resources/xlsx/export';
import { benchCommandLine, printResult, seconds } from './report';

if (process.argv[2] !== 'child')
  benchCommandLine(
    'bench:export',
    'The XLSX export of a large equipment list against a CSV of the same rows, each in its own process: time and memory growth (goal: XLSX ≤ 2 × the CSV time, < 150 MB growth).',
    [
      ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
      ['BENCH_EXPORT_ROWS', 'rows (default 200000)'],
      ['BENCH_EXPORT_PAIRS', 'CSV/XLSX pairs (default 5)'],
      ['BENCH_EXPORT_STORAGE', 'postgres: skip the embedded database'],
    ],
  );
// The bench's modules load once the command line is understood (`--help` answers at once).
const { buildApp } = await import('../../src/server/app');
const { demoActor } = await import('../../src/server/db/demo/context');
const { DEMO_UNITS, seedDemoData } = await import('../../src/server/db/seed');
const { bulkEquipment, EQUIPMENT } = await import('../../src/server/domain/equipment/seed');
const { DEFAULT_SCHEMA_DIR, loadCatalog } = await import('../../src/server/resources/catalog');
const { listCriteria } = await import('../../src/server/resources/records');
const { countRows, forEachBatch } = await import('../../src/server/resources/repository');
const { EXPORT_BATCH_SIZE, exportColumns, exportSelect, loadListScreens } = await import('../../src/server/resources/xlsx/export');
const { login, reachablePostgres, startProcess, stopProcesses, throwAwayDatabase } = await import('./portal');

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 200_000);
const PAIRS = Number(process.env.BENCH_EXPORT_PAIRS ?? 5);
const TIME_GOAL = 2;
const RSS_GOAL_MB = 150;
/** The warm-up export: one category (about 1 % of the rows). */
const WARM_UP = { equclacode: '9000' };

type Kind = 'csv' | 'xlsx';
interface Measured {
  seconds: number;
  rssGrowthMb: number;
  bytes: number;
}

const SELF = fileURLToPath(import.meta.url);
const MB = 1024 * 1024;

/** A CSV field: quoted when it holds a comma, quote or line break; dates as YYYY-MM-DD (hh:mm:ss). */
function csvField(value: unknown, column: ExportColumn): string {
  if (value === null || value === undefined) return '';
  const text =
    value instanceof Date
      ? value
          .toISOString()
          .slice(0, column.numFmt?.includes('hh') ? 19 : 10)
          .replace('T', ' ')
      : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A Writable that only counts what it is given. */
function countingSink(): Writable & { bytes: number } {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      sink.bytes += chunk.length;
      done();
    },
  }) as Writable & { bytes: number };
  sink.bytes = 0;
  return sink;
}

/** The child: one export of `kind` against the prepared database, printed as a `result` JSON line. */
async function child(kind: Kind, options: BuildOptions): Promise<void> {
  const app = await buildApp({ ...options, exportMaxRows: ROWS * 2, captchaEnabled: false, logLevel: 'silent', staticDir: null });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const compiled = app.resources.get(EQUIPMENT)!;
    const catalog = loadCatalog();
    const columns = exportColumns(compiled.model, { dictLabels: catalog.dictLabels, listScreens: loadListScreens(DEFAULT_SCHEMA_DIR) });
    const sid = await login(`${address}${app.config.apiBase}`, DEMO_UNITS.using.orgcode);
    const actor = await demoActor(app.db as AnyDb, 'nbadmin', 'using', 'unit');

    const csv = async (input: Record<string, unknown>): Promise<number> => {
      const { conditions, order } = listCriteria(compiled, actor, input);
      const out = new PassThrough();
      const sink = countingSink();
      const piped = pipeline(out, sink);
      await app.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute(async (trx) => {
          await countRows(trx, compiled.model, conditions);
          out.write(`${columns.map((c) => csvField(c.header, c)).join(',')}\r\n`);
          await forEachBatch(
            trx,
            compiled.model,
            conditions,
            order,
            EXPORT_BATCH_SIZE,
            async (rows) => {
              const text = rows.map((row) => `${columns.map((c) => csvField(c.value(row), c)).join(',')}\r\n`).join('');
              if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
            },
            exportSelect(compiled.model, columns, compiled.runtime.models),
          );
        });
      out.end();
      await piped;
      return sink.bytes;
    };
    const xlsx = async (input: Record<string, string>): Promise<number> => {
      const res = await fetch(`${address}${app.config.apiBase}/r/${EQUIPMENT}/export?${new URLSearchParams({ ...input, __sid: sid })}`);
      if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const reader = res.body.getReader();
      let bytes = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.length;
      return bytes;
    };
    const run = kind === 'csv' ? csv : xlsx;

    await run(WARM_UP);
    (globalThis as { gc?: () => void }).gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = performance.now();
    const bytes = await run({});
    const elapsed = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    const measured: Measured = { seconds: elapsed, rssGrowthMb: (peak - before) / MB, bytes };
    console.log(`result ${JSON.stringify(measured)}`);
  } finally {
    await app.close();
  }
}

/** Runs one export in a new process. */
async function measureOnce(kind: Kind, options: BuildOptions): Promise<Measured> {
  const server = await startProcess(['--expose-gc', SELF, 'child', kind, JSON.stringify(options)], {}, /^result (.+)$/);
  await stopProcesses([server]);
  return JSON.parse(server.prefix) as Measured;
}

async function measure(label: string, options: BuildOptions): Promise<void> {
  const app = await buildApp({ ...options, captchaEnabled: false, logLevel: 'silent', staticDir: null });
  try {
    await app.ready();
    await seedDemoData(app.db);
    const started = performance.now();
    await bulkEquipment(app, ROWS);
    console.log(`  ${label}: ${ROWS.toLocaleString('en')} equipment rows seeded in ${seconds((performance.now() - started) / 1000)}`);
  } finally {
    await app.close();
  }
  const runs: Record<Kind, Measured[]> = { csv: [], xlsx: [] };
  for (let i = 0; i < PAIRS; i++) {
    for (const kind of ['csv', 'xlsx'] as const) {
      const m = await measureOnce(kind, options);
      runs[kind].push(m);
      console.log(
        `  ${label}: ${kind.toUpperCase().padEnd(4)} ${seconds(m.seconds)}, RSS +${m.rssGrowthMb.toFixed(0)} MB, ${(m.bytes / MB).toFixed(1)} MB written`,
      );
    }
  }
  const median = (kind: Kind, key: 'seconds' | 'rssGrowthMb') => {
    const xs = runs[kind].map((m) => m[key]).sort((a, b) => a - b);
    return xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
  };
  const largest = (kind: Kind) => Math.max(...runs[kind].map((m) => m.rssGrowthMb));
  const ratio = median('xlsx', 'seconds') / median('csv', 'seconds');
  const rss = median('xlsx', 'rssGrowthMb');
  printResult(
    `export ${ROWS.toLocaleString('en')} rows XLSX vs CSV, ${label}`,
    `median of ${PAIRS}: XLSX ${seconds(median('xlsx', 'seconds'))} / CSV ${seconds(median('csv', 'seconds'))}; RSS growth XLSX +${rss.toFixed(0)} MB (largest +${largest('xlsx').toFixed(0)}; CSV +${median('csv', 'rssGrowthMb').toFixed(0)} MB)`,
    `≤ ${TIME_GOAL}× CSV time, < ${RSS_GOAL_MB} MB RSS growth`,
    ratio,
    ratio <= TIME_GOAL && rss < RSS_GOAL_MB,
    'XLSX/CSV time',
  );
}

if (process.argv[2] === 'child') {
  await child(process.argv[3] as Kind, JSON.parse(process.argv[4]) as BuildOptions);
} else {
  console.log(`bench:export — XLSX export vs a CSV of the same ${ROWS.toLocaleString('en')} rows and columns, each in a new process`);
  if (process.env.BENCH_EXPORT_STORAGE !== 'postgres') {
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-export-'));
    try {
      await measure('PGlite', { databaseUrl: null, dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const adminUrl = await reachablePostgres('PostgreSQL');
  if (adminUrl) {
    const database = await throwAwayDatabase(adminUrl, 'portal_bench_export');
    try {
      await measure('PostgreSQL', { databaseUrl: database.url });
    } finally {
      await database.drop();
    }
  }
}
