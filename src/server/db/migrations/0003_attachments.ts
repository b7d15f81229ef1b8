/**
 * Attachment files (src/server/services/attachments.ts): one row per stored file. The bytes live
 * on disk under the row id, never under the uploader's file name. `ref_id` (legacy attrefsysid) is
 * the record the file belongs to, null until that record is saved; `unit_id` / `area_code` are the
 * uploader's, for the row scope.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_attachment')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('ref_id', 'varchar(64)')
    .addColumn('unit_id', 'char(32)', (c) => c.notNull())
    .addColumn('area_code', 'varchar(12)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mime', 'varchar(100)', (c) => c.notNull())
    .addColumn('sha256', 'char(64)', (c) => c.notNull())
    .addColumn('created_by', 'char(32)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_attachment_ref_idx').on('sys_attachment').columns(['ref_id', 'created_at']).execute();
  await db.schema.createIndex('sys_attachment_unit_idx').on('sys_attachment').column('unit_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_attachment').ifExists().execute();
}
