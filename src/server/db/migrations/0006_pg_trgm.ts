/** Trigram matching (pg_trgm): the GIN indexes of resource `search` fields make `q` (contains) searches indexable. */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP EXTENSION IF EXISTS pg_trgm`.execute(db);
}
