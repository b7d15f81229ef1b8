/**
 * SQL over resource tables. Column lists are prepared once (model.ts); every value travels as a
 * bind parameter; every read and write of a scoped resource carries the visibility condition.
 * Encrypted fields (sealed-fields.ts, sm mode) are sealed on every insert and update here and
 * opened after every read here, so callers see plain (or masked) values in every mode.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { newId } from '../db/ids';
import { KEEP_PLAN } from '../db/pg-prepared';
import { AppError } from '../errors';
import type { ChildLink, ResourceModel } from './model';
import { quote } from './naming';
import { indexColumnOf } from './sealed-columns';
import { openRows, sealValues } from './sealed-fields';
import { assertWritable } from './system-table';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resource tables are not in the static Database type
export type AnyDb = Kysely<any>;
export type Row = Record<string, unknown>;
/** Column → value of an insert or update. */
export type Values = Record<string, unknown>;
/** A row to write with the rows of its sub-tables. */
export interface RecordInput {
  values: Values;
  children: Map<ChildLink, RecordInput[]>;
}

const UNIQUE_VIOLATION = '23505';

const table = (model: ResourceModel) => sql.raw(quote(model.table));
const select = (model: ResourceModel) => sql.raw(model.selectSql);
/** The select list with masked fields masked (masking.ts): what lists and exports read. */
const selectMasked = (model: ResourceModel) => sql.raw(model.maskedSelectSql);
/** `WHERE a AND b …` of the conditions given (none: nothing), for every query over a resource's rows. */
export const where = (conditions: readonly (RawBuilder<boolean> | undefined)[]) => {
  const present = conditions.filter((c): c is RawBuilder<boolean> => c !== undefined);
  return present.length > 0 ? sql`WHERE ${sql.join(present, sql` AND `)}` : sql``;
};

/** jsonb values go as JSON text (a JS array would otherwise become a PostgreSQL array). */
function bind(model: ResourceModel, column: string, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  return jsonColumns(model).has(column) ? JSON.stringify(value) : value;
}

const jsonColumnCache = new WeakMap<ResourceModel, ReadonlySet<string>>();
function jsonColumns(model: ResourceModel): ReadonlySet<string> {
  let set = jsonColumnCache.get(model);
  if (!set) {
    set = new Set(model.columns.filter((c) => c.sqlType === 'jsonb').map((c) => c.column));
    jsonColumnCache.set(model, set);
  }
  return set;
}

/**
 * A unique index's refusal as DUPLICATE_VALUE, its message naming the field whose value is taken
 * when the index is one of the model's (an import reports it at that field's column).
 */
async function guardUnique<T>(model: ResourceModel, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const { code, constraint } = err as { code?: string; constraint?: string };
    if (code !== UNIQUE_VIOLATION) throw err;
    const index = model.indexes.find((i) => i.unique && i.name === constraint);
    const column = index?.columns[index.columns.length - 1];
    const field = model.fields.find((f) => f.column === column || (f.sealed && indexColumnOf(f.column) === column));
    if (!field) throw new AppError('DUPLICATE_VALUE');
    throw new AppError('DUPLICATE_VALUE', `${field.label}已存在，不能重复`, { field: field.name });
  }
}

/** The rows matching `conditions` in `order`: the one statement behind a list page and an export. */
const matching = (model: ResourceModel, conditions: (RawBuilder<boolean> | undefined)[], order: string, selectList?: string) =>
  sql<Row>`SELECT ${selectList ? sql.raw(selectList) : selectMasked(model)} FROM ${table(model)} ${where(conditions)} ORDER BY ${sql.raw(order)}`;

/** How many rows match `conditions`. */
export async function countRows(db: AnyDb, model: ResourceModel, conditions: (RawBuilder<boolean> | undefined)[]): Promise<number> {
  const { rows } = await sql<{ count: number }>`SELECT count(*)::int AS count FROM ${table(model)} ${where(conditions)}`.execute(db);
  return rows[0].count;
}

/**
 * Lists count at most this many rows: beyond it the count stops (a lower bound, `capped`), so a
 * page over millions of matching rows costs the same as one over a hundred thousand.
 */
export const COUNT_CAP = 100_000;

/** The (capped) count of the rows matching `conditions`, as a scalar subquery. */
const countSql = (model: ResourceModel, conditions: (RawBuilder<boolean> | undefined)[], capped: boolean) =>
  capped
    ? sql<number>`(SELECT count(*)::int FROM (SELECT 1 FROM ${table(model)} ${where(conditions)} LIMIT ${COUNT_CAP + 1}) AS matching)`
    : sql<number>`(SELECT count(*)::int FROM ${table(model)} ${where(conditions)})`;

/**
 * An owner whose rows the statistics put at most at this many is counted without the cap: the
 * cap's LIMIT costs ~25 % of the count (pgbench, 20,000 of 1,000,000 rows: 444 vs 560 counts/s),
 * and a quarter of the cap leaves room for statistics that lag behind the table.
 */
const UNCAPPED_ESTIMATE = COUNT_CAP / 4;
/** How long an estimate is reused: statistics change only when PostgreSQL analyzes the table. */
const ESTIMATE_TTL_MS = 60_000;
const estimateCache = new WeakMap<object, Map<string, { rows: number | null; at: number }>>();

/**
 * How many rows of `model` have `owner` in the owner column, as the table's statistics estimate
 * it (the planner's own arithmetic for an equality: the value's frequency among the most common
 * values, or an equal share of what the others leave); null when the table has no statistics (the
 * embedded database never analyzes). Cached per database and owner for ESTIMATE_TTL_MS.
 */
export async function ownerRowsEstimate(db: AnyDb, model: ResourceModel, owner: string): Promise<number | null> {
  if (!model.ownerColumn) return null;
  let cache = estimateCache.get(db);
  if (!cache) estimateCache.set(db, (cache = new Map<string, { rows: number | null; at: number }>()));
  const key = `${model.table}\0${owner}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ESTIMATE_TTL_MS) return hit.rows;
  const { rows } = await sql<{ rows: number | null }>`
    SELECT (CASE WHEN s.position IS NOT NULL THEN s.most_common_freqs[s.position]
      ELSE (1 - s.null_frac - coalesce((SELECT sum(f) FROM unnest(s.most_common_freqs) AS f), 0))
        / greatest(1, (CASE WHEN s.n_distinct >= 0 THEN s.n_distinct ELSE -s.n_distinct * c.reltuples END) - coalesce(cardinality(s.most_common_freqs), 0))
      END * c.reltuples)::float8 AS rows
    FROM pg_class c
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN LATERAL (SELECT st.*, array_position(st.most_common_vals::text::text[], ${owner}) AS position FROM pg_stats st
      WHERE st.schemaname = n.nspname AND st.tablename = c.relname AND st.attname = ${model.ownerColumn}) AS s ON true
    WHERE c.oid = to_regclass(${quote(model.table)}) AND c.reltuples >= 0`.execute(db);
  const estimate = rows[0]?.rows ?? null;
  if (cache.size >= 10_000) cache.clear();
  cache.set(key, { rows: estimate, at: Date.now() });
  return estimate;
}

/**
 * One page in `order` and the (capped) total count in one statement: the embedded database runs
 * one statement at a time for the whole process, so a list costs one turn instead of two; on
 * PostgreSQL, two statements at once (count and page on two connections) cost the server more than
 * they saved the database: 0.84x the one statement's throughput on the light first page (npm run bench:list).
 *
 * The page comes back as one JSON text (`json_agg` over the ordered page: a sorted subquery feeds
 * the aggregate in its order; the order always ends with the id, so it is total) instead of a row
 * of ~60 values per record converted one value at a time by the driver — on PGlite most of a list
 * request's time. The select list gives each value its JSON shape (dates as text, numerics as
 * float8) and names exactly the model's fields, the properties of the row schema (schemas.ts
 * rowSchema): the text is the page's `list` as the route's serialiser would write it.
 *
 * The page's rows: on the first page in an order an index serves (`orderIndexed`: the default
 * order, scope column, creation time and id, model.ts indexesOf), straight from the table — the index
 * yields the rows in order and the select list is computed for the page only. Otherwise the page's
 * ids first (sorting and skipping narrow rows), then its rows, so the select list (to_char of every
 * date, ~60 values a record) is not computed for every row a sort reads or an offset skips.
 * pgbench over 200,000 rows: ids first costs 1.7x the direct read on the first page in created
 * order (planning two scans, 20 key lookups), and saves 2x on a page 10 deep or a page sorted by
 * another column.
 *
 * `planStable`: the statement's best plan does not depend on its values (no condition but an
 * equality on the owner column), so PostgreSQL may keep its plan (pg-prepared.ts KEEP_PLAN).
 * `owner`: the value of that equality when it is the only condition; an owner the statistics put
 * well below COUNT_CAP is counted without the cap (ownerRowsEstimate).
 */
export async function listPage(
  db: AnyDb,
  model: ResourceModel,
  conditions: (RawBuilder<boolean> | undefined)[],
  order: string,
  limit: number,
  offset: number,
  {
    orderIndexed = false,
    planStable = false,
    owner,
    extra,
  }: { orderIndexed?: boolean; planStable?: boolean; owner?: string; extra?: RawBuilder<unknown> } = {},
): Promise<{ listJson: string; count: number; capped: boolean }> {
  const estimate = owner === undefined ? null : await ownerRowsEstimate(db, model, owner);
  const capCount = estimate === null || estimate > UNCAPPED_ESTIMATE;
  const orderBy = sql.raw(order);
  // `extra`: one more aliased expression per row beside the fields (a per-user flag, e.g. unread).
  const selected = extra ? sql`${selectMasked(model)}, ${extra}` : selectMasked(model);
  const pageRows =
    orderIndexed && offset === 0
      ? sql<Row>`SELECT ${selected} FROM ${table(model)} ${where(conditions)} ORDER BY ${orderBy} LIMIT ${limit}`
      : sql<Row>`SELECT ${selected} FROM ${table(model)} WHERE id IN (SELECT id FROM ${table(model)} ${where(conditions)} ORDER BY ${orderBy} LIMIT ${limit} OFFSET ${offset}) ORDER BY ${orderBy}`;
  const keep = sql.raw(planStable ? KEEP_PLAN : '');
  const { rows } = await sql<{
    count: number;
    list: string;
  }>`${keep}SELECT ${countSql(model, conditions, capCount)} AS count, (SELECT coalesce(json_agg(page), '[]')::text FROM (${pageRows}) AS page) AS list`.execute(
    db,
  );
  const { count, list } = rows[0];
  // Encrypted fields come as stored: opened and masked here (the standard mode never parses the page).
  const listJson = model.sealed.length > 0 ? JSON.stringify(openRows(model, JSON.parse(list) as Row[], true)) : list;
  return { listJson, count: Math.min(count, COUNT_CAP), capped: count > COUNT_CAP };
}

/**
 * Every row matching `conditions`, in `order`, handed to `onBatch` `batchSize` rows at a time
 * through a server-side cursor, so memory stays flat however many rows match. Must run inside a
 * transaction (the cursor lives until it ends); `onBatch` may await (back-pressure) between fetches.
 * `selectList` (default: every field) is the select list (model.ts selectSqlOf): an export reads only its columns.
 */
export async function forEachBatch(
  trx: AnyDb,
  model: ResourceModel,
  conditions: (RawBuilder<boolean> | undefined)[],
  order: string,
  batchSize: number,
  onBatch: (rows: Row[]) => Promise<void>,
  selectList?: string,
): Promise<void> {
  await sql`DECLARE matching_rows NO SCROLL CURSOR FOR ${matching(model, conditions, order, selectList)}`.execute(trx);
  for (;;) {
    const { rows } = await sql<Row>`FETCH FORWARD ${sql.raw(String(Math.trunc(batchSize)))} FROM matching_rows`.execute(trx);
    if (rows.length > 0) await onBatch(openRows(model, rows, true));
    if (rows.length < batchSize) break;
  }
  await sql`CLOSE matching_rows`.execute(trx);
}

/** A visible row by id; `forUpdate` locks it until the transaction ends. */
export async function findRow(
  db: AnyDb,
  model: ResourceModel,
  id: string,
  visible: RawBuilder<boolean> | undefined,
  forUpdate = false,
): Promise<Row | undefined> {
  const lock = forUpdate ? sql`FOR UPDATE` : sql``;
  const { rows } = await sql<Row>`SELECT ${select(model)} FROM ${table(model)} ${where([sql<boolean>`id = ${id}`, visible])} ${lock}`.execute(db);
  return openRows(model, rows, false)[0];
}

export async function insertRow(db: AnyDb, model: ResourceModel, plain: Values): Promise<void> {
  assertWritable(model);
  const values = sealValues(model, plain);
  const columns = Object.keys(values);
  const names = sql.join(columns.map((c) => sql.raw(quote(c))));
  const params = sql.join(columns.map((c) => bind(model, c, values[c])));
  await guardUnique(model, () => sql`INSERT INTO ${table(model)} (${names}) VALUES (${params})`.execute(db));
}

/** Updates a row (already locked and checked), bumping version and update time. */
export async function updateRow(db: AnyDb, model: ResourceModel, id: string, plain: Values): Promise<void> {
  assertWritable(model);
  const values = sealValues(model, plain);
  const sets = Object.keys(values).map((c) => sql`${sql.raw(quote(c))} = ${bind(model, c, values[c])}`);
  sets.push(sql`version = version + 1`, sql`updated_at = now()`);
  await guardUnique(model, () => sql`UPDATE ${table(model)} SET ${sql.join(sets)} WHERE id = ${id}`.execute(db));
}

export async function deleteRow(db: AnyDb, model: ResourceModel, id: string): Promise<void> {
  assertWritable(model);
  for (const child of model.children) await deleteChildren(db, child, id);
  await sql`DELETE FROM ${table(model)} WHERE id = ${id}`.execute(db);
}

async function deleteChildren(db: AnyDb, link: ChildLink, parentId: string): Promise<void> {
  const { rows } = await sql<{ id: string }>`SELECT id FROM ${table(link.model)} WHERE parent_id = ${parentId}`.execute(db);
  for (const grandchild of link.model.children) for (const row of rows) await deleteChildren(db, grandchild, row.id);
  await sql`DELETE FROM ${table(link.model)} WHERE parent_id = ${parentId}`.execute(db);
}

/** Replaces the rows of a sub-table (and theirs) with `rows`, in the given order. */
export async function replaceChildren(db: AnyDb, link: ChildLink, parentId: string, rows: readonly RecordInput[]): Promise<void> {
  await deleteChildren(db, link, parentId);
  for (const [sort, row] of rows.entries()) {
    const id = newId();
    await insertRow(db, link.model, { ...row.values, id, parent_id: parentId, sort });
    for (const [grandchild, grandRows] of row.children) await replaceChildren(db, grandchild, id, grandRows);
  }
}

/** The rows of every sub-table of `parent`, attached to it (recursively). */
export async function attachChildren(db: AnyDb, model: ResourceModel, parent: Row): Promise<Row> {
  for (const link of model.children) {
    const rows = openRows(
      link.model,
      (await sql<Row>`SELECT ${select(link.model)} FROM ${table(link.model)} WHERE parent_id = ${parent.id} ORDER BY sort`.execute(db)).rows,
      false,
    );
    parent[link.name] = await Promise.all(rows.map((row) => attachChildren(db, link.model, row)));
  }
  return parent;
}
