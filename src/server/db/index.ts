/**
 * The database: one Kysely query layer over PostgreSQL (`DATABASE_URL`) or the embedded PGlite
 * (a data directory, or `memory://`). Both speak the PostgreSQL dialect, so all SQL is shared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from 'kysely';
import type pg from 'pg';
import { registerCopyTarget } from './copy';
import { keptPlansPool } from './pg-prepared';
import { migrations } from './migrations/index';
import { openPglite, PgliteDialect } from './pglite';
import type { Progress, TemplateRecipe } from './pglite-template';
import type { Database } from './schema';
import { StartupError } from '../config';
import { hasSources, projectPath, runningCodeHash } from '../paths';

export type { Progress } from './pglite-template';

export type Db = Kysely<Database>;

export interface DatabaseTarget {
  databaseUrl: string | null;
  dataDir: string;
  /** Where embedded database templates are kept (null: the default). */
  cacheDir?: string | null;
  /** PostgreSQL pool settings (config.ts); defaults as there. */
  postgres?: Partial<PostgresOptions>;
}

export interface PostgresOptions {
  poolMax: number;
  connectTimeoutMs: number;
  /** 0: no limit. Set on each connection as it opens (`statement_timeout`). */
  statementTimeoutMs: number;
  sslMode: 'disable' | 'require' | 'verify-ca' | 'verify-full' | null;
  caFile: string | null;
}

const POSTGRES_DEFAULTS: PostgresOptions = { poolMax: 10, connectTimeoutMs: 10_000, statementTimeoutMs: 0, sslMode: null, caFile: null };

/** The pool's TLS option for an sslmode (null: leave it to DATABASE_URL and libpq's PGSSLMODE). */
function sslOption(mode: PostgresOptions['sslMode'], caFile: string | null): pg.PoolConfig['ssl'] | undefined {
  if (mode === null) return undefined;
  if (mode === 'disable') return false;
  if (mode === 'require') return { rejectUnauthorized: false };
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = readFileSync(caFile, 'utf8');
    } catch (err) {
      throw new StartupError('PORTAL_PG_CA_FILE', `无法读取（${caFile}）`, `cannot be read (${caFile}): ${(err as Error).message}`);
    }
  }
  // verify-ca: the chain is checked, the host name is not (libpq's meaning).
  return { rejectUnauthorized: true, ca, ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) };
}

/**
 * A PostgreSQL pool with the configured size, timeouts and TLS. The client library loads here, on
 * first use: a server on the embedded database never needs its ~3 MB of heap.
 */
export async function postgresPool(databaseUrl: string, options: Partial<PostgresOptions> = {}): Promise<pg.Pool> {
  const { default: pg } = await import('pg');
  const o = { ...POSTGRES_DEFAULTS, ...options };
  const ssl = sslOption(o.sslMode, o.caFile);
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: o.poolMax,
    connectionTimeoutMillis: o.connectTimeoutMs,
    ...(o.statementTimeoutMs > 0 ? { statement_timeout: o.statementTimeoutMs } : {}),
    ...(ssl !== undefined ? { ssl } : {}),
  });
  // An idle client losing its connection (database restart, admin kill) must not crash the
  // process: pg drops the client from the pool and the next query opens a new one.
  pool.on('error', (err) => console.error(`PostgreSQL idle client error: ${err.message}`));
  // The same for a client that is checked out between two statements (a transaction, a held
  // connection): without a listener of its own its 'error' event ended the process. Its next
  // statement fails, and the pool drops it on release (it is no longer queryable).
  pool.on('connect', (client) => client.on('error', (err) => console.error(`PostgreSQL client error: ${err.message}`)));
  return pool;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's query layer
const pools = new WeakMap<Kysely<any>, pg.Pool>();

/** The PostgreSQL pool behind `db` (undefined for the embedded database): its counts feed the pool metrics. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's query layer
export function postgresPoolOf(db: Kysely<any>): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * Opens the database and waits until it answers (the embedded one may first initialise its
 * cluster; a new one starts from `template`, by default the migrated cluster); `progress` hears
 * each step. Migrations are applied separately (migrateToLatest).
 */
export async function createDatabase(target: DatabaseTarget, progress?: Progress, template: TemplateRecipe = MIGRATED): Promise<Db> {
  if (target.databaseUrl) {
    const pool = await postgresPool(target.databaseUrl, target.postgres);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: keptPlansPool(pool) }) });
    registerCopyTarget(db, { kind: 'pg', pool });
    pools.set(db, pool);
    return db;
  }
  const embedded = await openPglite(target.dataDir, template, { progress, cacheDir: target.cacheDir });
  const db = new Kysely<Database>({ dialect: new PgliteDialect(embedded) });
  registerCopyTarget(db, { kind: 'pglite', pg: embedded });
  return db;
}

/**
 * The embedded template: a new cluster with every migration applied, keyed by the migrations'
 * source files (not their compiled form, which differs between tsx and the server bundle) and by
 * the names this process will apply: a bundle built before a migration was renamed must not save
 * its template under the key of the renamed files. Without the sources (an installed package), by
 * the bundle's bytes.
 */
export const MIGRATED: TemplateRecipe = {
  get key() {
    const names = `${Object.keys(migrations).join(',')}\n`;
    // An installed package (scripts/package.ts) has no sources: the bundle holding the migrations keys them.
    if (!hasSources()) return `${names}bundle ${runningCodeHash()}`;
    const dir = projectPath('src', 'server', 'db', 'migrations');
    return (
      names +
      readdirSync(dir)
        .filter((f) => f.endsWith('.ts'))
        .sort()
        .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`)
        .join('\n')
    );
  },
  prepare: async (pg) => {
    const db = new Kysely<Database>({ dialect: new PgliteDialect(pg, { keepOpen: true }) });
    await migrateToLatest(db);
    await db.destroy();
  },
};

/** Runs `work` in a transaction, or inside the caller's when `db` already is one (Kysely does not nest). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers pass typed and untyped handles
export function inTransaction<D extends Kysely<any>, T>(db: D, work: (trx: D) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute<T>(work as never);
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Whether every migration is recorded as applied: one read of Kysely's table (absent on a new
 * database). Kysely's migrator first inspects the catalog for its tables and takes its lock, which
 * on the embedded database cost a warm restart about as much as everything else before the routes.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
async function allApplied(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ present: string | null }>`SELECT to_regclass('kysely_migration')::text AS present`.execute(db);
  if (!rows[0]?.present) return false;
  const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
  const names = new Set(applied.rows.map((r) => r.name));
  return Object.keys(migrations).every((name) => names.has(name));
}

/** Applies pending migrations; throws with the failing migration's name on error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  if (await allApplied(db)) return;
  // Unordered: migrations written on parallel branches may land with a lower number than one already applied.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause.message}`, { cause });
  }
}
