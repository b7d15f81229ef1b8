/**
 * Demo records of the self-service remainder, for both using units: applications of the three
 * kinds in every state (report-query), maintenance visits of a few pieces of equipment (weibaoDa:
 * the latest next due date overdue on one piece, due soon on another), installation supervision
 * inspections (check-install) and, for the second unit, an online inspection application taken
 * through to 已检验 so its check-online list is not empty (the first unit's comes from the online
 * inspection seed). Written through the resource engine as the demo users.
 */
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { runAction, type ActionInput } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import { insertRecord } from '../../resources/writer';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT, equipmentFieldsOf } from '../equipment/seed';
import { MAINTENANCE_UNIT } from '../equipment/maintenance-units';
import { acceptInput, demoInspectionBodies, inspectInput } from '../online-inspection/seed';
import { INSPECTION_RECORD, MAINTENANCE_RECORD, SERVICE_APPLY } from './hooks';

type Target = 'draft' | 'submitted' | 'approved' | 'returned';
interface Plan {
  type: 'fault' | 'termination' | 'maintenance';
  target: Target;
  opinion?: string;
}

const FIRST_PLANS: Plan[] = [
  { type: 'fault', target: 'draft' },
  { type: 'fault', target: 'submitted' },
  { type: 'fault', target: 'approved', opinion: '已知悉，请督促维保单位排除故障后恢复使用' },
  { type: 'termination', target: 'submitted' },
  { type: 'termination', target: 'approved', opinion: '同意停用，恢复使用前须申请定期检验' },
  { type: 'maintenance', target: 'submitted' },
  { type: 'maintenance', target: 'returned', opinion: '维保单位许可项目不含该设备类别，请更换维保单位后重新提交' },
];
const SECOND_PLANS: Plan[] = [
  { type: 'fault', target: 'submitted' },
  { type: 'termination', target: 'draft' },
  { type: 'maintenance', target: 'approved', opinion: '同意' },
];

function applicationBody(plan: Plan, piece: Row, maintainer: Row | undefined, today: string, i: number): Record<string, unknown> {
  const base = { applyType: plan.type, equipment: piece.id };
  if (plan.type === 'fault') {
    return {
      ...base,
      faultDate: addToDate(today, -(i + 2), 'd'),
      faultType: ['mechanical', 'electrical', 'trapped'][i % 3],
      faultStopped: true,
      faultDescription: ['运行中异常抖动，伴有异响', '控制柜主板报警，设备无法启动', '轿厢停在两层之间，困人约20分钟'][i % 3],
      faultHandling: '已停机并设置警示标志，通知维保单位到场处置',
    };
  }
  if (plan.type === 'termination') {
    const stop = i % 2 === 0;
    return {
      ...base,
      terminationKind: stop ? 'stop' : 'terminate',
      stopDate: addToDate(today, 7, 'd'),
      resumeDate: stop ? addToDate(today, 1, 'y') : null,
      terminationReason: stop ? '车间改造，设备停用一年' : '设备老化，不再使用',
    };
  }
  return {
    ...base,
    maintenanceUnitId: maintainer?.id,
    projectType: ['routine', 'repair', 'major-repair'][i % 3],
    planStartDate: addToDate(today, 10, 'd'),
    planEndDate: addToDate(today, 40, 'd'),
    projectContent: '按维保合同开展年度维护保养，更换磨损部件',
    attachments: demoForm('维保合同.pdf'),
  };
}

async function fileApplications(demo: DemoContext, unit: Actor, pieces: Row[], plans: Plan[], contact: Record<string, string>): Promise<number> {
  const { db, authority, today } = demo;
  const resource = demo.resource(SERVICE_APPLY);
  const maintainers = demo.rows.get(MAINTENANCE_UNIT) ?? [];
  let made = 0;
  for (const [i, plan] of plans.entries()) {
    const piece = pieces[i];
    if (!piece) break;
    const saved = await saveRecord(db, resource, unit, {
      ...applicationBody(plan, piece, maintainers[i % Math.max(maintainers.length, 1)], today, i),
      ...contact,
      isCommit: plan.target !== 'draft',
    });
    const id = saved.id as string;
    if (plan.target === 'approved') await runAction(db, resource, authority, 'audit-agree', id, { opinion: plan.opinion });
    if (plan.target === 'returned') await runAction(db, resource, authority, 'audit-disagree', id, { opinion: plan.opinion });
    made++;
  }
  return made;
}

/**
 * Three visits, a fortnight apart, of each of `pieces`, typed and registered (登记) by the unit for
 * maintenance units off the platform with a valid licence; the first piece's next visit is overdue,
 * the second's due within a week.
 */
async function recordMaintenance(demo: DemoContext, unit: Actor, pieces: Row[], confirmer: string): Promise<number> {
  const { db, today } = demo;
  const resource = demo.resource(MAINTENANCE_RECORD);
  const maintainers = (demo.rows.get(MAINTENANCE_UNIT) ?? []).filter((m) => !m.accountUnitId && String(m.expiryDate ?? '').slice(0, 10) >= today);
  if (maintainers.length === 0) return 0;
  let made = 0;
  for (const [p, piece] of pieces.entries()) {
    const lastVisit = addToDate(today, p === 0 ? -20 : p === 1 ? -11 : -3, 'd');
    const maintainer = maintainers[p % maintainers.length];
    for (let visit = 2; visit >= 0; visit--) {
      const date = addToDate(lastVisit, -15 * visit, 'd');
      const saved = await saveRecord(db, resource, unit, {
        equipment: piece.id,
        maintenanceDate: date,
        maintenanceUnitId: maintainer.id,
        items: visit === 0 ? ['clean', 'brake', 'safety-device', 'door'] : ['clean', 'brake', 'door'],
        findings: visit === 0 && p === 1 ? '制动器闸瓦磨损，已调整间隙，建议下次更换' : '运行正常',
        maintainer: ['李强', '王海波', '陈立'][p % 3],
        maintainerCertNo: `T${String(330200198001010000 + p).slice(0, 17)}`,
        signature: demoForm('维保记录单.pdf'),
        nextMaintenanceDate: addToDate(date, 15, 'd'),
      });
      await runAction(db, resource, unit, 'register', saved.id, { extra: { unitConfirmer: confirmer } });
      made++;
    }
  }
  return made;
}

/** Installation supervision inspections (监督检验) of `pieces`, one 基本符合要求. */
async function recordSupervision(demo: DemoContext, unit: Actor, pieces: Row[], prefix: string): Promise<number> {
  const { db, today } = demo;
  const resource = demo.resource(INSPECTION_RECORD);
  for (const [i, e] of pieces.entries()) {
    const date = addToDate(today, -(60 + i * 45), 'd');
    await insertRecord(
      db,
      resource,
      unit,
      {
        ...equipmentFieldsOf(e),
        inspectionType: 'supervision',
        inspectionDate: date,
        conclusion: i === 1 ? '2' : '1',
        inspectionBody: '宁波市特种设备检验研究院',
        reportNo: `${prefix}-JJ-${date.slice(0, 4)}-${String(i + 1).padStart(4, '0')}`,
        nextInspectionDate: addToDate(date, 1, 'y'),
        remarks: i === 1 ? '安装资料不全，已限期补齐' : '安装质量符合安全技术规范要求',
        report: demoForm('安装监督检验报告.pdf'),
        source: 'agency',
      },
      { trusted: true },
    );
  }
  return pieces.length;
}

/** One online inspection application of the second unit, from save to 已检验 (its inspect writes the online records). */
async function inspectOnline(demo: DemoContext, unit: Actor, pieces: Row[]): Promise<number> {
  const { db, today } = demo;
  if (pieces.length === 0) return 0;
  const online = demo.resource('online-apply');
  const application = await saveRecord(db, online, unit, {
    applicant: DEMO_UNITS.second.orgname,
    contactPerson: '周敏',
    contactMobile: '13805740006',
    expectedDate: addToDate(today, 14, 'd'),
    inspectionAddress: String(pieces[0].address ?? ''),
    items: pieces.map((e) => ({ equipment: e.id })),
    isCommit: true,
  });
  const id = application.id as string;
  // The body serving the second unit (zjjy for 北仑) does the body's steps.
  const body = (await demoInspectionBodies(demo)).second;
  const steps: [Actor, string, ActionInput][] = [
    [body, 'accept', acceptInput(today)],
    [body, 'bill', {}],
    [unit, 'update-pay-cert', { extra: { payCertificate: demoForm('银行转账回单.pdf') } }],
    [body, 'confirm-payment', {}],
    [body, 'inspect', inspectInput(addToDate(today, -5, 'd'))],
  ];
  for (const [actor, action, input] of steps) await runAction(db, online, actor, action, id, input);
  return pieces.length;
}

export async function seedServiceRecords(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入自助服务申请、维保档案、监督检验记录…');
  const inUse = (rows: Row[] | undefined) => (rows ?? []).filter((e) => e.useStatus === '1');
  const first = inUse(demo.rows.get(EQUIPMENT));
  const second = inUse(demo.rows.get(SECOND_UNIT_EQUIPMENT));
  // Pieces apart from those earlier seeds use (the online applications take 10–35 of the first unit's).
  const firstPick = first.slice(40);
  const secondPick = second.slice(20);
  const applications =
    (await fileApplications(demo, demo.unit, firstPick.slice(0, FIRST_PLANS.length), FIRST_PLANS, DEMO_CONTACT)) +
    (await fileApplications(demo, demo.secondUnit, secondPick.slice(0, SECOND_PLANS.length), SECOND_PLANS, {
      contactPerson: '周敏',
      contactMobile: '13805740006',
    }));
  const maintenanceRecords =
    (await recordMaintenance(demo, demo.unit, firstPick.slice(10, 14), '张伟')) +
    (await recordMaintenance(demo, demo.secondUnit, secondPick.slice(5, 8), '周敏'));
  const supervision =
    (await recordSupervision(demo, demo.unit, firstPick.slice(15, 18), 'NB')) + (await recordSupervision(demo, demo.secondUnit, secondPick.slice(9, 11), 'BL'));
  const online = await inspectOnline(demo, demo.secondUnit, second.filter((e) => e.registrationCode).slice(0, 2));
  return { serviceApplications: applications, maintenanceRecords, supervisionInspections: supervision, secondUnitOnlineInspections: online };
}
