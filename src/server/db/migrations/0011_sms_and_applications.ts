/**
 * Text messages and the secrets of account applications:
 *
 * - `sys_sms_outbox`: every message the demo provider "sends" (services/sms.ts), newest last; README
 *   shows how to read the demo codes from it;
 * - `sys_sms_code`: verification codes by purpose and mobile (only a hash of the code is kept),
 *   with expiry, wrong tries and the time it was used (single use);
 * - `sys_register_secret`: the password hash a registration application chose, kept apart from the
 *   application row (which the authority reads) until the account is created.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_sms_outbox')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
    .addColumn('purpose', 'varchar(40)', (c) => c.notNull())
    .addColumn('text', 'varchar(500)', (c) => c.notNull())
    .addColumn('provider', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_sms_outbox_mobile_idx').on('sys_sms_outbox').columns(['mobile', 'created_at']).execute();
  await db.schema
    .createTable('sys_sms_code')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('purpose', 'varchar(40)', (c) => c.notNull())
    .addColumn('mobile', 'varchar(20)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_sms_code_target_idx').on('sys_sms_code').columns(['purpose', 'mobile', 'created_at']).execute();
  await db.schema
    .createTable('sys_register_secret')
    .addColumn('apply_id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_register_secret').execute();
  await db.schema.dropTable('sys_sms_code').execute();
  await db.schema.dropTable('sys_sms_outbox').execute();
}
