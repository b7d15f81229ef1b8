/**
 * The declared evolution of resource tables (src/schema/evolution.ts), run at start by ddl.ts
 * syncTables in its transaction, before the additive changes: renames (`renamedFrom`), declared
 * drops (`evolution.drop`), text → number/date conversions (`convert.from`) and code maps
 * (`convert.map`). Each step is recorded in sys_schema_evolution (resource, step) and never runs
 * twice; a rename and a conversion also look at the columns, so they do nothing once done. A step
 * that fails throws `SchemaEvolutionError` naming the resource and the field: the caller's
 * transaction rolls back everything of that start.
 */
import { sql, type Kysely } from 'kysely';
import type { FieldModel, ResourceModel } from './model';
import { columnOf, quote } from './naming';
import { indexColumnOf } from './sealed-columns';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resource tables are not in the static Database type
type AnyDb = Kysely<any>;

/** The history of applied steps: one row per resource and step. */
export const EVOLUTION_TABLE = 'sys_schema_evolution';

export class SchemaEvolutionError extends Error {
  constructor(
    readonly resource: string,
    readonly field: string,
    problem: string,
  ) {
    super(`resource '${resource}', field '${field}': ${problem}; nothing of this start was applied`);
    this.name = 'SchemaEvolutionError';
  }
}

export interface EvolutionStep {
  resource: string;
  field: string;
  /** Unique within the resource: what the history records. */
  step: string;
}

/** Rows listed when values do not convert. */
const SHOWN_ROWS = 5;

/** Text → column type: a test that a trimmed value `v` converts, and the expression converting it. */
function conversionOf(sqlType: string): { accepts: (v: string) => string; using: (v: string) => string } | undefined {
  if (sqlType === 'integer')
    return {
      accepts: (v) => `CASE WHEN ${v} ~ '^[-+]?[0-9]{1,18}$' THEN ${v}::numeric BETWEEN -2147483648 AND 2147483647 ELSE false END`,
      using: (v) => `${v}::integer`,
    };
  const numeric = /^numeric(?:\((\d+),(\d+)\))?$/.exec(sqlType);
  if (numeric) {
    // numeric(p,s) holds fewer than p-s digits before the point.
    const fits = (v: string) => (numeric[1] ? `abs(${v}::numeric) < 1e${Number(numeric[1]) - Number(numeric[2])}` : 'true');
    return {
      accepts: (v) => `CASE WHEN ${v} ~ '^[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)$' THEN ${fits(v)} ELSE false END`,
      using: (v) => `${v}::${sqlType}`,
    };
  }
  if (sqlType === 'date') {
    const ymd = `'^[0-9]{4}[-/.](0?[1-9]|1[0-2])[-/.](0?[1-9]|[12][0-9]|3[01])$'`;
    const compact = `'^[0-9]{4}(0[1-9]|1[0-2])(0[1-9]|[12][0-9]|3[01])$'`;
    return {
      accepts: (v) => `(${v} ~ ${ymd} OR ${v} ~ ${compact})`,
      using: (v) => `CASE WHEN ${v} ~ ${compact} THEN to_date(${v}, 'YYYYMMDD') ELSE to_date(regexp_replace(${v}, '[/.]', '-', 'g'), 'YYYY-MM-DD') END`,
    };
  }
  return undefined;
}

const isText = (type: string | undefined) => type !== undefined && /^(text|varchar(\(\d+\))?)$/.test(type);

interface Context {
  trx: AnyDb;
  model: ResourceModel;
  /** The table's columns and their canonical types; empty: the table does not exist yet. */
  columns: Map<string, string>;
  done: Set<string>;
  applied: EvolutionStep[];
}

async function record(c: Context, field: string, step: string): Promise<void> {
  await sql`INSERT INTO sys_schema_evolution (resource, step, field) VALUES (${c.model.name}, ${step}, ${field}) ON CONFLICT DO NOTHING`.execute(c.trx);
  c.done.add(step);
  c.applied.push({ resource: c.model.name, field, step });
}

async function rename(c: Context, f: FieldModel, from: string): Promise<void> {
  const old = columnOf(from);
  const step = `rename ${old} -> ${f.column}`;
  if (c.done.has(step)) return;
  if (c.columns.has(old) && c.columns.has(f.column))
    throw new SchemaEvolutionError(c.model.name, f.name, `table ${c.model.table} has both columns ${old} and ${f.column}; drop one with a numbered migration`);
  if (c.columns.has(old)) {
    await sql.raw(`ALTER TABLE ${quote(c.model.table)} RENAME COLUMN ${quote(old)} TO ${quote(f.column)}`).execute(c.trx);
    c.columns.set(f.column, c.columns.get(old)!);
    c.columns.delete(old);
  }
  await record(c, f.name, step);
}

async function drop(c: Context, name: string): Promise<void> {
  const column = columnOf(name);
  const step = `drop ${column}`;
  if (c.done.has(step)) return;
  if (c.model.columns.some((d) => d.column === column))
    throw new SchemaEvolutionError(c.model.name, name, `evolution.drop names column ${column}, which a field still uses`);
  for (const dropped of [column, indexColumnOf(column)])
    if (c.columns.has(dropped) && !c.model.columns.some((d) => d.column === dropped)) {
      await sql.raw(`ALTER TABLE ${quote(c.model.table)} DROP COLUMN ${quote(dropped)}`).execute(c.trx);
      c.columns.delete(dropped);
    }
  await record(c, name, step);
}

async function convert(c: Context, f: FieldModel): Promise<void> {
  const current = c.columns.get(f.column);
  const step = `convert ${f.column} text -> ${f.sqlType}`;
  if (c.done.has(step) || current === f.sqlType) return;
  // A column of another type is the additive plan's to judge (ddl.ts planSchema).
  if (current !== undefined && !isText(current)) return;
  const conversion = conversionOf(f.sqlType);
  if (!conversion) throw new SchemaEvolutionError(c.model.name, f.name, `text does not convert to ${f.sqlType}`);
  if (current !== undefined) {
    const table = quote(c.model.table);
    const v = `btrim(${quote(f.column)})`;
    const bad = await sql
      .raw<{ id: string; value: string; total: string }>(
        `SELECT id, ${quote(f.column)} AS value, count(*) OVER () AS total FROM ${table} WHERE ${v} <> '' AND NOT (${conversion.accepts(v)}) ORDER BY id LIMIT ${SHOWN_ROWS}`,
      )
      .execute(c.trx);
    if (bad.rows.length > 0) {
      const rows = bad.rows.map((r) => `${String(r.id).trim()} (${JSON.stringify(r.value)})`).join(', ');
      throw new SchemaEvolutionError(c.model.name, f.name, `table ${c.model.table}: ${bad.rows[0].total} rows do not convert to ${f.type}: ${rows}`);
    }
    try {
      await sql.raw(`ALTER TABLE ${table} ALTER COLUMN ${quote(f.column)} TYPE ${f.sqlType} USING ${conversion.using(`NULLIF(${v}, '')`)}`).execute(c.trx);
    } catch (err) {
      throw new SchemaEvolutionError(c.model.name, f.name, `table ${c.model.table}: converting to ${f.type} failed: ${(err as Error).message}`);
    }
    c.columns.set(f.column, f.sqlType);
  }
  await record(c, f.name, step);
}

async function remap(c: Context, f: FieldModel, map: Record<string, string | undefined>): Promise<void> {
  const pairs = Object.entries(map).filter((e): e is [string, string] => e[1] !== undefined);
  const step = `map ${f.column} ${JSON.stringify(Object.fromEntries(pairs))}`;
  if (c.done.has(step)) return;
  if (c.columns.has(f.column) && pairs.length > 0) {
    const column = sql.ref(f.column);
    const cases = sql.join(
      pairs.map(([from, to]) => sql`WHEN ${from} THEN ${to}`),
      sql` `,
    );
    const olds = sql.join(pairs.map(([from]) => sql`${from}`));
    await sql`UPDATE ${sql.table(c.model.table)} SET ${column} = CASE ${column} ${cases} ELSE ${column} END WHERE ${column} IN (${olds})`.execute(c.trx);
  }
  await record(c, f.name, step);
}

/**
 * Runs the pending evolution steps of `models` in `trx` (the caller's transaction), `columns` being
 * each table's columns as the database has them (ddl.ts readSchema). Returns the steps recorded.
 */
export async function evolveTables(trx: AnyDb, models: readonly ResourceModel[], columns: ReadonlyMap<string, Map<string, string>>): Promise<EvolutionStep[]> {
  await sql`CREATE TABLE IF NOT EXISTS sys_schema_evolution (
    resource varchar(100) NOT NULL, step varchar(1000) NOT NULL, field varchar(100) NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (resource, step))`.execute(trx);
  const history = await sql<{ resource: string; step: string }>`SELECT resource, step FROM sys_schema_evolution`.execute(trx);
  const applied: EvolutionStep[] = [];
  for (const model of models) {
    if (model.systemTable) continue;
    const declared = model.fields.filter((f) => f.declared && !f.read && (f.field.renamedFrom !== undefined || f.field.convert !== undefined));
    const drops = model.resource.evolution?.drop ?? [];
    if (declared.length === 0 && drops.length === 0) continue;
    const done = new Set(history.rows.filter((r) => r.resource === model.name).map((r) => r.step));
    const c: Context = { trx, model, columns: new Map(columns.get(model.table) ?? []), done, applied };
    for (const f of declared) if (f.field.renamedFrom !== undefined) await rename(c, f, f.field.renamedFrom);
    for (const name of drops) await drop(c, name);
    for (const f of declared) if (f.field.convert?.from !== undefined) await convert(c, f);
    for (const f of declared) if (f.field.convert?.map !== undefined) await remap(c, f, f.field.convert.map);
  }
  return applied;
}
