/**
 * Sub-account roles and mobile upload tokens:
 *
 * - `sys_role.owner_user_id`: a role a unit's main account made for one of its sub-accounts (its
 *   menu ids a subset of the main account's); removed with the account. Shared roles have none.
 * - `sys_mobile_upload_token`: a short-lived, single-use token a desktop attachment field shows as
 *   a QR code; the phone uploads one file with it, for the token's user and unit. Only the SHA-256
 *   of the token is stored.
 * - `ext_declaration` and `ext_declaration_access`: the external simple declaration (/dlgzh) an
 *   outside party files with its mobile's SMS code, and the short-lived access that code opens
 *   (its list and details, by that mobile only).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sys_role ADD COLUMN IF NOT EXISTS owner_user_id char(32) REFERENCES sys_user(id) ON DELETE CASCADE`.execute(db);
  await db.schema.createIndex('sys_role_owner_user_idx').ifNotExists().on('sys_role').column('owner_user_id').execute();

  await db.schema
    .createTable('sys_mobile_upload_token')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'char(32)', (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('ref_id', 'varchar(64)')
    .addColumn('field', 'varchar(100)', (c) => c.notNull())
    .addColumn('field_label', 'varchar(200)')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .addColumn('attachment_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_mobile_upload_token_expires_idx').on('sys_mobile_upload_token').column('expires_at').execute();

  await db.schema
    .createTable('ext_declaration')
    .addColumn('id', 'char(32)', (c) => c.primaryKey())
    .addColumn('decl_no', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('mobile', 'varchar(11)', (c) => c.notNull())
    .addColumn('declarant', 'varchar(100)', (c) => c.notNull())
    .addColumn('category', 'varchar(20)', (c) => c.notNull())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('address', 'varchar(200)')
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('submitted'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('ext_declaration_mobile_idx').on('ext_declaration').columns(['mobile', 'created_at']).execute();
  await db.schema
    .createTable('ext_declaration_access')
    .addColumn('token_hash', 'char(64)', (c) => c.primaryKey())
    .addColumn('mobile', 'varchar(11)', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ext_declaration_access').ifExists().execute();
  await db.schema.dropTable('ext_declaration').ifExists().execute();
  await db.schema.dropTable('sys_mobile_upload_token').ifExists().execute();
  await db.schema.dropIndex('sys_role_owner_user_idx').ifExists().execute();
  await sql`ALTER TABLE sys_role DROP COLUMN IF EXISTS owner_user_id`.execute(db);
}
