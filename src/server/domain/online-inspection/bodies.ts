/**
 * `inspection_body_view`: the registered inspection bodies (sys_unit, unit type inspection), every
 * one of them whatever its district — a body may serve beyond the district it registered in. The
 * read-only resource `inspection-body` lists it: the authority's 改派 picker (online-apply
 * reassignTo) offers these bodies, and the effect online-apply-reassign accepts exactly these
 * (`inspectionBodyById`), so a city and a district authority pick from the same list.
 *
 * A view made at every start (DomainFeature `tablesReady`) rather than by a migration, like the
 * other views of resources (area-units/view.ts): it only reads sys_unit, and is replaced in place.
 */
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/repository';

export const INSPECTION_BODY_VIEW = 'inspection_body_view';

export async function createInspectionBodyView(db: AnyDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Two processes starting at once would race on the catalogue rows.
    await sql`SELECT pg_advisory_xact_lock(hashtext('portal:inspection-body-view'))`.execute(trx);
    await sql`
      CREATE OR REPLACE VIEW inspection_body_view AS
      SELECT u.id, u.orgname, u.orgcode, u.areacode AS district, u.contact, u.address, u.created_at
      FROM sys_unit u
      WHERE u.unit_type = 'inspection'`.execute(trx);
  });
}

/** The registered inspection body with this id (one the 改派 picker offers), or undefined. */
export async function inspectionBodyById(db: AnyDb, id: unknown): Promise<{ id: string; orgname: string } | undefined> {
  if (typeof id !== 'string' || !id) return undefined;
  return db.selectFrom(INSPECTION_BODY_VIEW).select(['id', 'orgname']).where('id', '=', id).executeTakeFirst();
}
