/**
 * Tables from resources. At start the wanted tables (model.ts) are compared with the database's
 * information_schema: additive changes — a new table, a new column, a new index, a text column
 * that grows (a longer maxLength, or text: no value is cut or converted; how the ID card and mobile
 * columns grew room for a ciphertext: sealed-fields.ts) — are applied at once; destructive ones — a
 * column the resource no longer has, a changed type, a shorter text — are not: the
 * start fails naming the numbered SQL migration to write, unless the resource declares the step
 * (`renamedFrom`, `convert`, `evolution.drop`: evolve.ts; a `retired` field keeps its column). Runs in one transaction under an
 * advisory lock, so several server processes may start together.
 */
import { sql, type Kysely } from 'kysely';
import { migrations } from '../db/migrations/index';
import { evolveTables } from './evolve';
import type { ColumnDef, ResourceModel } from './model';
import { quote } from './naming';
import { widens } from '../../schema/evolution';

export interface ExistingColumn {
  table: string;
  column: string;
  /** Canonical type (see `canonicalType`). */
  sqlType: string;
}

export interface ExistingSchema {
  columns: ExistingColumn[];
  indexes: { table: string; name: string }[];
}

export interface DestructiveChange {
  table: string;
  resource: string;
  problem: string;
  /** The statement a migration would run. */
  sql: string;
}

export interface SchemaPlan {
  /** Additive statements, in order. */
  statements: string[];
  destructive: DestructiveChange[];
}

export interface InfoColumn {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  character_maximum_length: number | null;
  numeric_precision: number | null;
  numeric_scale: number | null;
}

/** The type of an information_schema column in the spelling model.ts uses. */
export function canonicalType(c: Omit<InfoColumn, 'table_name' | 'column_name'>): string {
  switch (c.data_type) {
    case 'character varying':
      return c.character_maximum_length === null ? 'varchar' : `varchar(${c.character_maximum_length})`;
    case 'character':
      return `char(${c.character_maximum_length ?? 1})`;
    case 'numeric':
      return c.numeric_precision === null ? 'numeric' : `numeric(${c.numeric_precision},${c.numeric_scale ?? 0})`;
    case 'timestamp with time zone':
      return 'timestamptz';
    case 'ARRAY':
      return `${c.udt_name.replace(/^_/, '')}[]`;
    default:
      return c.data_type;
  }
}

const columnSql = (c: ColumnDef) => `${quote(c.column)} ${c.sqlType}${c.constraint ? ` ${c.constraint}` : ''}`;

/** What it takes to bring the database to the models (pure; see `syncTables`). */
export function planSchema(models: readonly ResourceModel[], existing: ExistingSchema): SchemaPlan {
  const statements: string[] = [];
  const destructive: DestructiveChange[] = [];
  for (const model of models) {
    const table = quote(model.table);
    const current = new Map(existing.columns.filter((c) => c.table === model.table).map((c) => [c.column, c.sqlType]));
    if (current.size === 0) {
      statements.push(`CREATE TABLE ${table} (${model.columns.map(columnSql).join(', ')})`);
    } else {
      const wanted = new Set(model.columns.map((c) => c.column));
      for (const c of model.columns) {
        const type = current.get(c.column);
        if (type === undefined) statements.push(`ALTER TABLE ${table} ADD COLUMN ${columnSql(c)}`);
        else if (type !== c.sqlType && widens(type, c.sqlType)) statements.push(`ALTER TABLE ${table} ALTER COLUMN ${quote(c.column)} TYPE ${c.sqlType}`);
        else if (type !== c.sqlType) {
          destructive.push({
            table: model.table,
            resource: model.name,
            problem: `column ${c.column} is ${type} in the database but ${c.sqlType} in the resource`,
            sql: `ALTER TABLE ${table} ALTER COLUMN ${quote(c.column)} TYPE ${c.sqlType} USING ${quote(c.column)}::${c.sqlType};`,
          });
        }
      }
      for (const column of current.keys()) {
        if (!wanted.has(column)) {
          destructive.push({
            table: model.table,
            resource: model.name,
            problem: `column ${column} is in the database but no longer in the resource`,
            sql: `ALTER TABLE ${table} DROP COLUMN ${quote(column)};`,
          });
        }
      }
    }
    const indexes = new Set(existing.indexes.filter((i) => i.table === model.table).map((i) => i.name));
    for (const index of model.indexes) {
      if (!indexes.has(index.name)) {
        const columns =
          index.method === 'trigram'
            ? `USING gin (${index.columns.map((c) => `${quote(c)} gin_trgm_ops`).join(', ')})`
            : `(${index.columns.map(quote).join(', ')})`;
        statements.push(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${quote(index.name)} ON ${table} ${columns}`);
      }
      // After the index that serves its reads exists (the statements run in order).
      if (index.replaces && indexes.has(index.replaces)) statements.push(`DROP INDEX IF EXISTS ${quote(index.replaces)}`);
    }
  }
  return { statements, destructive };
}

/** The file name the next numbered migration should get. */
export function nextMigrationName(label: string): string {
  const numbers = Object.keys(migrations)
    .map((name) => Number.parseInt(name, 10))
    .filter(Number.isFinite);
  const next = String(Math.max(0, ...numbers) + 1).padStart(4, '0');
  return `${next}_${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
}

export class DestructiveSchemaChangeError extends Error {
  constructor(readonly changes: readonly DestructiveChange[]) {
    const tables = [...new Set(changes.map((c) => c.table))];
    const file = `src/server/db/migrations/${nextMigrationName(`alter_${tables.join('_')}`)}.ts`;
    super(
      [
        'resource tables differ from the database in ways that are never applied automatically:',
        ...changes.map((c) => `  - ${c.table} (resource '${c.resource}'): ${c.problem}`),
        `write the numbered SQL migration ${file} (and list it in src/server/db/migrations/index.ts) with:`,
        ...changes.map((c) => `    ${c.sql}`),
      ].join('\n'),
    );
    this.name = 'DestructiveSchemaChangeError';
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- resource tables are not in the static Database type
type AnyDb = Kysely<any>;

/**
 * The columns of `tables` in the current schema, in information_schema.columns' terms, read from
 * pg_catalog: information_schema.columns is a view over the same catalog that cost the embedded
 * database's warm restart over a second of CPU (1,300 columns), the catalog read 65 ms; their
 * answers are the same (checked over every table of the demo database on PGlite and PostgreSQL).
 */
export async function tableColumns(db: AnyDb, tables: readonly string[]): Promise<InfoColumn[]> {
  const { rows } = await sql<InfoColumn>`
    SELECT c.relname AS table_name, a.attname AS column_name,
           CASE WHEN t.typcategory = 'A' THEN 'ARRAY' ELSE format_type(a.atttypid, NULL) END AS data_type,
           t.typname AS udt_name,
           CASE WHEN a.atttypid IN ('varchar'::regtype, 'bpchar'::regtype) AND a.atttypmod > 0 THEN a.atttypmod - 4 END AS character_maximum_length,
           CASE WHEN a.atttypid = 'numeric'::regtype AND a.atttypmod > 0 THEN ((a.atttypmod - 4) >> 16) & 65535 END AS numeric_precision,
           CASE WHEN a.atttypid = 'numeric'::regtype AND a.atttypmod > 0 THEN (a.atttypmod - 4) & 65535 END AS numeric_scale
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_type t ON t.oid = a.atttypid
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      AND a.attnum > 0 AND NOT a.attisdropped AND c.relname = ANY(${[...tables]})
    ORDER BY c.relname, a.attnum`.execute(db);
  return rows;
}

async function readSchema(db: AnyDb, tables: string[]): Promise<ExistingSchema> {
  const columns = await tableColumns(db, tables);
  const indexes = await sql<{ tablename: string; indexname: string }>`
    SELECT tablename, indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY(${tables})`.execute(db);
  return {
    columns: columns.map((c) => ({ table: c.table_name, column: c.column_name, sqlType: canonicalType(c) })),
    indexes: indexes.rows.map((i) => ({ table: i.tablename, name: i.indexname })),
  };
}

/**
 * Runs the declared evolution steps (evolve.ts: renames, declared drops, conversions, code maps) and
 * applies the additive changes, or throws `DestructiveSchemaChangeError` / `SchemaEvolutionError`:
 * all in one transaction, so nothing of the start is applied when any of it fails. Returns the
 * statements run, the evolution steps first (`evolution <resource>: <step>`).
 */
export async function syncTables(db: AnyDb, models: readonly ResourceModel[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('portal:resource-tables'))`.execute(trx);
    const tables = models.map((m) => m.table);
    const before = await readSchema(trx, tables);
    const columns = new Map<string, Map<string, string>>();
    for (const c of before.columns) {
      if (!columns.has(c.table)) columns.set(c.table, new Map());
      columns.get(c.table)!.set(c.column, c.sqlType);
    }
    const steps = await evolveTables(trx, models, columns);
    const plan = planSchema(models, steps.length > 0 ? await readSchema(trx, tables) : before);
    if (plan.destructive.length > 0) throw new DestructiveSchemaChangeError(plan.destructive);
    for (const statement of plan.statements) await sql.raw(statement).execute(trx);
    return [...steps.map((s) => `evolution ${s.resource}: ${s.step}`), ...plan.statements];
  });
}
