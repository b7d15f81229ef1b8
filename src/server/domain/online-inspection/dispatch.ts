/**
 * Which inspection body serves an online inspection application, and by when:
 *
 * - `online-apply-route` (effect of commit): the routing table (routing.ts, dictionary
 *   inspection-routing) names the body for the applying unit's area and the equipment's categories;
 *   none routes it: no body, `awaitingAssignment` (待分派) until the authority assigns one. Only an
 *   application that has no body yet is routed: one submitted again after a return or a revoke
 *   keeps the body it was last assigned (by routing or by the authority's 改派), so a resubmission
 *   never undoes a reassignment. Every commit sets the due date: the day of submission plus
 *   PORTAL_INSPECTION_SLA_DAYS working days (workdays.ts: weekends and public holidays skipped).
 * - `online-apply-reassign` (effect of reassign, the authority's): the body it picked (`reassignTo`,
 *   any registered inspection body, whatever its district: the picker's list, bodies.ts) serves
 *   the application from now on; nothing else changes.
 */
import { todayIn } from '../../../shared/dates';
import { loadConfig } from '../../config';
import { AppError } from '../../errors';
import type { Hook } from '../../resources/hooks';
import { inspectionBodyById } from './bodies';
import type { Dicts } from './fees';
import { INSPECTION_ERRORS } from './errors';
import { routeInspectionBody } from './routing';
import { addWorkingDays, workCalendarOf } from './workdays';

/** The due date of an application submitted on `submitted`: the configured working days on (work calendar of `dicts`). */
export function dueDateOf(submitted: string, dicts: Dicts, slaDays = loadConfig().inspectionSlaDays): string {
  return addWorkingDays(submitted, slaDays, workCalendarOf(dicts));
}

const categoriesOf = (row: Record<string, unknown>): string[] =>
  (Array.isArray(row.items) ? (row.items as { equclacode?: unknown }[]) : []).flatMap((i) =>
    typeof i.equclacode === 'string' && i.equclacode ? [i.equclacode] : [],
  );

/** effect of commit. */
export const onlineApplyRoute: Hook = async (ctx) => {
  const dueDate = dueDateOf(todayIn(), ctx.dicts);
  const assigned = ctx.before?.inspectionUnitId;
  if (typeof assigned === 'string' && assigned) return { awaitingAssignment: false, dueDate };
  const area = typeof ctx.row.areaCode === 'string' && ctx.row.areaCode ? ctx.row.areaCode : ctx.actor.areaCode;
  const body = await routeInspectionBody(ctx.trx, ctx.dicts, area, categoriesOf(ctx.row));
  return {
    inspectionUnitId: body?.id ?? null,
    inspectionUnitName: body?.orgname ?? null,
    awaitingAssignment: !body,
    dueDate,
  };
};

/** effect of reassign. */
export const onlineApplyReassign: Hook = async (ctx) => {
  const body = await inspectionBodyById(ctx.trx, ctx.row.reassignTo);
  if (!body) throw new AppError(INSPECTION_ERRORS.INSPECTION_BODY_NOT_FOUND);
  if (body.id === ctx.before?.inspectionUnitId) throw new AppError(INSPECTION_ERRORS.INSPECTION_BODY_UNCHANGED);
  return { inspectionUnitId: body.id, inspectionUnitName: body.orgname, awaitingAssignment: false, reassignTo: null };
};
