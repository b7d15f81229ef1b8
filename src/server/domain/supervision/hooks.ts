/**
 * Rules of supervision orders (schemas/resources/supervision-order.json) that its JSON cannot say:
 *
 * - the authority names the using unit by its credit code (the form picks the unit, targetUnit, and
 *   copies its code): on every save (`derive`
 *   supervision-target) the code must name a using unit of the authority's area (its area code
 *   under the authority's: 330200 covers 3302xx), and an equipment code, when given, a piece of
 *   that unit's registry; the unit's and the equipment's names are copied;
 * - issuing (`commit`, 下发; effect supervision-issue) checks the unit again and hands the row to it:
 *   from then on the row is the unit's (it sees and answers it), and the authority oversees it as
 *   it does every resource it audits (its area, the states of its actions). The files of the order
 *   become readable by the unit. The deadline may not lie before the issue date;
 * - the unit's answer (`reply`, 整改反馈; effect supervision-reply) is dated, and its completion date
 *   may not precede the issue date; the authority's verification (`accept`) is dated.
 *
 * Which states allow which action, who may run it and the required answer fields (description,
 * completion date, evidence: `requiredOn: ["reply"]` and the action's `input`) are the workflow's.
 */
import { sql } from 'kysely';
import { todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { areaPrefix } from '../../resources/scope';
import { linkToRecord } from '../../services/attachments';
import { SUPERVISION_ERRORS } from './errors';

export const SUPERVISION = 'supervision-order';
const EQUIPMENT = 'equipment';

const dateOf = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 10) : value instanceof Date ? value.toISOString().slice(0, 10) : '');

interface TargetUnit {
  id: string;
  orgname: string;
  areacode: string;
}

/** Whether an area code lies in (or is) the area `areaCode` governs. */
export function inArea(areaCode: string, code: string | null | undefined): boolean {
  return typeof code === 'string' && code.startsWith(areaPrefix(areaCode));
}

/** The unit the row names by credit code (any but a supervising body), checked against the acting authority's area. */
async function targetUnit(ctx: HookContext): Promise<TargetUnit> {
  const code = typeof ctx.row.targetCreditCode === 'string' ? ctx.row.targetCreditCode.trim().toUpperCase() : '';
  const { rows } = await sql<TargetUnit>`SELECT id, orgname, areacode FROM sys_unit WHERE orgcode = ${code} AND unit_type <> 'authority'`.execute(ctx.trx);
  const unit = rows[0];
  if (!unit) throw new AppError(SUPERVISION_ERRORS.SUPERVISION_UNIT_UNKNOWN, undefined, { field: 'targetCreditCode' });
  if (!inArea(ctx.actor.areaCode, unit.areacode))
    throw new AppError(SUPERVISION_ERRORS.SUPERVISION_UNIT_OUTSIDE_AREA, undefined, { field: 'targetCreditCode' });
  return unit;
}

/** The name of the unit's piece of equipment with this code (refused when the unit has none). */
async function equipmentName(ctx: HookContext, unitId: string, equcode: string): Promise<string | null> {
  const model = ctx.resource(EQUIPMENT);
  const code = sql.ref(model.byName.get('equcode')!.column);
  const name = sql.ref(model.byName.get('equipmentName')!.column);
  const { rows } = await sql<{ name: string | null }>`
    SELECT ${name} AS name FROM ${sql.table(model.table)} WHERE unit_id = ${unitId} AND ${code} = ${equcode} LIMIT 1`.execute(ctx.trx);
  if (!rows[0]) throw new AppError(SUPERVISION_ERRORS.SUPERVISION_EQUIPMENT_UNKNOWN, undefined, { field: 'equcode' });
  return rows[0].name;
}

/** `derive`: the named unit must be a using unit of the authority's area; copies its name and the equipment's. */
export const supervisionTarget: Hook = async (ctx) => {
  const unit = await targetUnit(ctx);
  const equcode = typeof ctx.row.equcode === 'string' ? ctx.row.equcode.trim() : '';
  // The picked unit (targetUnit) follows the code, so a client that types the code alone gets it too.
  return { targetUnit: unit.id, useUnitName: unit.orgname, equipmentName: equcode ? await equipmentName(ctx, unit.id, equcode) : null };
};

/** `effects` of commit (下发): checks the unit again and hands the order to it. */
export const supervisionIssue: Hook = async (ctx) => {
  const unit = await targetUnit(ctx);
  const id = String(ctx.row.id);
  const issueDate = dateOf(ctx.row.issueDate) || todayIn();
  if (dateOf(ctx.row.deadline) < issueDate) throw new AppError(SUPERVISION_ERRORS.SUPERVISION_DEADLINE_PASSED, undefined, { field: 'deadline' });
  await sql`UPDATE ${sql.table(ctx.model.table)} SET unit_id = ${unit.id}, area_code = ${unit.areacode} WHERE id = ${id}`.execute(ctx.trx);
  // The order's own files (uploaded by the authority) become readable by the unit it now belongs to.
  const files = Array.isArray(ctx.row.noticeFile)
    ? (ctx.row.noticeFile as { id?: unknown }[]).map((f) => f?.id).filter((f): f is string => typeof f === 'string')
    : [];
  if (files.length > 0) await linkToRecord(ctx.trx, ctx.actor, id, files, unit.id);
  return { useUnitName: unit.orgname, issueDate };
};

/** `effects` of reply (整改反馈): dated; the work cannot have been finished before the order was issued. */
export const supervisionReply: Hook = (ctx) => {
  const issued = dateOf(ctx.row.issueDate);
  if (issued && dateOf(ctx.row.rectifyFinishDate) < issued)
    throw new AppError(SUPERVISION_ERRORS.SUPERVISION_FINISHED_BEFORE_ISSUE, undefined, { field: 'rectifyFinishDate' });
  return { replyDate: todayIn() };
};

/** `effects` of accept (核查通过): dated. */
export const supervisionVerify: Hook = () => ({ verifyDate: todayIn() });
