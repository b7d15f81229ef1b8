/**
 * Demo online inspection applications in every state of their workflow, on the demo equipment
 * (equipment/seed.ts, in-use pieces 10–35 of the first unit, 4–15 of the second), each routed at
 * commit to the body serving its unit: 鄞州 (nbadmin) to 宁波市特种设备检验研究院 (nbjy), 北仑
 * (bladmin) to 浙江省特种设备科学研究院宁波分院 (zjjy). The bodies do the work; a few applications are
 * dated back so they are past their due date (超时未办), one more 待缴费 has the unit's 缴费凭证
 * uploaded (报检待确认缴费), and the authority has moved one to the other body (改派) and left a
 * supervision note (督办) on a late one.
 */
import { sql } from 'kysely';
import { DEMO_CONTACT, demoActor, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { addToDate, daysBetween } from '../../../shared/dates';
import { runAction, type ActionInput } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT } from '../equipment/seed';
import { dueDateOf } from './dispatch';
import { workCalendarOf, workingDaysBefore } from './workdays';
import { ONLINE_APPLY } from './hooks';

/** The demo inspection bodies as the engine sees their sessions: nbjy serves the first unit (鄞州), zjjy the second (北仑). */
export async function demoInspectionBodies(demo: DemoContext): Promise<{ first: Actor; second: Actor }> {
  return {
    first: await demoActor(demo.db, 'nbjy', 'inspection', 'inspection'),
    second: await demoActor(demo.db, 'zjjy', 'inspectionSecond', 'inspection'),
  };
}

const INSPECTORS = ['王磊、陈静', '李强、周婷', '赵军'];

/** The body's accept: a planned date within the week and its inspectors. */
export const acceptInput = (today: string, n = 0): ActionInput => ({
  opinion: '予以受理',
  extra: { scheduledDate: addToDate(today, 3 + (n % 4), 'd'), inspectors: INSPECTORS[n % INSPECTORS.length] },
});

/** The body's result: qualified, inspected on `date`, next inspection a year on, with the report. */
export const inspectInput = (date: string): ActionInput => ({
  opinion: '检验合格',
  extra: { conclusion: '1', inspectionDate: date, nextInspectionDate: addToDate(date, 12, 'm'), report: demoForm('定期检验报告.pdf') },
});

type Target = 'draft' | 'submitted' | 'accepted' | 'unpaid' | 'paid' | 'inspected' | 'revoked' | 'returned' | 'certified';

interface Plan {
  target: Target;
  /**
   * Working days the submission is dated back (public holidays skipped, as the due date skips them):
   * past the due date when more than the SLA's working days (5 by default), due on the next working
   * day when one less.
   */
  workdaysAgo?: number;
  /** The authority moves it to the other body (改派). */
  reassign?: boolean;
  /** The authority leaves a supervision note (督办). */
  supervise?: boolean;
}

const FIRST_PLANS: Plan[] = [
  { target: 'draft' },
  { target: 'submitted' },
  { target: 'accepted' },
  { target: 'unpaid' },
  { target: 'paid' },
  { target: 'inspected' },
  { target: 'revoked' },
  { target: 'returned' },
  { target: 'certified' },
  { target: 'submitted', workdaysAgo: 8, supervise: true },
  { target: 'accepted', workdaysAgo: 7 },
  { target: 'submitted', reassign: true },
  // Due on the next working day (orange).
  { target: 'accepted', workdaysAgo: 4 },
];

const SECOND_PLANS: Plan[] = [
  { target: 'submitted' },
  { target: 'accepted', workdaysAgo: 7 },
  { target: 'certified', workdaysAgo: 9 },
  { target: 'paid' },
  { target: 'inspected' },
  { target: 'returned' },
];

async function apply(demo: DemoContext, unit: Actor, body: Actor, authority: Actor, pieces: Row[], plan: Plan, n: number, other: Actor): Promise<void> {
  const { db, today } = demo;
  const online = demo.resource(ONLINE_APPLY);
  const first = unit.unitId === DEMO_UNITS.using.id;
  const application = await saveRecord(db, online, unit, {
    applicant: first ? DEMO_UNITS.using.orgname : DEMO_UNITS.second.orgname,
    ...(first ? DEMO_CONTACT : { contactPerson: '周敏', contactMobile: '13805740006' }),
    expectedDate: addToDate(today, 14, 'd'),
    inspectionAddress: String(pieces[0].address),
    reliefPolicy: n % 3 === 0 ? 'small-micro' : null,
    items: pieces.map((e) => ({ equipment: e.id })),
    isCommit: plan.target !== 'draft',
  });
  const id = application.id as string;
  const { target } = plan;
  const steps: [Actor, string, ActionInput][] = [];
  if (target === 'revoked') steps.push([unit, 'revoke', {}]);
  if (target === 'returned') steps.push([body, 'audit-disagree', { opinion: '设备清单与报检地点不一致，请核对后重新提交' }]);
  if (['accepted', 'unpaid', 'paid', 'inspected', 'certified'].includes(target)) steps.push([body, 'accept', acceptInput(today, n)]);
  if (['unpaid', 'paid', 'inspected', 'certified'].includes(target)) steps.push([body, 'bill', {}]);
  // certified: paid offline, the certificate uploaded, waiting for the body to confirm it.
  if (['paid', 'inspected', 'certified'].includes(target)) steps.push([unit, 'update-pay-cert', { extra: { payCertificate: demoForm('银行转账回单.pdf') } }]);
  if (target === 'paid' || target === 'inspected') steps.push([body, 'confirm-payment', {}]);
  if (target === 'inspected') steps.push([body, 'inspect', inspectInput(addToDate(today, -3, 'd'))]);
  if (plan.reassign) steps.push([authority, 'reassign', { opinion: '本院近期检验任务饱和，改由分院承检', extra: { reassignTo: other.unitId } }]);
  if (plan.supervise) steps.push([authority, 'supervise', { opinion: '已超过办结期限，请尽快安排受理并告知申请单位' }]);
  for (const [actor, action, input] of steps) await runAction(db, online, actor, action, id, input);
  if (plan.workdaysAgo) {
    // Submitted earlier than today: its due date and its creation move back with it.
    const submitted = workingDaysBefore(today, plan.workdaysAgo, workCalendarOf(online.runtime.dicts));
    const daysAgo = daysBetween(submitted, today);
    await sql`UPDATE online_apply SET due_date = ${dueDateOf(submitted, online.runtime.dicts)}, created_at = created_at - make_interval(days => ${daysAgo}::int) WHERE id = ${id}`.execute(
      db,
    );
  }
}

export async function seedOnlineApplications(demo: DemoContext): Promise<Record<string, number>> {
  const { authority } = demo;
  demo.progress('写入在线报检申请（各状态，分派到检验机构）…');
  const bodies = await demoInspectionBodies(demo);
  const usable = (rows: Row[] | undefined) => (rows ?? []).filter((e) => e.useStatus === '1' && e.registrationCode);
  const firstPieces = usable(demo.rows.get(EQUIPMENT)).slice(10, 36);
  const secondPieces = usable(demo.rows.get(SECOND_UNIT_EQUIPMENT)).slice(4, 16);
  let applied = 0;
  for (const [i, plan] of FIRST_PLANS.entries()) {
    const pair = firstPieces.slice(i * 2, i * 2 + 2);
    if (pair.length === 0) break;
    await apply(demo, demo.unit, bodies.first, authority, pair, plan, i, bodies.second);
    applied++;
  }
  for (const [i, plan] of SECOND_PLANS.entries()) {
    const pair = secondPieces.slice(i * 2, i * 2 + 2);
    if (pair.length === 0) break;
    await apply(demo, demo.secondUnit, bodies.second, authority, pair, plan, i, bodies.first);
    applied++;
  }
  return { onlineApplications: applied };
}
