/**
 * Server hooks of the report and certificate re-issue (schemas/resources/report-reissue.json):
 *
 * - `report-reissue-record` (derive): the inspection record named is the unit's own; its report
 *   number, equipment and date are copied from it, never from the request;
 * - `report-reissue-route` (commit): the inspection body serving the unit's area and the
 *   equipment's category (routing.ts of online inspection, one table for both) is written to the
 *   row's party column; no rule: the commit is refused;
 * - `report-reissue-handled` (the body's actions): keeps the body's latest opinion on the row, and
 *   refuses issuing the way the unit did not choose (a download for a posted one, or the reverse).
 */
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { routeInspectionBody } from '../online-inspection/routing';
import { REISSUE_ERRORS } from './errors';

export const REPORT_REISSUE = 'report-reissue';
const INSPECTION_RECORD = 'inspection-record';

/** The inspection record of the row, when it is its owner's. */
async function recordOf(ctx: HookContext, ownerUnitId: unknown) {
  const id = ctx.row.inspectionRecord;
  const record = typeof id === 'string' ? await ctx.find(INSPECTION_RECORD, id) : undefined;
  return record && record.unitId === ownerUnitId ? record : undefined;
}

/** derive of report-reissue. */
export const reportReissueRecord: Hook = async (ctx) => {
  const record = await recordOf(ctx, ctx.actor.unitId);
  // Another unit's record does not exist for this unit (no existence leak).
  if (!record) throw new AppError(REISSUE_ERRORS.REISSUE_RECORD_NOT_FOUND);
  return {
    reportNo: record.reportNo ?? null,
    equipmentName: record.equipmentName ?? null,
    equcode: record.equcode ?? null,
    equclacode: record.equclacode ?? null,
    inspectionDate: record.inspectionDate ?? null,
  };
};

/** effect of commit: routes the application to its inspection body. */
export const reportReissueRoute: Hook = async (ctx) => {
  const record = await recordOf(ctx, ctx.row.unitId);
  if (!record) throw new AppError(REISSUE_ERRORS.REISSUE_RECORD_NOT_FOUND);
  const areaCode = typeof ctx.row.areaCode === 'string' && ctx.row.areaCode ? ctx.row.areaCode : ctx.actor.areaCode;
  const categories = typeof record.equclacode === 'string' && record.equclacode ? [record.equclacode] : [];
  const body = await routeInspectionBody(ctx.trx, ctx.dicts, areaCode, categories);
  if (!body) throw new AppError(REISSUE_ERRORS.REISSUE_NOT_ROUTED);
  return { bodyId: body.id, bodyName: body.orgname };
};

/** effect of accept, reissue, reissue-post and return. */
export const reportReissueHandled: Hook = (ctx) => {
  if (ctx.action === 'reissue' && ctx.row.delivery === 'post') throw new AppError(REISSUE_ERRORS.REISSUE_POSTED);
  if (ctx.action === 'reissue-post' && ctx.row.delivery !== 'post') throw new AppError(REISSUE_ERRORS.REISSUE_ONLINE);
  return { bodyOpinion: ctx.opinion?.trim() || null };
};
