/** The generic workflow log: one row per state change of any resource row (src/server/resources). */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_flow_log')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('resource', 'varchar(100)', (c) => c.notNull())
    .addColumn('record_id', 'char(32)', (c) => c.notNull())
    .addColumn('action', 'varchar(50)', (c) => c.notNull())
    .addColumn('from_state', 'varchar(50)')
    .addColumn('to_state', 'varchar(50)')
    .addColumn('opinion', 'text')
    .addColumn('user_id', 'char(32)', (c) => c.notNull())
    .addColumn('user_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_flow_log_record_idx').on('sys_flow_log').columns(['resource', 'record_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_flow_log').ifExists().execute();
}
