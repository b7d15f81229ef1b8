/**
 * Server hooks of the online inspection application (schemas/resources/
 * online-apply.json):
 *
 * - `online-apply-item` (derive of each equipment row): the row names the unit's own equipment;
 *   its snapshot columns and its fee come from that equipment, never from the request;
 * - `online-apply-fees` (derive): the total, the relief and the payable amount, by the one fee
 *   function (fees.ts);
 * - `online-apply-bill` (bill): the fees again with the fee table in force when the body bills;
 * - `online-apply-paid` (pay, confirm-payment): payment facts and a receipt number;
 * - `online-apply-inspected` (inspect): the result (already on the row: the action's input fields)
 *   goes to every piece of equipment, whose derive hook then recomputes the next inspection date.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import { nextSequence, type Hook } from '../../resources/hooks';
import { EQUIPMENT_ERRORS } from '../equipment/errors';
import { INSPECTION_ERRORS } from './errors';
import { quoteFees } from './fees';
import { closeOpenOrders } from './payment';

export const ONLINE_APPLY = 'online-apply';
const ITEM = 'online-apply-item';

type Item = { id?: string; equipment?: string; equclacode?: string; subCategory?: string; fee?: number };

const itemsOf = (row: Record<string, unknown>): Item[] => (Array.isArray(row.items) ? (row.items as Item[]) : []);

/** derive of online-apply-item. */
export const onlineApplyItem: Hook = async (ctx) => {
  const id = ctx.row.equipment;
  const equipment = typeof id === 'string' ? await ctx.find('equipment', id) : undefined;
  // Another unit's equipment does not exist for this unit (no existence leak).
  if (!equipment || equipment.unitId !== ctx.actor.unitId) throw new AppError(EQUIPMENT_ERRORS.EQUIPMENT_NOT_FOUND);
  const [line] = quoteFees(ctx.dicts, [equipment], null).items;
  return {
    equcode: equipment.equcode ?? null,
    equipmentName: equipment.equipmentName ?? null,
    equclacode: equipment.equclacode ?? null,
    subCategory: equipment.subCategory ?? null,
    registrationCode: equipment.registrationCode ?? null,
    fee: line.fee,
  };
};

/** derive of online-apply. */
export const onlineApplyFees: Hook = (ctx) => {
  const items = itemsOf(ctx.row);
  if (items.length === 0) throw new AppError(INSPECTION_ERRORS.INSPECTION_WITHOUT_EQUIPMENT);
  const ids = items.map((i) => i.equipment);
  if (new Set(ids).size !== ids.length) throw new AppError(INSPECTION_ERRORS.INSPECTION_DUPLICATE_EQUIPMENT);
  const { feeAmount, reliefAmount, payableAmount } = quoteFees(ctx.dicts, items, ctx.row.reliefPolicy);
  return { feeAmount, reliefAmount, payableAmount };
};

/** A code as the unit writes it: six digits. */
const AUTH_CODE = /^\d{6}$/;

/**
 * derive of online-apply: the identifiers the original clients read (the original data model): `onlinelsh`, the
 * application's serial number under its legacy name, and `authCode`, the 6-digit code the unit
 * quotes to the inspection body to prove the application is its own. A client may send its own
 * code with the first save (the original clients do): it is kept as sent; without one the server
 * draws one. Once given the code does not change: a later save sending another code is refused
 * (a stale or foreign client), one sending none or the same keeps it.
 */
export const onlineApplyIdentifiers: Hook = (ctx) => {
  const raw = ctx.input.authCode;
  const sent = typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : typeof raw === 'number' ? String(raw) : undefined;
  if (sent !== undefined && !AUTH_CODE.test(sent)) throw new AppError(INSPECTION_ERRORS.AUTH_CODE_INVALID);
  const stored = ctx.before?.authCode;
  if (typeof stored === 'string' && stored !== '') {
    if (sent !== undefined && sent !== stored) throw new AppError(INSPECTION_ERRORS.AUTH_CODE_MISMATCH);
    return { onlinelsh: ctx.row.applyNo ?? null, authCode: stored };
  }
  return { onlinelsh: ctx.row.applyNo ?? null, authCode: sent ?? String(randomInt(0, 1_000_000)).padStart(6, '0') };
};

/** effect of bill: prices the items again (the fee table may have changed since the unit saved). */
export const onlineApplyBill: Hook = async (ctx) => {
  const items = itemsOf(ctx.row);
  const quote = quoteFees(ctx.dicts, items, ctx.row.reliefPolicy);
  const item = ctx.resource(ITEM);
  const table = sql.table(item.table);
  const fee = sql.ref(item.byName.get('fee')!.column);
  for (const [i, row] of items.entries()) {
    if (row.id && row.fee !== quote.items[i].fee) await sql`UPDATE ${table} SET ${fee} = ${quote.items[i].fee} WHERE id = ${row.id}`.execute(ctx.trx);
  }
  return { feeAmount: quote.feeAmount, reliefAmount: quote.reliefAmount, payableAmount: quote.payableAmount };
};

/** `SF2026000123`: SF + the year + a 6-digit sequence per year. */
async function receiptNumber(ctx: Parameters<Hook>[0]): Promise<string> {
  const year = todayIn().slice(0, 4);
  return `SF${year}${String(await nextSequence(ctx.trx, `receipt:${year}`)).padStart(6, '0')}`;
}

/**
 * effect of pay (run by the payment notification, which passes the order it settled) and of
 * confirm-payment (the inspection body confirms an offline payment: needs the unit's certificate; any
 * open online order is closed so it cannot be paid a second time).
 */
export const onlineApplyPaid: Hook = async (ctx) => {
  if (ctx.action === 'pay') {
    const { orderNo, channel, paidAt } = ctx.input;
    if (typeof orderNo !== 'string' || typeof channel !== 'string' || typeof paidAt !== 'string') throw new Error('pay runs with the settled order');
    return { orderNo, payChannel: channel, paidAt, receiptNo: await receiptNumber(ctx) };
  }
  if (!Array.isArray(ctx.row.payCertificate) || ctx.row.payCertificate.length === 0) throw new AppError(INSPECTION_ERRORS.PAY_CERTIFICATE_MISSING);
  await closeOpenOrders(ctx.trx, ONLINE_APPLY, String(ctx.row.id));
  return { payChannel: 'offline', paidAt: new Date().toISOString(), receiptNo: await receiptNumber(ctx) };
};

/**
 * effect of inspect: the result on the row goes to every piece of equipment of the application
 * (whose derive hook then recomputes its next inspection date) and into its inspection history
 * (inspection-record, the detectionQuery screen), with the report and the next inspection date the
 * body set. The body's name is the serving body's (inspectionUnitName), never typed.
 */
export const onlineApplyInspected: Hook = async (ctx) => {
  const { conclusion, inspectionDate, nextInspectionDate, report, receiptNo } = ctx.row;
  if (typeof inspectionDate !== 'string' || inspectionDate > todayIn()) throw new AppError(INSPECTION_ERRORS.INSPECTION_DATE_FUTURE);
  if (typeof nextInspectionDate === 'string' && nextInspectionDate <= inspectionDate) throw new AppError(INSPECTION_ERRORS.NEXT_INSPECTION_NOT_AFTER);
  const inspectionBody = typeof ctx.row.inspectionUnitName === 'string' && ctx.row.inspectionUnitName ? ctx.row.inspectionUnitName : await unitName(ctx);
  for (const item of itemsOf(ctx.row)) {
    if (!item.equipment || !(await ctx.find('equipment', item.equipment, true))) continue;
    await ctx.update('equipment', item.equipment, { lastInspectionDate: inspectionDate, lastConclusion: conclusion, inspectionBody });
    const equipment = (await ctx.find('equipment', item.equipment))!;
    await ctx.insert('inspection-record', {
      equipment: item.equipment,
      equcode: equipment.equcode,
      equipmentName: equipment.equipmentName,
      equclacode: equipment.equclacode,
      registrationCode: equipment.registrationCode,
      inspectionType: 'periodic',
      inspectionDate,
      conclusion,
      inspectionBody,
      reportNo: receiptNo ? `${String(receiptNo)}-${String(equipment.equcode ?? item.equipment).slice(-6)}` : null,
      nextInspectionDate: typeof nextInspectionDate === 'string' ? nextInspectionDate : equipment.nextInspectionDate,
      report: Array.isArray(report) ? report : null,
      source: 'online',
      onlineApply: ctx.row.id,
    });
  }
  return { inspectionBody };
};

/** The acting unit's registered name (a result recorded on an application no body serves). */
async function unitName(ctx: Parameters<Hook>[0]): Promise<string | null> {
  const unit: { orgname: string } | undefined = await ctx.trx.selectFrom('sys_unit').select('orgname').where('id', '=', ctx.actor.unitId).executeTakeFirst();
  return unit?.orgname ?? null;
}
