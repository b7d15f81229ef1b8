/**
 * External-link tokens (services/link-token.ts): one row per token issued, keyed by the token's
 * digest (the token itself is never stored), so its single use holds across processes; the
 * housekeeping job deletes rows once they expire.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_link_token')
    .addColumn('digest', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('user_id', 'char(32)', (c) => c.notNull())
    .addColumn('link', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_link_token_expires_idx').on('sys_link_token').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_link_token').ifExists().execute();
}
