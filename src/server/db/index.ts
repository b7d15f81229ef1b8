/**
 * The database: one Kysely query layer over PostgreSQL (`DATABASE_URL`) or the embedded PGlite
 * (a data directory, or `memory://`). Both speak the PostgreSQL dialect, so all SQL is shared.
 */
import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, Migrator, PostgresDialect, type Dialect, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { migrations } from './migrations/index';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseTarget {
  databaseUrl: string | null;
  dataDir: string;
}

function dialectFor(target: DatabaseTarget): Dialect {
  if (target.databaseUrl) {
    const pool = new pg.Pool({ connectionString: target.databaseUrl, max: 10 });
    // An idle client losing its connection (database restart, admin kill) must not crash the
    // process: pg drops the client from the pool and the next query opens a new one.
    pool.on('error', (err) => console.error(`PostgreSQL idle client error: ${err.message}`));
    return new PostgresDialect({ pool });
  }
  if (!target.dataDir.startsWith('memory://')) mkdirSync(target.dataDir, { recursive: true });
  // pg_trgm backs the trigram indexes of resource `search` fields (migration 0006).
  return new PGliteDialect(new PGlite(target.dataDir, { extensions: { pg_trgm } }));
}

export function createDatabase(target: DatabaseTarget): Db {
  return new Kysely<Database>({ dialect: dialectFor(target) });
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
