/**
 * The account columns sealed in sm mode (resources/sealed-fields.ts SEALED_ACCOUNT_COLUMNS) become
 * `text`: a sealed value is longer than the varchar the plain number had. In the standard mode the
 * values stay as they are; the widening changes nothing they hold.
 */
import { sql, type Kysely } from 'kysely';

const COLUMNS = [
  ['sys_user', 'mobile', 'varchar(20)'],
  ['sys_user', 'id_card', 'varchar(18)'],
  ['sys_unit', 'contact_phone', 'varchar(30)'],
  ['ext_declaration_access', 'mobile', 'varchar(11)'],
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [table, column] of COLUMNS) await sql.raw(`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE text`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [table, column, type] of COLUMNS) await sql.raw(`ALTER TABLE ${table} ALTER COLUMN ${column} TYPE ${type}`).execute(db);
}
