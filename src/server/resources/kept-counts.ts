/**
 * Kept counts (resource `keptCounts`): a table `<table>_kept_counts` of the row count per
 * combination of the declared fields' columns and the columns row scope reads (unit_id and area_code
 * of unit-owned rows, area_code of area-owned ones, status of a workflow's), so that a stats request
 * over millions of rows reads a few thousand (stats.ts `countStats`).
 *
 * - Exact at every commit: statement-level triggers on the resource's table add each statement's
 *   net change per combination (over its transition tables: a COPY of a million rows is one grouped
 *   upsert) in the writer's transaction; an update that changes none of the kept columns writes
 *   nothing; TRUNCATE empties it. A combination that drops to zero stays as a zero row (readers
 *   skip it), so a write never scans the table.
 * - Same answer by design: the kept table has the resource's own column names, so the very
 *   conditions of the request (row scope and filters, records.ts listCriteria) run on it unchanged,
 *   with `sum(n)` for `count(*)`. It answers only when every condition reads kept columns alone
 *   (`answersFromKept`); anything else (a text filter, a date range, unread) counts the rows.
 * - Made, and filled from the table, at start when missing or when the declaration changed (under a
 *   lock holding the table's writers off while it counts); dropped when no longer declared.
 * - Writers of the same combination wait for each other's commit on its row (the same unit's
 *   writers, since the unit is a kept column of unit-owned rows).
 * - Needs PostgreSQL 15 (a unique index whose blanks are one value, NULLS NOT DISTINCT); on an older
 *   server nothing is kept and the counts are counted (the same answers).
 */
import { sql } from 'kysely';
import { isGroupable } from '../../schema/model';
import type { ListPlan, ListParams } from './filters';
import { filtersReadOnly } from './filters';
import type { ResourceModel } from './model';
import { quote } from './naming';
import type { AnyDb } from './repository';

const SUFFIX = '_kept_counts';
const TRIGGERS = ['insert', 'delete', 'update', 'truncate'] as const;

export interface KeptCounts {
  /** The kept table's name (unquoted). */
  table: string;
  /** Its key columns (unquoted), scope columns first. */
  columns: readonly string[];
  /** The declared fields (wire names): what a request may group by. */
  fields: ReadonlySet<string>;
}

/** The kept counts a resource declares (checked: single-valued groupable fields, not encrypted); undefined when none. */
export function keptCountsOf(model: ResourceModel): KeptCounts | undefined {
  const names = model.resource.keptCounts;
  if (!names?.length) return undefined;
  if (model.systemTable || model.resource.readMarks) throw new Error(`${model.name}: keptCounts needs a resource table without read marks`);
  const fields = names.map((name) => {
    const f = model.byName.get(name);
    if (!f || f.kind === 'codes' || f.sealed || !isGroupable(model.resource, f.name, f.field))
      throw new Error(`${model.name}: keptCounts field ${name} is not a single-valued groupable field`);
    return f;
  });
  const scope = [
    ...(model.ownerColumn === 'unit_id' ? ['unit_id', 'area_code'] : model.ownerColumn ? ['area_code'] : []),
    ...(model.workflow ? ['status'] : []),
  ];
  const columns = [...new Set([...scope, ...fields.map((f) => f.column)])];
  return { table: `${model.table}${SUFFIX}`, columns, fields: new Set(names) };
}

/**
 * Whether the kept table answers a stats request: grouped by kept fields only, filtered by plain
 * comparisons of kept columns only (the row scope reads kept columns by design).
 */
export function answersFromKept(
  kept: KeptCounts | undefined,
  plan: ListPlan,
  params: ListParams,
  groupBy: readonly string[],
  unread: boolean,
): kept is KeptCounts {
  if (!kept || unread || !groupBy.every((name) => kept.fields.has(name))) return false;
  return filtersReadOnly(plan, params, new Set(kept.columns.map(quote)));
}

/** Makes, refreshes or drops the kept tables of the resources (after syncTables, at start); the kept counts by table. */
export async function syncKeptCounts(db: AnyDb, models: readonly ResourceModel[]): Promise<ReadonlyMap<string, KeptCounts>> {
  const { rows } = await sql<{ version: number }>`SELECT current_setting('server_version_num')::int AS version`.execute(db);
  const supported = rows[0].version >= 150000;
  const wanted = new Map(
    models.flatMap((m) => {
      const kept = supported ? keptCountsOf(m) : undefined;
      return kept ? [[m.table, kept] as const] : [];
    }),
  );
  const { rows: existing } = await sql<{
    name: string;
  }>`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE ${`%${SUFFIX}`} AND relnamespace = 'public'::regnamespace`.execute(db);
  for (const { name } of existing) {
    const source = name.slice(0, -SUFFIX.length);
    if (!wanted.has(source)) await db.transaction().execute((trx) => dropKept(trx, source, name));
  }
  for (const [source, kept] of wanted) await db.transaction().execute((trx) => keep(trx, source, kept));
  return wanted;
}

async function dropKept(trx: AnyDb, source: string, table: string): Promise<void> {
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass(${quote(source)}) IS NOT NULL AS present`.execute(trx);
  if (rows[0].present) for (const t of TRIGGERS) await sql.raw(`DROP TRIGGER IF EXISTS ${quote(`${table}_${t}`)} ON ${quote(source)}`).execute(trx);
  await sql.raw(`DROP TABLE IF EXISTS ${quote(table)}`).execute(trx);
  for (const t of ['added', 'removed', 'moved', 'emptied']) await sql.raw(`DROP FUNCTION IF EXISTS ${quote(`${table}_${t}`)}()`).execute(trx);
}

async function keep(trx: AnyDb, source: string, kept: KeptCounts): Promise<void> {
  const { table, columns } = kept;
  // Two processes starting at once would race on the catalogue rows.
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`portal:kept-counts:${table}`}))`.execute(trx);
  const { rows } = await sql<{
    column: string;
  }>`SELECT attname AS column FROM pg_attribute WHERE attrelid = to_regclass(${quote(table)}) AND attnum > 0 AND NOT attisdropped ORDER BY attnum`.execute(trx);
  const { rows: triggers } = await sql<{
    count: number;
  }>`SELECT count(*)::int AS count FROM pg_trigger WHERE tgrelid = to_regclass(${quote(source)}) AND tgname LIKE ${`${table}_%`}`.execute(trx);
  const current = rows.map((r) => r.column).join(',') === [...columns, 'n'].join(',') && triggers[0].count === TRIGGERS.length;
  const q = quote(table);
  const cols = columns.map(quote).join(', ');
  const fn = (name: string, body: string) =>
    sql.raw(`CREATE OR REPLACE FUNCTION ${quote(`${table}_${name}`)}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`).execute(trx);
  const upsert = (changed: string) => `
    INSERT INTO ${q} AS k (${cols}, n)
      SELECT ${cols}, sum(d) FROM (${changed}) AS changed GROUP BY ${cols} HAVING sum(d) <> 0 ORDER BY ${cols}
    ON CONFLICT (${cols}) DO UPDATE SET n = k.n + excluded.n;`;
  if (!current) {
    await sql.raw(`LOCK TABLE ${quote(source)} IN SHARE ROW EXCLUSIVE MODE`).execute(trx);
    await dropKept(trx, source, table);
    await sql.raw(`CREATE TABLE ${q} AS SELECT ${cols}, count(*)::bigint AS n FROM ${quote(source)} GROUP BY ${cols}`).execute(trx);
    await sql.raw(`ALTER TABLE ${q} ALTER COLUMN n SET NOT NULL`).execute(trx);
    await sql.raw(`CREATE UNIQUE INDEX ${quote(`${table}_key`)} ON ${q} (${cols}) NULLS NOT DISTINCT`).execute(trx);
  }
  await fn('added', upsert(`SELECT ${cols}, 1 AS d FROM new_rows`));
  await fn('removed', upsert(`SELECT ${cols}, -1 AS d FROM old_rows`));
  await fn('moved', upsert(`SELECT ${cols}, 1 AS d FROM new_rows UNION ALL SELECT ${cols}, -1 FROM old_rows`));
  await fn('emptied', `DELETE FROM ${q};`);
  if (!current) {
    const on = `ON ${quote(source)}`;
    const run = (name: string) => `FOR EACH STATEMENT EXECUTE FUNCTION ${quote(`${table}_${name}`)}()`;
    for (const statement of [
      `CREATE TRIGGER ${quote(`${table}_insert`)} AFTER INSERT ${on} REFERENCING NEW TABLE AS new_rows ${run('added')}`,
      `CREATE TRIGGER ${quote(`${table}_delete`)} AFTER DELETE ${on} REFERENCING OLD TABLE AS old_rows ${run('removed')}`,
      `CREATE TRIGGER ${quote(`${table}_update`)} AFTER UPDATE ${on} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows ${run('moved')}`,
      `CREATE TRIGGER ${quote(`${table}_truncate`)} AFTER TRUNCATE ${on} ${run('emptied')}`,
    ])
      await sql.raw(statement).execute(trx);
    await sql.raw(`ANALYZE ${q}`).execute(trx);
  }
}
