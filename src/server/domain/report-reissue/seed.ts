/**
 * Demo re-issues of both using units, in every state of the workflow: the first unit's (鄞州) are
 * routed to the city's inspection institute (nbjy), the second's (北仑) to the provincial
 * institute's branch (zjjy), so both bodies' queues and both units' lists are never empty. Written
 * through the resource engine as the demo users and the bodies' accounts, so routing and the
 * hooks run as they do for people.
 */
import { sql } from 'kysely';
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoActor, demoForm, type DemoContext } from '../../db/demo/context';
import { runAction, type ActionInput } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Actor } from '../../resources/scope';
import { REPORT_REISSUE } from './hooks';

type Target = 'draft' | 'submitted' | 'accepted' | 'issued' | 'returned';

interface Plan {
  target: Target;
  kind: 'report' | 'registration' | 'other';
  reason: 'lost' | 'damaged' | 'incorrect' | 'other';
  post?: boolean;
  reasonText?: string;
  opinion?: string;
}

const FIRST_PLANS: Plan[] = [
  { target: 'draft', kind: 'report', reason: 'lost' },
  { target: 'submitted', kind: 'report', reason: 'damaged', reasonText: '办公室漏水，纸质报告浸湿无法辨认' },
  { target: 'submitted', kind: 'registration', reason: 'lost', post: true },
  { target: 'accepted', kind: 'report', reason: 'incorrect', reasonText: '报告中使用单位名称有误，应为本单位现名称', opinion: '予以受理，核实后重新出具' },
  { target: 'issued', kind: 'report', reason: 'lost', opinion: '已补发电子报告，请下载' },
  { target: 'issued', kind: 'other', reason: 'other', post: true, reasonText: '设备移装后需要纸质证书存档', opinion: '已寄出' },
  { target: 'returned', kind: 'report', reason: 'incorrect', reasonText: '设备名称有误', opinion: '请写明报告中设备名称的正确写法及依据后重新提交' },
];
const SECOND_PLANS: Plan[] = [
  { target: 'submitted', kind: 'report', reason: 'lost' },
  { target: 'accepted', kind: 'registration', reason: 'damaged', post: true, opinion: '予以受理' },
  { target: 'issued', kind: 'report', reason: 'lost', opinion: '已补发' },
  { target: 'returned', kind: 'report', reason: 'other', reasonText: '年度审计需要', opinion: '该报告尚在有效期内且原件可查，无需补发' },
];

/** Ids of the unit's inspection records with a report number, at least a month old, the latest first. */
async function recordsOf(demo: DemoContext, unit: Actor, count: number): Promise<string[]> {
  const { model } = demo.resource('inspection-record');
  const column = (name: string) => sql.ref(model.byName.get(name)!.column);
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM ${sql.table(model.table)}
    WHERE unit_id = ${unit.unitId} AND ${column('reportNo')} IS NOT NULL AND ${column('inspectionDate')} <= ${addToDate(demo.today, -30, 'd')}
    ORDER BY ${column('inspectionDate')} DESC, id LIMIT ${count}`.execute(demo.db);
  return rows.map((r) => r.id);
}

/** Dates an issued re-issue `days` days back: its flow log a step a day from then, the issue date its last step's. */
async function dateBack(demo: DemoContext, id: string, days: number): Promise<void> {
  const { model } = demo.resource(REPORT_REISSUE);
  const start = new Date(Date.now() - days * 86_400_000);
  const { rows } = await sql<{ steps: number }>`
    WITH s AS (SELECT id, row_number() OVER (ORDER BY created_at, id) - 1 AS k FROM sys_flow_log WHERE resource = ${model.name} AND record_id = ${id})
    UPDATE sys_flow_log l SET created_at = ${start.toISOString()}::timestamptz + s.k * interval '1 day' FROM s WHERE l.id = s.id
    RETURNING s.k AS steps`.execute(demo.db);
  const last = Math.max(0, ...rows.map((r) => Number(r.steps)));
  const issued = new Date(start.getTime() + last * 86_400_000);
  await sql`UPDATE ${sql.table(model.table)} SET created_at = ${start.toISOString()}, updated_at = ${issued.toISOString()},
    ${sql.ref(model.byName.get('issuedDate')!.column)} = ${addToDate(demo.today, -(days - last), 'd')} WHERE id = ${id}`.execute(demo.db);
}

async function file(demo: DemoContext, unit: Actor, body: Actor, plans: readonly Plan[], contact: typeof DEMO_CONTACT, address: string): Promise<number> {
  const resource = demo.resource(REPORT_REISSUE);
  const records = await recordsOf(demo, unit, plans.length);
  let made = 0;
  for (const [i, plan] of plans.entries()) {
    if (!records[i]) break;
    const saved = await saveRecord(demo.db, resource, unit, {
      kind: plan.kind,
      inspectionRecord: records[i],
      reason: plan.reason,
      reasonText: plan.reasonText ?? null,
      delivery: plan.post ? 'post' : 'online',
      ...(plan.post ? { postalAddress: address, recipient: contact.contactPerson, recipientPhone: contact.contactMobile } : {}),
      ...contact,
      isCommit: plan.target !== 'draft',
    });
    const steps: [string, ActionInput][] = [];
    if (plan.target === 'returned') steps.push(['return', { opinion: plan.opinion }]);
    if (plan.target === 'accepted' || plan.target === 'issued') steps.push(['accept', { opinion: plan.target === 'accepted' ? plan.opinion : '予以受理' }]);
    if (plan.target === 'issued') {
      steps.push(
        plan.post
          ? ['reissue-post', { opinion: plan.opinion, extra: { trackingNo: `SF13${String(20260000 + i * 137).padStart(10, '0')}` } }]
          : ['reissue', { opinion: plan.opinion, extra: { document: demoForm('补发检验报告.pdf') } }],
      );
    }
    for (const [action, input] of steps) await runAction(demo.db, resource, body, action, saved.id, input);
    if (plan.target === 'issued') await dateBack(demo, String(saved.id), 9 + i * 4);
    made++;
  }
  return made;
}

export async function seedReportReissues(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入检验报告及证书补发申请…');
  const cityBody = await demoActor(demo.db, 'nbjy', 'inspection', 'inspection');
  const branchBody = await demoActor(demo.db, 'zjjy', 'inspectionSecond', 'inspection');
  const made =
    (await file(demo, demo.unit, cityBody, FIRST_PLANS, DEMO_CONTACT, '宁波市鄞州区天童南路588号')) +
    (await file(demo, demo.secondUnit, branchBody, SECOND_PLANS, { contactPerson: '周敏', contactMobile: '13805740006' }, '宁波市北仑区明州路88号'));
  return { reportReissues: made };
}
