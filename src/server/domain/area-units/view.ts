/**
 * `area_unit_view`: the units of the portal as the authority's 辖区单位 list and 单位档案 read them
 * (resource `area-unit`, a read-only system-table resource, oversightOnly): every unit that is not
 * itself an authority (sys_unit), a few facts of its profile (unit_profile), its equipment count and its count of equipment overdue
 * for inspection (在用, next inspection date before today in China — the rule of the overdue query
 * equipment-query-timeout).
 *
 * Why a view made here and not by a migration: it reads the equipment table, which the resource
 * engine creates after the migrations ran (ddl.ts syncTables); a migration's view over it would
 * fail on a new database. The engine runs this after syncTables on every start (DomainFeature
 * `tablesReady`), before it checks the system tables' columns.
 *
 * Why counts as correlated sub-selects and not a table kept by hooks: the overdue count changes
 * with the date alone, with no write to hook on; a stored count would need a nightly recount and
 * would be stale between. Sub-selects are exact at every read. They are cheap where it matters: a
 * page sorted by a unit column computes them for its own rows only (PostgreSQL postpones costly
 * output expressions past the sort and limit), the count of a page selects no count at all (the
 * view's unused columns are dropped), and each is an index-only range over the partial index made
 * below. Sorting or filtering by a count computes it for every unit of the area: measured in
 * docs/features/area-supervision.md.
 */
import { sql } from 'kysely';
import { PORTAL_TIME_ZONE } from '../../../shared/dates';
import type { AnyDb } from '../../resources/repository';

export const AREA_UNIT_VIEW = 'area_unit_view';

export async function createAreaUnitView(db: AnyDb): Promise<void> {
  // A schema set without these resources (a test's, an analyst's) has no such view to make; were the
  // area-unit resource there without them, the start's system-table check names what is missing.
  const { rows } = await sql<{ ready: boolean }>`SELECT to_regclass('equipment') IS NOT NULL AND to_regclass('unit_profile') IS NOT NULL AS ready`.execute(db);
  if (!rows[0]?.ready) return;
  await db.transaction().execute(async (trx) => {
    // Two processes starting at once would race on the catalogue rows.
    await sql`SELECT pg_advisory_xact_lock(hashtext('portal:area-unit-view'))`.execute(trx);
    // Each unit's equipment counted in its own index range; the overdue count in a partial range of 在用 rows.
    await sql`CREATE INDEX IF NOT EXISTS equipment_unit_in_use_due_idx ON equipment (unit_id, next_inspection_date) WHERE use_status = '1'`.execute(trx);
    // The portal's today (src/shared/dates.ts todayIn), as the database tells it.
    const today = sql`(now() AT TIME ZONE ${sql.lit(PORTAL_TIME_ZONE)})::date`;
    await sql`
      CREATE OR REPLACE VIEW area_unit_view AS
      SELECT u.id, u.orgname, u.orgcode, u.areacode AS area_code, u.areacode AS district, u.unit_type,
        u.contact, u.address, u.created_at,
        (SELECT p.legal_person FROM unit_profile p WHERE p.unit_id = u.id ORDER BY p.created_at LIMIT 1) AS legal_person,
        (SELECT p.industry FROM unit_profile p WHERE p.unit_id = u.id ORDER BY p.created_at LIMIT 1) AS industry,
        (SELECT p.employees FROM unit_profile p WHERE p.unit_id = u.id ORDER BY p.created_at LIMIT 1) AS employees,
        (SELECT p.changed_date FROM unit_profile p WHERE p.unit_id = u.id ORDER BY p.created_at LIMIT 1) AS changed_date,
        (SELECT count(*) FROM equipment e WHERE e.unit_id = u.id)::integer AS equipment_count,
        (SELECT count(*) FROM equipment e WHERE e.unit_id = u.id AND e.use_status = '1'
           AND e.next_inspection_date < ${today})::integer AS overdue_count,
        EXISTS (SELECT 1 FROM equipment e WHERE e.unit_id = u.id AND e.use_status = '1' AND e.next_inspection_date < ${today}) AS has_overdue
      FROM sys_unit u
      WHERE u.unit_type <> 'authority'`.execute(trx);
  });
}
