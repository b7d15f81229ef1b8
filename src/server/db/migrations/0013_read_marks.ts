/**
 * Read marks: which user has opened which record of a resource with `readMarks` (a notice the
 * unit has not read yet). One row per user and record, written by the record's `get`; the list
 * parameter `unread=true` keeps the rows the user has no mark for.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_read_mark')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sys_read_mark_pk', ['user_id', 'resource', 'record_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_read_mark').execute();
}
