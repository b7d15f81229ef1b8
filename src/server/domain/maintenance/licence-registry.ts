/**
 * A maintenance unit's licence into the maintenance-unit registry (schemas/resources/maintenance-unit.json),
 * the one way both places that open a maintenance unit's account write it: the authority's approval
 * of a registration (account-apply hooks.ts, effect account-register-approve) and the operator's
 * `npm run admin create-maintenance-admin` (admin/accounts.ts).
 *
 * The row with the unit's credit code is updated (the authority may have recorded the unit before
 * its account existed), else a row is inserted; without a licence the row is only linked, and none
 * is made. Every write goes through the registry's own writes, so its derive hook
 * `maintenance-unit-account` links the row to the unit (accountUnitId, by credit code): the unit's
 * sys_unit row must exist first. A licence number another unit's row holds is refused.
 */
import { sql } from 'kysely';
import type { HookContext } from '../../resources/hooks';

export const MAINTENANCE_UNIT = 'maintenance-unit';

export interface MaintenanceLicence {
  licenceNo: string;
  licenceItems: string[];
  /** YYYY-MM-DD. */
  expiryDate: string;
}

/** What became of the unit's registry row: written with the licence, linked only, none to link; or the licence number is another unit's. */
export type LicenceOutcome = 'created' | 'updated' | 'linked' | 'none' | 'licence-taken';

/** The writes of a hook's context (an effect's, or the admin command's, which runs as the server). */
export type RegistryWrites = Pick<HookContext, 'trx' | 'resource' | 'update' | 'insert'>;

/**
 * Writes `licence` to the registry row of the unit with credit code `orgcode` (or links it only
 * when null); `newRow`: the other fields of a row made here (name, area, contact).
 */
export async function writeMaintenanceLicence(
  ctx: RegistryWrites,
  orgcode: string,
  licence: MaintenanceLicence | null,
  newRow: Record<string, unknown>,
): Promise<LicenceOutcome> {
  const registry = ctx.resource(MAINTENANCE_UNIT);
  const column = (name: string) => sql.ref(registry.byName.get(name)!.column);
  const code = orgcode.toUpperCase();
  if (licence) {
    const { rows: taken } = await sql<{ code: string }>`
      SELECT ${column('creditCode')} AS code FROM ${sql.table(registry.table)} WHERE ${column('licenceNo')} = ${licence.licenceNo}`.execute(ctx.trx);
    if (taken.some((t) => t.code.toUpperCase() !== code)) return 'licence-taken';
  }
  const values = licence ? { licenceNo: licence.licenceNo, licenceItems: licence.licenceItems, expiryDate: licence.expiryDate } : {};
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM ${sql.table(registry.table)} WHERE upper(${column('creditCode')}) = ${code} LIMIT 1`.execute(ctx.trx);
  if (rows[0]) {
    await ctx.update(MAINTENANCE_UNIT, rows[0].id, values);
    return licence ? 'updated' : 'linked';
  }
  if (!licence) return 'none';
  await ctx.insert(MAINTENANCE_UNIT, { ...newRow, ...values, creditCode: code });
  return 'created';
}
