/**
 * Rules of the self-service records (wing service-records) that their JSON cannot say:
 *
 * - `service-apply-approved` (effect of audit-agree on schemas/resources/service-apply.json): an
 *   agreed 停用/终止 application sets the equipment's use status (the termination-kind dictionary's
 *   `data.useStatus`: 停用 → 停用, 终止使用 → 注销);
 * - `inspection-record-latest` / `maintenance-record-latest` (derive of inspection-record and
 *   maintenance-record): `latest` is true on the newest record of a piece of equipment (per
 *   inspection type for inspections), false on the older ones, so lists colour only the next due
 *   date that still matters — an older record's next date has passed by design.
 */
import { sql } from 'kysely';
import type { Hook, HookContext } from '../../resources/hooks';
import { quote } from '../../resources/naming';

export const SERVICE_APPLY = 'service-apply';
export const MAINTENANCE_RECORD = 'maintenance-record';
export const INSPECTION_RECORD = 'inspection-record';

/** effect of audit-agree: a termination moves the equipment to the use status its kind names. */
export const serviceApplyApproved: Hook = async (ctx) => {
  const { row } = ctx;
  if (row.applyType !== 'termination' || typeof row.equipment !== 'string') return;
  const kind = ctx.dicts.get('termination-kind')?.find((item) => item.value === row.terminationKind);
  const useStatus = kind?.data?.useStatus;
  if (typeof useStatus !== 'string') return;
  if (!(await ctx.find('equipment', row.equipment, true))) return;
  await ctx.update('equipment', row.equipment, { useStatus });
};

const dateText = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 10) : value instanceof Date ? value.toISOString().slice(0, 10) : '');

/**
 * Keeps `latest` over the rows of one group (same equipment, and the same values of `alsoBy`):
 * the row being saved is latest when no other row of its group has a later `dateField`; the
 * other rows are then not, or else the newest of them is.
 */
async function keepLatest(ctx: HookContext, dateField: string, alsoBy: readonly string[]): Promise<Record<string, unknown>> {
  const { model, row } = ctx;
  const column = (name: string) => sql.raw(quote(model.byName.get(name)!.column));
  const equipment = row.equipment;
  const date = dateText(row[dateField]);
  if (typeof equipment !== 'string' || !date) return { latest: false };
  const group = [sql`${column('equipment')} = ${equipment}`, ...alsoBy.map((name) => (row[name] == null ? sql`${column(name)} IS NULL` : sql`${column(name)} = ${String(row[name])}`))];
  if (typeof row.id === 'string') group.push(sql`id <> ${row.id}`);
  const where = sql.join(group, sql` AND `);
  const table = sql.raw(quote(model.table));
  const { rows } = await sql<{ id: string; d: string }>`SELECT id, to_char(${column(dateField)}, 'YYYY-MM-DD') AS d FROM ${table} WHERE ${where} ORDER BY ${column(dateField)} DESC, created_at DESC`.execute(ctx.trx);
  const newestOther = rows[0];
  const latest = !newestOther || date >= newestOther.d;
  if (rows.length > 0) {
    await sql`UPDATE ${table} SET ${column('latest')} = false WHERE ${where}`.execute(ctx.trx);
    if (!latest) await sql`UPDATE ${table} SET ${column('latest')} = true WHERE id = ${newestOther.id}`.execute(ctx.trx);
  }
  return { latest };
}

export const inspectionRecordLatest: Hook = (ctx) => keepLatest(ctx, 'inspectionDate', ['inspectionType']);
export const maintenanceRecordLatest: Hook = (ctx) => keepLatest(ctx, 'maintenanceDate', []);
