/**
 * The bytes of attachments kept in the database (PORTAL_ATTACHMENT_STORE=database, see
 * services/attachment-store.ts): each file in chunks of at most 512 KiB, numbered from 0, written
 * in the transaction that writes its sys_attachment row and read back one chunk at a time. A chunk
 * belongs to its row: deleting the row deletes its chunks (ON DELETE CASCADE), whoever deletes it.
 * The chunks are stored uncompressed (STORAGE EXTERNAL): PDFs, JPEGs and Office files are
 * compressed already, and PostgreSQL would only spend time trying.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_attachment_blob')
    .addColumn('id', 'char(32)', (c) => c.notNull().references('sys_attachment.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('sys_attachment_blob_pkey', ['id', 'seq'])
    .execute();
  await sql`ALTER TABLE sys_attachment_blob ALTER COLUMN data SET STORAGE EXTERNAL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_attachment_blob').ifExists().execute();
}
