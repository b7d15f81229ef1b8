/**
 * Verification tokens of printed documents (resource `document`, src/server/resources/documents.ts):
 * one random token per record, printed as the QR code's address, so the open verification page is
 * reached by a value nobody can guess from a row id.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_document_token')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('resource', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'char(32)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_document_token_record_idx').on('sys_document_token').columns(['resource', 'record_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_document_token').ifExists().execute();
}
