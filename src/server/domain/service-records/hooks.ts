/**
 * Rules of the self-service records (wing service-records) that their JSON cannot say:
 *
 * - `service-apply-approved` (effect of audit-agree on schemas/resources/service-apply.json): an
 *   agreed 停用/终止 application sets the equipment's use status (the termination-kind dictionary's
 *   `data.useStatus`: 停用 → 停用, 终止使用 → 注销);
 * - `inspection-record-latest` / `maintenance-record-latest` (derive of inspection-record and
 *   maintenance-record): `latest` is true on the newest record of a piece of equipment (per
 *   inspection type for inspections), false on the older ones, so lists colour only the next due
 *   date that still matters — an older record's next date has passed by design. The maintenance
 *   one runs as `onDelete` too: deleting the latest visit makes the one before it the latest again.
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

/** The rows of `row`'s group (same equipment, same values of `alsoBy`) other than `row`, newest first. */
async function othersOfGroup(ctx: HookContext, row: Record<string, unknown>, dateField: string, alsoBy: readonly string[]) {
  const { model } = ctx;
  const column = (name: string) => sql.raw(quote(model.byName.get(name)!.column));
  if (typeof row.equipment !== 'string') return undefined;
  const group = [
    sql`${column('equipment')} = ${row.equipment}`,
    ...alsoBy.map((name) => (row[name] == null ? sql`${column(name)} IS NULL` : sql`${column(name)} = ${String(row[name])}`)),
  ];
  if (typeof row.id === 'string') group.push(sql`id <> ${row.id}`);
  const where = sql.join(group, sql` AND `);
  const table = sql.raw(quote(model.table));
  const { rows } = await sql<{
    id: string;
    d: string;
  }>`SELECT id, to_char(${column(dateField)}, 'YYYY-MM-DD') AS d FROM ${table} WHERE ${where} ORDER BY ${column(dateField)} DESC, created_at DESC`.execute(
    ctx.trx,
  );
  const mark = (id: string) => sql`UPDATE ${table} SET ${column('latest')} = (id = ${id}) WHERE ${where}`.execute(ctx.trx);
  return { rows, mark, clear: () => sql`UPDATE ${table} SET ${column('latest')} = false WHERE ${where}`.execute(ctx.trx) };
}

/**
 * Keeps `latest` over the rows of one group (same equipment, and the same values of `alsoBy`):
 * the row being saved is latest when no other row of its group has a later `dateField`; the
 * other rows are then not, or else the newest of them is. A row leaving its group while the
 * latest of it — deleted (onDelete), or moved to another piece or type — hands `latest` to the
 * newest row left in that group.
 */
async function keepLatest(ctx: HookContext, dateField: string, alsoBy: readonly string[]): Promise<Record<string, unknown>> {
  const { row, before } = ctx;
  const leaves =
    before?.latest === true && (ctx.action === 'delete' || ['equipment', ...alsoBy].some((name) => String(before[name] ?? '') !== String(row[name] ?? '')));
  if (leaves) {
    const left = await othersOfGroup(ctx, before, dateField, alsoBy);
    if (left?.rows.length) await left.mark(left.rows[0].id);
  }
  if (ctx.action === 'delete') return {};
  const date = dateText(row[dateField]);
  const group = date ? await othersOfGroup(ctx, row, dateField, alsoBy) : undefined;
  if (!group) return { latest: false };
  const newestOther = group.rows[0];
  const latest = !newestOther || date >= newestOther.d;
  if (newestOther) await (latest ? group.clear() : group.mark(newestOther.id));
  return { latest };
}

export const inspectionRecordLatest: Hook = (ctx) => keepLatest(ctx, 'inspectionDate', ['inspectionType']);
export const maintenanceRecordLatest: Hook = (ctx) => keepLatest(ctx, 'maintenanceDate', []);
