/**
 * The external simple declaration becomes the resource `simple-declaration` (the authority's
 * 简易申报受理): its table ext_declaration (migration 0012) takes the resource's column
 * types — a dictionary code is `text`, a workflow state `varchar(50)` — and the area a declaration
 * belongs to (area_code, the owner of an area-scoped row; district, the same code shown), and its
 * 受理期限 (due_date). Rows filed before get the portal's default area and a 7-day deadline. The
 * resource engine adds its audit columns (created_by, updated_at, version …) at start.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ext_declaration ALTER COLUMN category TYPE text`.execute(db);
  await sql`ALTER TABLE ext_declaration ALTER COLUMN status TYPE varchar(50)`.execute(db);
  await sql`ALTER TABLE ext_declaration ADD COLUMN IF NOT EXISTS area_code varchar(12)`.execute(db);
  await sql`ALTER TABLE ext_declaration ADD COLUMN IF NOT EXISTS district text`.execute(db);
  await sql`ALTER TABLE ext_declaration ADD COLUMN IF NOT EXISTS due_date date`.execute(db);
  await sql`UPDATE ext_declaration SET area_code = '330200', district = '330200' WHERE area_code IS NULL`.execute(db);
  await sql`UPDATE ext_declaration SET due_date = (created_at AT TIME ZONE 'Asia/Shanghai')::date + 7 WHERE due_date IS NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['due_date', 'district', 'area_code']) await sql`ALTER TABLE ext_declaration DROP COLUMN IF EXISTS ${sql.ref(column)}`.execute(db);
  await sql`ALTER TABLE ext_declaration ALTER COLUMN status TYPE varchar(20)`.execute(db);
  await sql`ALTER TABLE ext_declaration ALTER COLUMN category TYPE varchar(20)`.execute(db);
}
