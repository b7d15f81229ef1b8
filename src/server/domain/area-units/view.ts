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
 * Each unit's equipment count is kept (area_unit_stats, keepEquipmentCounts below): sorting the
 * 辖区单位 list by it read every unit's count, a million index entries for a city of a million
 * pieces (820 ms, measured by `npm run bench:area`). The overdue count is not kept: it changes with
 * the date alone, with no write to hook on, so a stored one would need a nightly recount and be
 * stale between. It stays a correlated sub-select, exact at every read: a page sorted by another
 * column computes it for its own twenty rows only (PostgreSQL postpones costly output expressions
 * past the sort and limit), the count of a page selects no count at all (the view's unused columns
 * are dropped), and each is an index-only range over the partial index made below. Sorting by it
 * computes it for every unit of the area (10,000 index descents, ~150–400 ms at 10,000 units on a
 * loaded 2-core VM). A grouped pass joined to the units was tried: it made the sort by it ~2× faster
 * but every other page pay it too (the first page by name 20 → 90 ms).
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
    await areaIndexes(trx);
    await keepEquipmentCounts(trx);
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
        coalesce(s.equipment_count, 0)::integer AS equipment_count,
        (SELECT count(*) FROM equipment e WHERE e.unit_id = u.id AND e.use_status = '1'
           AND e.next_inspection_date < ${today})::integer AS overdue_count,
        EXISTS (SELECT 1 FROM equipment e WHERE e.unit_id = u.id AND e.use_status = '1' AND e.next_inspection_date < ${today}) AS has_overdue
      FROM sys_unit u
      LEFT JOIN area_unit_stats s ON s.unit_id = u.id
      WHERE u.unit_type <> 'authority'`.execute(trx);
  });
}

/**
 * Indexes of the authority's area-wide equipment screens over a city's rows (`npm run bench:area`):
 * - the 在用 rows by due date with their owner columns and the statistics' group columns: the
 *   overdue list (area-equipment-timeout), its count and the overdue counts per district or
 *   category (设备统计's overdue rates, which kept counts cannot answer: they change with the date)
 *   read only the index (the scope's unit and area columns are in it);
 * - each unit's rows by district and category: a filter by the unit's name (a few hundred units)
 *   with 区县 and 设备种类 picks the matching rows in the index instead of reading every row of
 *   every unit so named (filtered page p99 397 → see docs/performance.md).
 * Made here and not by a migration, for the reason the view is (the file comment).
 */
async function areaIndexes(trx: AnyDb): Promise<void> {
  // Made before with fewer columns: made again (a few seconds once over a million rows).
  const { rows } = await sql<{
    current: boolean;
  }>`SELECT coalesce(bool_or(indexdef LIKE '%equclacode%'), false) AS current FROM pg_indexes WHERE indexname = 'equipment_in_use_due_idx'`.execute(trx);
  if (!rows[0].current) await sql`DROP INDEX IF EXISTS equipment_in_use_due_idx`.execute(trx);
  await sql`CREATE INDEX IF NOT EXISTS equipment_in_use_due_idx ON equipment (next_inspection_date) INCLUDE (unit_id, area_code, location_area, equclacode) WHERE use_status = '1'`.execute(
    trx,
  );
  await sql`CREATE INDEX IF NOT EXISTS equipment_unit_area_category_idx ON equipment (unit_id, location_area, equclacode)`.execute(trx);
}

/**
 * `area_unit_stats`: each unit's equipment count, kept by statement-level triggers on the equipment
 * table over the statement's transition tables (one upsert per unit a statement touched, however
 * many rows: a COPY of a million rows adds one grouped upsert, not a million). An update counts only
 * when it moves rows between units (the net change per unit; an edit of a piece writes nothing
 * here). TRUNCATE empties it. Exact at every commit: the upserts run in the writer's transaction.
 * Made, and filled from the table, the first time (under a lock that holds writers of equipment
 * off while it counts); later starts only refresh the functions.
 */
async function keepEquipmentCounts(trx: AnyDb): Promise<void> {
  const { rows } = await sql<{ kept: boolean }>`
    SELECT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'area_unit_stats_insert' AND tgrelid = 'equipment'::regclass) AS kept`.execute(trx);
  const upsert = (rowsOf: string) => `
      INSERT INTO area_unit_stats AS s (unit_id, equipment_count)
        SELECT unit_id, sum(d) FROM (${rowsOf}) AS changed GROUP BY unit_id HAVING sum(d) <> 0 ORDER BY unit_id
      ON CONFLICT (unit_id) DO UPDATE SET equipment_count = s.equipment_count + excluded.equipment_count;`;
  const fn = (name: string, rowsOf: string) =>
    sql.raw(`CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${upsert(rowsOf)} RETURN NULL; END $$`).execute(trx);
  if (!rows[0].kept) {
    await sql`LOCK TABLE equipment IN SHARE ROW EXCLUSIVE MODE`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS area_unit_stats (unit_id char(32) PRIMARY KEY, equipment_count integer NOT NULL DEFAULT 0)`.execute(trx);
    await sql`DELETE FROM area_unit_stats`.execute(trx);
    await sql`INSERT INTO area_unit_stats (unit_id, equipment_count) SELECT unit_id, count(*) FROM equipment GROUP BY unit_id`.execute(trx);
  }
  await fn('area_unit_stats_added', 'SELECT unit_id, 1 AS d FROM new_rows');
  await fn('area_unit_stats_removed', 'SELECT unit_id, -1 AS d FROM old_rows');
  await fn('area_unit_stats_moved', 'SELECT unit_id, 1 AS d FROM new_rows UNION ALL SELECT unit_id, -1 FROM old_rows');
  await sql
    .raw(`CREATE OR REPLACE FUNCTION area_unit_stats_emptied() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM area_unit_stats; RETURN NULL; END $$`)
    .execute(trx);
  if (!rows[0].kept) {
    for (const statement of [
      'CREATE TRIGGER area_unit_stats_insert AFTER INSERT ON equipment REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION area_unit_stats_added()',
      'CREATE TRIGGER area_unit_stats_delete AFTER DELETE ON equipment REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION area_unit_stats_removed()',
      'CREATE TRIGGER area_unit_stats_update AFTER UPDATE ON equipment REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION area_unit_stats_moved()',
      'CREATE TRIGGER area_unit_stats_truncate AFTER TRUNCATE ON equipment FOR EACH STATEMENT EXECUTE FUNCTION area_unit_stats_emptied()',
    ])
      await sql.raw(statement).execute(trx);
  }
}
