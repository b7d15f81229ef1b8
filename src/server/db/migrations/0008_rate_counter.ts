/**
 * Fixed-window request counters shared by every server process (rate limits per IP, per account,
 * per IP and account): `sys_rate_counter`. Kept in the database so two processes behind a balancer
 * count together; expired windows are pruned by the housekeeping job.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_rate_counter')
    .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
    .addColumn('window_start', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('count', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_rate_counter_window_idx').on('sys_rate_counter').column('window_start').execute();
  // Visitor error reports are capped by the housekeeping job, newest kept: it reads them by time.
  await db.schema.createIndex('sys_error_log_visitor_idx').on('sys_error_log').column('time').where(sql.ref('user_id'), 'is', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sys_error_log_visitor_idx').execute();
  await db.schema.dropTable('sys_rate_counter').execute();
}
