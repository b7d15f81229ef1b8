/**
 * The database: one Kysely query layer over PostgreSQL (`DATABASE_URL`) or the embedded PGlite
 * (a data directory, or `memory://`). Both speak the PostgreSQL dialect, so all SQL is shared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { registerCopyTarget } from './copy';
import { keptPlansPool } from './pg-prepared';
import { migrations } from './migrations/index';
import { openPglite, PgliteDialect, type Progress, type TemplateRecipe } from './pglite';
import type { Database } from './schema';
import { projectPath } from '../paths';

export type { Progress } from './pglite';

export type Db = Kysely<Database>;

export interface DatabaseTarget {
  databaseUrl: string | null;
  dataDir: string;
  /** Where embedded database templates are kept (null: the default). */
  cacheDir?: string | null;
}

/**
 * Opens the database and waits until it answers (the embedded one may first initialise its
 * cluster; a new one starts from `template`, by default the migrated cluster); `progress` hears
 * each step. Migrations are applied separately (migrateToLatest).
 */
export async function createDatabase(target: DatabaseTarget, progress?: Progress, template: TemplateRecipe = MIGRATED): Promise<Db> {
  if (target.databaseUrl) {
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 10 });
    // An idle client losing its connection (database restart, admin kill) must not crash the
    // process: pg drops the client from the pool and the next query opens a new one.
    pool.on('error', (err) => console.error(`PostgreSQL idle client error: ${err.message}`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: keptPlansPool(pool) }) });
    registerCopyTarget(db, { kind: 'pg', pool });
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
 * its template under the key of the renamed files.
 */
export const MIGRATED: TemplateRecipe = {
  get key() {
    const dir = projectPath('src', 'server', 'db', 'migrations');
    return `${Object.keys(migrations).join(',')}\n` + readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`)
      .join('\n');
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
  return db.isTransaction ? work(db) : (db.transaction().execute(work as never) as Promise<T>);
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies pending migrations; throws with the failing migration's name on error. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations are schema-agnostic
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  // Unordered: migrations written on parallel branches may land with a lower number than one already applied.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const cause = error instanceof Error ? error : new Error(String(error));
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause.message}`, { cause });
  }
}
