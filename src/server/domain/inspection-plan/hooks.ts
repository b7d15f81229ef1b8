/**
 * Rules of random inspection plans (schemas/resources/inspection-plan.json, inspection-check.json)
 * that their JSON cannot say:
 *
 * - every save of a plan (`derive` inspection-plan-check) keeps its area within the authority's and
 *   its period in order;
 * - 抽取 (`draw`, effect inspection-plan-draw) lists the candidates — the using units (sys_unit,
 *   unit_type use) of the plan's area holding at least one piece of equipment of the chosen
 *   categories, and the authority's active inspectors — each ordered by id, and draws with the
 *   plan's seed (draw.ts; a new one when none was typed). Each drawn unit becomes a check (its
 *   officers, a planned date spread over the period); the seed, both candidate counts and the
 *   result's digest are written to the plan;
 * - 完成并公开 (`publish`, effect inspection-plan-publish) needs every check recorded, and dates the
 *   publication;
 * - submitting a check (`commit`, effect inspection-check-record) with the result 责令整改 issues a
 *   rectification order (supervision-order, category 监督检查隐患) to the checked unit, as the
 *   authority's 下发 would (hook supervision-issue: the order becomes the unit's, which answers it
 *   in its own screens); the check keeps the order's number and id.
 */
import { sql } from 'kysely';
import { addToDate, daysBetween, todayIn } from '../../../shared/dates';
import { AppError } from '../../errors';
import { writeFlowLog } from '../../resources/flow-log';
import type { Hook, HookContext } from '../../resources/hooks';
import { areaPrefix } from '../../resources/scope';
import { inArea, supervisionIssue, SUPERVISION } from '../supervision/hooks';
import { drawPlan, newSeed } from './draw';
import { INSPECTION_PLAN_ERRORS } from './errors';

export const PLAN = 'inspection-plan';
export const CHECK = 'inspection-check';
export const INSPECTOR = 'plan-inspector';
const EQUIPMENT = 'equipment';

const dateOf = (value: unknown): string => (typeof value === 'string' ? value.slice(0, 10) : value instanceof Date ? value.toISOString().slice(0, 10) : '');
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

interface Candidate {
  id: string;
  orgname: string;
  orgcode: string;
  areacode: string;
}

interface Officer {
  id: string;
  name: string;
  certNo: string;
}

/** The using units of `area` holding equipment of one of `categories`, ordered by id. */
export async function candidateUnits(ctx: Pick<HookContext, 'trx' | 'resource'>, area: string, categories: readonly string[]): Promise<Candidate[]> {
  if (categories.length === 0) return [];
  const equipment = ctx.resource(EQUIPMENT);
  const category = sql.ref(`e.${equipment.byName.get('equclacode')!.column}`);
  const { rows } = await sql<Candidate>`
    SELECT u.id, u.orgname, u.orgcode, u.areacode FROM sys_unit u
    WHERE u.unit_type = 'use' AND u.areacode LIKE ${`${areaPrefix(area)}%`}
      AND EXISTS (SELECT 1 FROM ${sql.table(equipment.table)} e WHERE e.unit_id = u.id AND ${category} IN (${sql.join([...categories])}))
    ORDER BY u.id`.execute(ctx.trx);
  return rows;
}

/** The active inspectors of the authority `unitId`, ordered by id. */
export async function activeInspectors(ctx: Pick<HookContext, 'trx' | 'resource'>, unitId: string): Promise<Officer[]> {
  const model = ctx.resource(INSPECTOR);
  const col = (name: string) => sql.ref(model.byName.get(name)!.column);
  const { rows } = await sql<Officer>`
    SELECT id, ${col('name')} AS name, ${col('certNo')} AS "certNo" FROM ${sql.table(model.table)}
    WHERE unit_id = ${unitId} AND ${col('active')} = true ORDER BY id`.execute(ctx.trx);
  return rows;
}

/** `derive` of a plan: the area within the authority's, the period in order. */
export const planCheck: Hook = (ctx) => {
  if (!inArea(ctx.actor.areaCode, text(ctx.row.area))) throw new AppError(INSPECTION_PLAN_ERRORS.PLAN_AREA_OUTSIDE, undefined, { field: 'area' });
  const start = dateOf(ctx.row.periodStart);
  const end = dateOf(ctx.row.periodEnd);
  if (start && end && end < start) throw new AppError(INSPECTION_PLAN_ERRORS.PLAN_PERIOD_INVALID, undefined, { field: 'periodEnd' });
};

/** `effects` of draw (抽取). */
export const planDraw: Hook = async (ctx) => {
  const plan = ctx.row;
  const unitId = String(plan.unitId);
  const seed = text(plan.seed) || newSeed();
  const categories = Array.isArray(plan.categories) ? plan.categories.map(String) : [];
  const units = await candidateUnits(ctx, text(plan.area), categories);
  if (units.length === 0) throw new AppError(INSPECTION_PLAN_ERRORS.PLAN_NO_CANDIDATES);
  const officers = await activeInspectors(ctx, unitId);
  const perCheck = Number(plan.inspectorsPerCheck);
  if (officers.length < perCheck) throw new AppError(INSPECTION_PLAN_ERRORS.PLAN_TOO_FEW_INSPECTORS);
  const draw = drawPlan(
    seed,
    units.map((u) => u.id),
    Number(plan.unitCount),
    officers.map((o) => o.id),
    perCheck,
  );
  const unitById = new Map(units.map((u) => [u.id, u]));
  const officerById = new Map(officers.map((o) => [o.id, o]));
  const start = dateOf(plan.periodStart);
  const span = Math.max(0, daysBetween(start, dateOf(plan.periodEnd)));
  for (const [i, check] of draw.checks.entries()) {
    const unit = unitById.get(check.unit)!;
    const team = check.inspectors.map((id) => officerById.get(id)!);
    await ctx.insert(CHECK, {
      plan: String(plan.id),
      planTitle: plan.title,
      drawOrder: i + 1,
      unitName: unit.orgname,
      creditCode: unit.orgcode,
      unitArea: unit.areacode,
      targetUnitId: unit.id,
      inspectors: team.map((o) => o.name).join('、'),
      inspectorCertNos: team.map((o) => o.certNo).join('、'),
      // Spread evenly over the period, in draw order.
      plannedDate: addToDate(start, Math.floor((i * (span + 1)) / draw.checks.length), 'd'),
    });
  }
  return {
    seed,
    candidateCount: units.length,
    inspectorPool: officers.length,
    drawnCount: draw.checks.length,
    drawTime: new Date().toISOString(),
    drawDigest: draw.digest,
  };
};

/** `effects` of publish (完成并公开): every check recorded. */
export const planPublish: Hook = async (ctx) => {
  const checks = ctx.resource(CHECK);
  const planColumn = sql.ref(checks.byName.get('plan')!.column);
  const { rows } = await sql<{ open: number }>`
    SELECT count(*)::int AS open FROM ${sql.table(checks.table)} WHERE ${planColumn} = ${String(ctx.row.id)} AND status <> 'checked'`.execute(ctx.trx);
  if (Number(rows[0]?.open ?? 0) > 0) throw new AppError(INSPECTION_PLAN_ERRORS.PLAN_CHECKS_OPEN);
  return { publishDate: todayIn() };
};

/** `effects` of a check's commit: 责令整改 issues a rectification order to the checked unit. */
export const checkRecord: Hook = async (ctx) => {
  const check = ctx.row;
  if (check.result !== 'rectify') return;
  const requirement = text(check.requirement);
  const deadline = dateOf(check.rectifyDeadline);
  if (!requirement) throw new AppError(INSPECTION_PLAN_ERRORS.CHECK_RECTIFY_INCOMPLETE, undefined, { field: 'requirement' });
  if (!deadline) throw new AppError(INSPECTION_PLAN_ERRORS.CHECK_RECTIFY_INCOMPLETE, undefined, { field: 'rectifyDeadline' });
  const { rows } = await sql<{
    orgname: string;
    contact_phone: string | null;
  }>`SELECT orgname, contact_phone FROM sys_unit WHERE id = ${ctx.actor.unitId}`.execute(ctx.trx);
  const photos = Array.isArray(check.photos) ? check.photos.slice(0, 3) : [];
  const problem = `【双随机抽查·${text(check.planTitle)}】${text(check.findings)}`.slice(0, 1000);
  const orderId = await ctx.insert(SUPERVISION, {
    category: 'check',
    targetCreditCode: check.creditCode,
    checkDate: dateOf(check.checkDate) || todayIn(),
    dangerLevel: 'general',
    problem,
    requirement,
    deadline,
    noticeFile: photos.length ? photos : null,
    issuingAuthority: rows[0]?.orgname ?? null,
    inspector: text(check.inspectors).slice(0, 50) || ctx.actor.userName,
    inspectorPhone: rows[0]?.contact_phone ?? null,
  });
  // Issued at once, as the authority's 下发 (commit) would: the order becomes the unit's.
  const orders = ctx.resource(SUPERVISION);
  const order = (await ctx.find(SUPERVISION, orderId, true))!;
  const issued = await supervisionIssue({ ...ctx, model: orders, row: order, before: order, action: 'commit', input: {} });
  await sql`UPDATE ${sql.table(orders.table)} SET status = 'issued' WHERE id = ${orderId}`.execute(ctx.trx);
  await ctx.update(SUPERVISION, orderId, { issueDate: (issued as { issueDate?: string } | void)?.issueDate ?? todayIn() });
  await writeFlowLog(ctx.trx, ctx.actor, {
    resource: SUPERVISION,
    recordId: orderId,
    action: 'commit',
    from: 'draft',
    to: 'issued',
    opinion: `检查计划现场检查责令整改（${text(check.unitName)}）`,
  });
  const saved = (await ctx.find(SUPERVISION, orderId))!;
  return { orderId, orderNo: saved.orderNo ?? null };
};
