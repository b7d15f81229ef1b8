/**
 * The audit log (`sys_audit_log`): every save, workflow action and delete of a resource record —
 * who, when, which operation, and each changed field's text before and after — written in the same
 * transaction as the change (resources/audit.ts) and read beside the record (its auditLog
 * operation), so whoever may see the record (the authority included) sees who changed what.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_audit_log')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'varchar(64)')
    .addColumn('user_name', 'varchar(100)')
    .addColumn('resource', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('operation', 'varchar(64)', (c) => c.notNull())
    .addColumn('changes', 'jsonb', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_audit_log_record_idx').on('sys_audit_log').columns(['resource', 'record_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_audit_log').execute();
}
