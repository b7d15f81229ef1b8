/** Named counters (certificate and order numbers): one row per key, incremented atomically by UPSERT. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_sequence')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('app_sequence').ifExists().execute();
}
