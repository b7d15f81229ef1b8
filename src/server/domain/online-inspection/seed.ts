/**
 * Demo online inspection applications in every state of their workflow, on the demo equipment
 * (equipment/seed.ts, in-use pieces 10–28): one more 待缴费 with the unit's 缴费凭证 uploaded, so the
 * authority's 报检待确认缴费 queue is not empty.
 */
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { addToDate } from '../../../shared/dates';
import { runAction, type ActionInput } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT } from '../equipment/seed';
import { ONLINE_APPLY } from './hooks';

export async function seedOnlineApplications(demo: DemoContext): Promise<Record<string, number>> {
  const { db, unit, authority, today } = demo;
  demo.progress('写入在线报检申请（各状态）…');
  const online = demo.resource(ONLINE_APPLY);
  const due = (demo.rows.get(EQUIPMENT) ?? []).filter((e) => e.useStatus === '1' && e.registrationCode).slice(10, 28);
  const onlinePlans = ['draft', 'submitted', 'accepted', 'unpaid', 'paid', 'inspected', 'revoked', 'returned', 'certified'] as const;
  let applied = 0;
  for (const [i, target] of onlinePlans.entries()) {
    const pair = due.slice(i * 2, i * 2 + 2);
    if (pair.length === 0) break;
    const application = await saveRecord(db, online, unit, {
      applicant: DEMO_UNITS.using.orgname,
      ...DEMO_CONTACT,
      expectedDate: addToDate(today, 14, 'd'),
      inspectionAddress: String(pair[0].address),
      reliefPolicy: i % 3 === 0 ? 'small-micro' : null,
      items: pair.map((e) => ({ equipment: e.id })),
      isCommit: target !== 'draft',
    });
    const id = application.id as string;
    const steps: [Actor, string, ActionInput][] = [];
    if (target === 'revoked') steps.push([unit, 'revoke', {}]);
    if (target === 'returned') steps.push([authority, 'audit-disagree', { opinion: '设备清单与报检地点不一致，请核对后重新提交' }]);
    if (['accepted', 'unpaid', 'paid', 'inspected', 'certified'].includes(target)) steps.push([authority, 'accept', { opinion: '予以受理' }]);
    if (['unpaid', 'paid', 'inspected', 'certified'].includes(target)) steps.push([authority, 'bill', {}]);
    // certified: paid offline, the certificate uploaded, waiting for the authority to confirm it.
    if (['paid', 'inspected', 'certified'].includes(target)) steps.push([unit, 'update-pay-cert', { extra: { payCertificate: demoForm('银行转账回单.pdf') } }]);
    if (target === 'paid' || target === 'inspected') steps.push([authority, 'confirm-payment', {}]);
    if (target === 'inspected') {
      steps.push([
        authority,
        'inspect',
        {
          opinion: '检验合格',
          extra: {
            conclusion: '1',
            inspectionDate: addToDate(today, -3, 'd'),
            inspectionBody: '宁波市特种设备检验研究院',
            report: demoForm('定期检验报告.pdf'),
          },
        },
      ]);
    }
    for (const [actor, action, input] of steps) await runAction(db, online, actor, action, id, input);
    applied++;
  }
  return { onlineApplications: applied };
}
