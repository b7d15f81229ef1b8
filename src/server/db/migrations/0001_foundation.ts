/** Foundation tables: units, users, roles, sessions, captchas, error log, shared configuration. */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sys_unit')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('orgname', 'varchar(200)', (c) => c.notNull())
    .addColumn('orgcode', 'varchar(18)', (c) => c.notNull().unique())
    .addColumn('areacode', 'varchar(12)', (c) => c.notNull())
    .addColumn('address', 'varchar(300)')
    .addColumn('contact', 'varchar(100)')
    .addColumn('contact_phone', 'varchar(30)')
    .addColumn('unit_type', 'varchar(30)', (c) => c.notNull())
    .addColumn('sso_user_id', 'varchar(64)')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('sys_user')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('unit_id', 'char(32)', (c) => c.notNull().references('sys_unit.id'))
    .addColumn('login_name', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('phone', 'varchar(30)')
    .addColumn('mobile', 'varchar(20)')
    .addColumn('id_card', 'varchar(18)')
    .addColumn('is_user_seed', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('basic_unit_flag', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('office_id', 'varchar(64)')
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('status', 'varchar(2)', (c) => c.notNull().defaultTo('0'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_user_unit_idx').on('sys_user').column('unit_id').execute();

  await db.schema
    .createTable('sys_role')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role_type', 'varchar(30)', (c) => c.notNull())
    .addColumn('menu_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('sys_user_role')
    .addColumn('user_id', 'char(32)', (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('role_id', 'char(32)', (c) => c.notNull().references('sys_role.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('sys_user_role_pk', ['user_id', 'role_id'])
    .execute();

  await db.schema
    .createTable('sys_session')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('extend_id', 'char(32)', (c) => c.notNull().unique())
    .addColumn('user_id', 'char(32)', (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('role_id', 'char(32)', (c) => c.references('sys_role.id').onDelete('set null'))
    .addColumn('simple_pwd', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_seen_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema.createIndex('sys_session_user_idx').on('sys_session').column('user_id').execute();
  await db.schema.createIndex('sys_session_seen_idx').on('sys_session').column('last_seen_at').execute();

  await db.schema
    .createTable('sys_captcha')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('text', 'varchar(16)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sys_captcha_expires_idx').on('sys_captcha').column('expires_at').execute();

  await db.schema
    .createTable('sys_error_log')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('type', 'varchar(50)', (c) => c.notNull())
    .addColumn('code', 'varchar(50)', (c) => c.notNull())
    .addColumn('mes', 'text', (c) => c.notNull())
    .addColumn('url', 'varchar(2000)', (c) => c.notNull())
    .addColumn('time', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('token', 'varchar(64)')
    .addColumn('user_id', 'char(32)')
    .addColumn('user_name', 'varchar(100)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(500)')
    .execute();
  await db.schema.createIndex('sys_error_log_time_idx').on('sys_error_log').column('time').execute();

  await db.schema
    .createTable('sys_config')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['sys_config', 'sys_error_log', 'sys_captcha', 'sys_session', 'sys_user_role', 'sys_role', 'sys_user', 'sys_unit']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
