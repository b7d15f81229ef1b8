/**
 * Bulk loads of new records (seeds at benchmark volumes): each body prepared exactly as
 * insertRecord prepares it (prepareInsert: derive hooks, serials, session values, owner, initial
 * state, id, audit columns), then written by COPY (db/copy.ts) while the next ones are prepared.
 * `method: 'insert'` writes the same prepared rows in multi-row INSERTs instead: the former path,
 * kept as the baseline of `npm run bench:seed`.
 *
 * No sub-table rows and no flow log are written: for resources without sub-tables or workflow.
 */
import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { copyRows, databaseRunsBeside, type RowBatches } from '../db/copy';
import { inTransaction } from '../db/index';
import { quote } from './naming';
import type { AnyDb } from './repository';
import type { Actor } from './scope';
import { prepareInsert, type HookedResource, type InsertOptions } from './writer';
import { assertWritable } from './system-table';
import { sealValues } from './sealed-fields';

/**
 * Bind parameters per INSERT: PostgreSQL takes 65,535, but PGlite 0.4 answers every later query
 * with no rows after a statement of more than 32,767 (measured), so both get 32,767.
 */
const MAX_PARAMETERS = 32_767;

/** Prepared rows handed to the writer at a time (db/copy.ts RowBatches). */
const BATCH_ROWS = 500;

export interface BulkOptions extends InsertOptions {
  method?: 'copy' | 'insert';
  /**
   * Drop the table's secondary indexes (neither the primary key nor unique) before the load and
   * build them again after it, failed or not: for a load that is large next to the table, several
   * times faster than keeping them up row by row (a million rows on PostgreSQL, measured: 94 s
   * instead of 259 s for the database's part). Queries of the table are slow meanwhile; should the
   * process die in between, the server builds the missing indexes at its next start (ddl.ts).
   * A database in its own process on a machine of several cores keeps its B-tree indexes up during
   * the load, on a core the row preparation leaves idle, and defers only the GIN ones (costly row by
   * row): a million rows on PostgreSQL, 2 cores, measured: load 144 s either way, then 27 s of index
   * builds instead of 41 s.
   */
  deferIndexes?: boolean;
  /** Hears the number of rows prepared so far, every `progressEvery` rows and at the end. */
  onProgress?: (done: number) => void;
  progressEvery?: number;
}

type Bodies = AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;

/** Inserts a new record per body; returns how many. */
export async function bulkInsertRecords(db: AnyDb, resource: HookedResource, actor: Actor, bodies: Bodies, options: BulkOptions = {}): Promise<number> {
  const { model } = resource;
  assertWritable(model);
  if (model.workflow || model.children.length) throw new Error(`bulk insert of '${model.name}': its flow log or sub-table rows would not be written`);
  // Every column a prepared row may set; the system columns with a DEFAULT (timestamps, version) take it.
  const columns = model.columns.filter((c) => !c.constraint?.includes('DEFAULT')).map((c) => c.column);
  const known = new Set(columns);
  const jsonColumns = new Set(model.fields.filter((f) => f.kind === 'json').map((f) => f.column));
  const every = options.progressEvery ?? 10_000;
  let done = 0;
  async function* rows(): AsyncGenerator<unknown[][]> {
    let batch: unknown[][] = [];
    for await (const body of bodies) {
      // Encrypted columns sealed as insertRow seals them (sealed-fields.ts; nothing in the standard mode).
      const values = sealValues(model, (await prepareInsert(db, resource, actor, body, options)).values);
      for (const column of Object.keys(values)) if (!known.has(column)) throw new Error(`bulk insert of '${model.name}': no column '${column}'`);
      batch.push(columns.map((c) => values[c] ?? null));
      if (++done % every === 0) options.onProgress?.(done);
      if (batch.length === BATCH_ROWS) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
  const load = () =>
    options.method === 'insert' ? insertBatches(db, model.table, columns, jsonColumns, rows()) : copyRows(db, model.table, columns, rows(), { jsonColumns });
  await (options.deferIndexes ? withoutSecondaryIndexes(db, model.table, load) : load());
  if (done % every !== 0) options.onProgress?.(done);
  return done;
}

/**
 * Index builds at once: PostgreSQL lets several CREATE INDEX run on one table (each takes a SHARE
 * lock), and one build keeps one core busy — a GIN trigram index over a million rows takes tens of
 * seconds. PGlite's one connection runs them one after the other whatever this says.
 */
const INDEX_BUILDERS = Math.max(1, Math.min(4, availableParallelism()));

/**
 * Runs `load` with the secondary indexes of `table` dropped (on a database beside this process,
 * the GIN ones only: BulkOptions.deferIndexes), then builds them again, failed or not:
 * INDEX_BUILDERS transactions at once, each taking the next index (GIN, the slow ones, first).
 * Should one build fail, the others stand and the server builds the missing ones at its next start.
 */
async function withoutSecondaryIndexes(db: AnyDb, table: string, load: () => Promise<unknown>): Promise<void> {
  const onlyGin = INDEX_BUILDERS > 1 && databaseRunsBeside(db);
  const { rows: indexes } = await sql<{ name: string; definition: string; gin: boolean }>`
    SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition, am.amname = 'gin' AS gin
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
    WHERE i.indrelid = ${quote(table)}::regclass AND NOT i.indisprimary AND NOT i.indisunique AND (am.amname = 'gin' OR NOT ${onlyGin})`.execute(db);
  for (const index of indexes) await sql`DROP INDEX IF EXISTS ${sql.id(index.name)}`.execute(db);
  try {
    await load();
  } finally {
    const queue = [...indexes].sort((a, b) => Number(b.gin) - Number(a.gin));
    const builder = () =>
      inTransaction(db, async (trx) => {
        await sql`SET LOCAL maintenance_work_mem = '128MB'`.execute(trx);
        for (let index = queue.shift(); index; index = queue.shift()) await sql.raw(index.definition).execute(trx);
      });
    const built = await Promise.allSettled(Array.from({ length: Math.min(INDEX_BUILDERS, queue.length) }, builder));
    const failed = built.find((b): b is PromiseRejectedResult => b.status === 'rejected');
    // eslint-disable-next-line no-unsafe-finally -- a failed index rebuild must surface even when the load failed too
    if (failed) throw failed.reason;
  }
}

/** The multi-row INSERT path: batches of as many rows as the bind parameters allow (at most 2000). */
async function insertBatches(db: AnyDb, table: string, columns: readonly string[], jsonColumns: ReadonlySet<string>, batches: RowBatches): Promise<void> {
  const size = Math.min(2000, Math.floor(MAX_PARAMETERS / columns.length));
  const head = sql`INSERT INTO ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES `;
  const json = columns.map((c) => jsonColumns.has(c));
  let batch: unknown[][] = [];
  const flush = async () => {
    if (!batch.length) return;
    const tuples = batch.map((row) => sql`(${sql.join(row.map((v, i) => (v !== null && json[i] ? JSON.stringify(v) : v)))})`);
    await sql`${head}${sql.join(tuples)}`.execute(db);
    batch = [];
  };
  for await (const rows of batches) {
    for (const row of rows) {
      batch.push(row as unknown[]);
      if (batch.length >= size) await flush();
    }
  }
  await flush();
}
