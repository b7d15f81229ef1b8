/**
 * `equipment_overdue_month`: the overdue-inspection figures of each month, kept, so the authority's
 * 设备统计 can draw the 12-month trend of 超期未检率 (resource `equipment-overdue-month`, a read-only
 * system table, oversightOnly). Whether a piece is overdue depends on the date (在用, next inspection
 * date before today in China — the rule of the overdue list), so a past month cannot be recounted
 * from today's rows: its figures are kept as they stood.
 *
 * One row per month (its first day), owner area (area_code: the authority's scope), district
 * (location_area) and category (equclacode): the equipment in use and how many of those were overdue.
 *
 * - The current month's rows are rewritten (one GROUP BY over the equipment in use, delete and
 *   insert in one transaction) at start and then once a day by the housekeeping timer
 *   (DomainFeature `housekeeping`): the first tick of a day in China time that finds them older than that
 *   day's start. A month thus keeps its figures as at the last day the server ran in it.
 * - A past month of the last eleven without any row is filled with an estimate (`estimated`): each
 *   piece now in use (and put into use by the month's end) is counted, overdue when its next
 *   inspection date as it stood at the month's last day — that of its latest inspection record dated
 *   on or before it, else (no such record, and no inspection since) its current one — was before that
 *   day. Pieces taken out of use since are missed, so is a due date a record does not show. This
 *   runs after a demo seed and at the housekeeping job's ticks (the first one right after the
 *   server starts answering), for the months the server did not run in; never in the start itself,
 *   which it would hold up for a minute or more on a city's million rows.
 *
 * Both steps hold one advisory lock: processes starting together write each month once.
 */
import { sql } from 'kysely';
import { addToDate, PORTAL_TIME_ZONE, todayIn } from '../../../shared/dates';
import type { AnyDb } from '../../resources/repository';

export const OVERDUE_MONTH_TABLE = 'equipment_overdue_month';

/** The months kept for the trend: this one and the eleven before. */
const PAST_MONTHS = 11;

/** Makes the table (idempotent) and refreshes it: the feature's `tablesReady`. */
export async function createOverdueMonths(db: AnyDb): Promise<void> {
  const { rows } = await sql<{ ready: boolean }>`SELECT to_regclass('equipment') IS NOT NULL AND to_regclass('inspection_record') IS NOT NULL AS ready`.execute(
    db,
  );
  if (!rows[0]?.ready) return;
  await inLock(db, async (trx) => {
    await sql`
      CREATE TABLE IF NOT EXISTS equipment_overdue_month (
        id char(32) NOT NULL UNIQUE,
        month date NOT NULL,
        area_code varchar(12) NOT NULL,
        location_area varchar(12) NOT NULL,
        equclacode varchar(16) NOT NULL,
        in_use integer NOT NULL,
        overdue integer NOT NULL,
        estimated boolean NOT NULL DEFAULT false,
        refreshed_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (month, area_code, location_area, equclacode)
      )`.execute(trx);
    // The resource's list and export order by it (system-table.ts); a table made before it had none.
    await sql`ALTER TABLE equipment_overdue_month ADD COLUMN IF NOT EXISTS created_at timestamptz NOT NULL DEFAULT now()`.execute(trx);
  });
  // The estimate of missing past months reads every piece in use once per month (a minute or more on a
  // city's million rows): left to the housekeeping job, which runs once the server answers.
  await refreshOverdueMonths(db, { estimate: false });
}

/** `fn` in a transaction holding the table's advisory lock (in the caller's transaction when it is one). */
async function inLock<T>(db: AnyDb, fn: (trx: AnyDb) => Promise<T>): Promise<T> {
  const run = async (trx: AnyDb) => {
    await sql`SELECT pg_advisory_xact_lock(hashtext('portal:equipment-overdue-month'))`.execute(trx);
    return fn(trx);
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** The first day of the month of `date` (YYYY-MM-DD) moved by `offset` months. */
const monthStart = (date: string, offset = 0): string => addToDate(`${date.slice(0, 7)}-01`, offset, 'm');

export interface OverdueRefresh {
  /** Rows written for the current month (0 when skipped: already refreshed today). */
  current: number;
  /** Rows written for past months without figures (estimates). */
  estimated: number;
}

/**
 * Rewrites the current month's rows from the equipment as it stands (unless `onlyIfStale` and they
 * were refreshed today already) and, unless `estimate` is false, estimates the past months that have none. Idempotent.
 */
export async function refreshOverdueMonths(db: AnyDb, options: { today?: string; onlyIfStale?: boolean; estimate?: boolean } = {}): Promise<OverdueRefresh> {
  const today = options.today ?? todayIn();
  const month = monthStart(today);
  // A schema set without the equipment resource (a test's) has no such table.
  const { rows: made } = await sql<{ made: boolean }>`SELECT to_regclass('equipment_overdue_month') IS NOT NULL AS made`.execute(db);
  if (!made[0]?.made) return { current: 0, estimated: 0 };
  return inLock(db, async (trx) => {
    let current = 0;
    const { rows: fresh } = await sql<{ fresh: boolean }>`
      SELECT EXISTS (SELECT 1 FROM equipment_overdue_month WHERE month = ${month}::date AND NOT estimated
        AND (refreshed_at AT TIME ZONE ${PORTAL_TIME_ZONE})::date >= ${today}::date) AS fresh`.execute(trx);
    if (!options.onlyIfStale || !fresh[0].fresh) {
      await sql`DELETE FROM equipment_overdue_month WHERE month = ${month}::date`.execute(trx);
      const inserted = await sql`
        INSERT INTO equipment_overdue_month (id, month, area_code, location_area, equclacode, in_use, overdue)
        SELECT md5(${month}::text || '|' || area || '|' || district || '|' || category), ${month}::date, area, district, category, in_use, overdue
        FROM (SELECT coalesce(area_code, '') AS area, coalesce(location_area, '') AS district, coalesce(equclacode, '') AS category,
                count(*)::int AS in_use, (count(*) FILTER (WHERE next_inspection_date < ${today}::date))::int AS overdue
              FROM equipment WHERE use_status = '1' GROUP BY 1, 2, 3) AS g`.execute(trx);
      current = Number(inserted.numAffectedRows ?? 0);
    }
    if (options.estimate === false) return { current, estimated: 0 };
    const past = Array.from({ length: PAST_MONTHS }, (_, i) => monthStart(today, i - PAST_MONTHS));
    const { rows: kept } = await sql<{
      month: string;
    }>`SELECT DISTINCT to_char(month, 'YYYY-MM-DD') AS month FROM equipment_overdue_month WHERE month >= ${past[0]}::date AND month < ${month}::date`.execute(
      trx,
    );
    const have = new Set(kept.map((r) => r.month));
    const missing = past.filter((m) => !have.has(m));
    let estimated = 0;
    if (missing.length > 0) {
      // Each missing month's last day, and what was due as it stood then.
      const ends = sql.join(missing.map((m) => sql`(${m}::date, ${addToDate(addToDate(m, 1, 'm'), -1, 'd')}::date)`));
      const inserted = await sql`
        INSERT INTO equipment_overdue_month (id, month, area_code, location_area, equclacode, in_use, overdue, estimated)
        SELECT md5(to_char(month, 'YYYY-MM-DD') || '|' || area || '|' || district || '|' || category), month, area, district, category, in_use, overdue, true
        FROM (SELECT m.month, coalesce(e.area_code, '') AS area, coalesce(e.location_area, '') AS district, coalesce(e.equclacode, '') AS category,
                count(*)::int AS in_use, (count(*) FILTER (WHERE due.next_date < m.month_end))::int AS overdue
              FROM (VALUES ${ends}) AS m (month, month_end)
              JOIN equipment e ON e.use_status = '1' AND (e.put_into_use_date IS NULL OR e.put_into_use_date <= m.month_end)
              CROSS JOIN LATERAL (
                SELECT coalesce(
                  (SELECT r.next_inspection_date FROM inspection_record r WHERE r.equipment = e.id AND r.inspection_date <= m.month_end ORDER BY r.inspection_date DESC LIMIT 1),
                  CASE WHEN e.last_inspection_date IS NULL OR e.last_inspection_date <= m.month_end THEN e.next_inspection_date END) AS next_date
              ) AS due
              GROUP BY 1, 2, 3, 4) AS g`.execute(trx);
      estimated = Number(inserted.numAffectedRows ?? 0);
    }
    return { current, estimated };
  });
}
