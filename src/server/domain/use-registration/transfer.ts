/**
 * Change of using unit (变更使用单位, use-change-apply with changeType `unit`): the equipment moves
 * to another using unit of the platform, which must accept it first.
 *
 *   save (derive `use-change-receiver`)   the receiving unit is looked up by its credit code: it must
 *                                         exist, be a using unit and not the applicant; its id and
 *                                         registered name are kept on the application
 *   commit (`use-change-transfer-open`)   an incoming transfer (use-transfer-receipt) is written for
 *                                         the receiving unit, which sees it in its own list
 *   receipt accept / refuse               the receiving unit's answer is written back to the
 *                                         application (receiverStatus, receiverOpinion)
 *   revoke, cancel, return                open receipts are withdrawn (`use-change-transfer-withdraw`)
 *   audit-agree (applyUseChange → transferEquipment)
 *                                         only once accepted: each piece moves (unit, area, and the
 *                                         new place when given) with the use registrations that
 *                                         hold only transferred equipment — in the approval's
 *                                         transaction, so all of it happens or none.
 */
import { sql } from 'kysely';
import { AppError } from '../../errors';
import { writeFlowLog } from '../../resources/flow-log';
import type { Hook, HookContext } from '../../resources/hooks';
import type { Row } from '../../resources/repository';
import { REGISTRATION_ERRORS } from './errors';

export const CHANGE = 'use-change-apply';
export const RECEIPT = 'use-transfer-receipt';
const REGISTRATION = 'use-regist-apply';
const EQUIPMENT = 'equipment';

interface Receiver {
  id: string;
  orgname: string;
  orgcode: string;
  areacode: string;
  address: string | null;
}

const isTransfer = (row: Row): boolean => row.changeType === 'unit';
const itemsOf = (row: Row): { equipment?: string; equcode?: string; equipmentName?: string; useCertNo?: string }[] =>
  Array.isArray(row.items) ? (row.items as never[]) : [];

/** The receiving unit of a transfer, checked: registered, a using unit, not the applicant. */
async function receiverOf(ctx: HookContext, row: Row): Promise<Receiver> {
  const creditCode = String(row.newUseUnitCreditCode ?? '').trim();
  const { rows } = await sql<Receiver & { unit_type: string }>`
    SELECT id, orgname, orgcode, areacode, address, unit_type FROM sys_unit WHERE orgcode = ${creditCode}`.execute(ctx.trx);
  const unit = rows[0];
  const field = { field: 'newUseUnitCreditCode' };
  if (!unit) throw new AppError(REGISTRATION_ERRORS.TRANSFER_RECEIVER_NOT_FOUND, undefined, { ...field, creditCode });
  if (unit.unit_type !== 'use') throw new AppError(REGISTRATION_ERRORS.TRANSFER_RECEIVER_NOT_USING_UNIT, undefined, field);
  if (unit.id === (row.unitId ?? ctx.actor.unitId)) throw new AppError(REGISTRATION_ERRORS.TRANSFER_RECEIVER_IS_SELF, undefined, field);
  return { id: unit.id, orgname: unit.orgname, orgcode: unit.orgcode, areacode: unit.areacode, address: unit.address };
}

/** `derive` of use-change-apply: the receiving unit of a change of using unit. */
export const resolveReceiver: Hook = async (ctx) => {
  const { row } = ctx;
  if (!isTransfer(row) || !row.newUseUnitCreditCode) return { receiverUnitId: null };
  const receiver = await receiverOf(ctx, row);
  return { receiverUnitId: receiver.id, newUseUnitName: receiver.orgname };
};

/** Withdraws the application's open receipts (pending or accepted), each with its flow-log entry. */
async function withdrawReceipts(ctx: HookContext, applicationId: string): Promise<number> {
  const model = ctx.resource(RECEIPT);
  const { rows } = await sql<{ id: string; status: string }>`
    SELECT id, status FROM ${sql.table(model.table)} WHERE change_apply_id = ${applicationId} AND status IN ('pending', 'accepted') FOR UPDATE`.execute(
    ctx.trx,
  );
  for (const receipt of rows) {
    await ctx.update(RECEIPT, receipt.id, { status: 'withdrawn' });
    await writeFlowLog(ctx.trx, ctx.actor, {
      resource: RECEIPT,
      recordId: receipt.id,
      action: 'withdraw',
      from: receipt.status,
      to: 'withdrawn',
      opinion: '转出单位撤回或申请被退回',
    });
  }
  return rows.length;
}

/** `effects` of use-change-apply `commit`: the receiving unit gets the incoming transfer to answer. */
export const openTransfer: Hook = async (ctx) => {
  const { row } = ctx;
  if (!isTransfer(row)) return;
  const receiver = await receiverOf(ctx, row);
  await withdrawReceipts(ctx, row.id as string);
  const items = itemsOf(row);
  const receipt = await ctx.insert(RECEIPT, {
    changeApplyId: row.id,
    applyNo: row.applyNo,
    fromUnitName: row.useUnitName,
    fromUnitCreditCode: await creditCodeOf(ctx, row.unitId as string),
    equipmentCount: items.length,
    equipmentList: items
      .map((i) => [i.equipmentName, i.equcode, i.useCertNo].filter(Boolean).join(' '))
      .join('；')
      .slice(0, 2000),
    newLocationArea: row.newLocationArea ?? null,
    newAddress: row.newAddress ?? null,
    effectiveDate: row.effectiveDate,
    reason: row.reason,
    contactPerson: row.contactPerson,
    contactMobile: row.contactMobile,
  });
  // ctx.insert owns new rows by the application's unit: the receipt is the receiving unit's.
  await ctx.update(RECEIPT, receipt, { unitId: receiver.id, areaCode: receiver.areacode });
  return { receiverStatus: 'pending', receiverOpinion: null };
};

async function creditCodeOf(ctx: HookContext, unitId: string): Promise<string | null> {
  const { rows } = await sql<{ orgcode: string }>`SELECT orgcode FROM sys_unit WHERE id = ${unitId}`.execute(ctx.trx);
  return rows[0]?.orgcode ?? null;
}

/** `effects` of use-change-apply `revoke`, `cancel` and `audit-disagree`: the receiving unit's receipt is withdrawn. */
export const withdrawTransfer: Hook = async (ctx) => {
  const { row } = ctx;
  if (!isTransfer(row)) return;
  const withdrawn = await withdrawReceipts(ctx, row.id as string);
  if (withdrawn > 0 && row.receiverStatus !== 'refused') return { receiverStatus: 'withdrawn' };
};

/** The receiving unit's answer written back to the application, which must still be waiting. */
async function answer(ctx: HookContext, status: 'accepted' | 'refused'): Promise<void> {
  const applicationId = String(ctx.row.changeApplyId ?? '');
  const application = await ctx.find(CHANGE, applicationId, true);
  if (!application || !['submitted', 'accepted'].includes(String(application.status))) throw new AppError(REGISTRATION_ERRORS.TRANSFER_NOT_PENDING);
  await ctx.update(CHANGE, applicationId, { receiverStatus: status, receiverOpinion: ctx.opinion ?? null });
}

/** `effects` of use-transfer-receipt `accept`. */
export const acceptTransfer: Hook = async (ctx) => {
  await answer(ctx, 'accepted');
};

/** `effects` of use-transfer-receipt `refuse`. */
export const refuseTransfer: Hook = async (ctx) => {
  await answer(ctx, 'refused');
};

/** Part of use-change-apply `audit-agree` for a change of using unit: the equipment and its registrations move. */
export async function transferEquipment(ctx: HookContext): Promise<void> {
  const { row } = ctx;
  if (row.receiverStatus === 'refused') throw new AppError(REGISTRATION_ERRORS.TRANSFER_REFUSED);
  if (row.receiverStatus !== 'accepted') throw new AppError(REGISTRATION_ERRORS.TRANSFER_NOT_ACCEPTED);
  const receiver = await receiverOf(ctx, row);
  const from = row.unitId as string;
  const moved = new Set<string>();
  for (const item of itemsOf(row)) {
    if (!item.equipment || moved.has(item.equipment)) continue;
    const equipment = await ctx.find(EQUIPMENT, item.equipment, true);
    if (!equipment || equipment.unitId !== from) throw new AppError(REGISTRATION_ERRORS.TRANSFER_EQUIPMENT_NOT_OWNED, undefined, { equipment: item.equipment });
    await ctx.update(EQUIPMENT, item.equipment, {
      unitId: receiver.id,
      areaCode: receiver.areacode,
      ...(row.newLocationArea ? { locationArea: row.newLocationArea } : {}),
      ...(row.newAddress ? { address: row.newAddress } : {}),
    });
    moved.add(item.equipment);
  }
  if (moved.size === 0) return;
  // The use registrations of the sender holding only transferred equipment go with it.
  const registrations = ctx.resource(REGISTRATION);
  const link = registrations.children.find((c) => c.name === 'items');
  if (!link) return;
  const { rows } = await sql<{ id: string; equipment: string | null }>`
    SELECT r.id, i.equipment FROM ${sql.table(registrations.table)} r JOIN ${sql.table(link.model.table)} i ON i.parent_id = r.id
    WHERE r.unit_id = ${from} AND r.id IN (
      SELECT parent_id FROM ${sql.table(link.model.table)} WHERE equipment IN (${sql.join([...moved])}))`.execute(ctx.trx);
  const byRegistration = new Map<string, (string | null)[]>();
  for (const r of rows) byRegistration.set(r.id, [...(byRegistration.get(r.id) ?? []), r.equipment]);
  for (const [id, equipment] of byRegistration) {
    if (!equipment.every((e) => e !== null && moved.has(e))) continue;
    await ctx.update(REGISTRATION, id, {
      unitId: receiver.id,
      areaCode: receiver.areacode,
      useUnitName: receiver.orgname,
      useUnitCreditCode: receiver.orgcode,
      useUnitAddress: receiver.address,
    });
  }
}
