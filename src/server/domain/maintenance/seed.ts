/**
 * Demo maintenance contracts and records. 宁波 unit (nbadmin) has an active contract with 宁波甬安
 * (wbadmin) over four of its elevators, one committed and waiting for wbadmin's confirmation and
 * one wbadmin returned; 北仑 unit (bladmin) has an active contract with 宁波港城 (gcwb) over three
 * of its elevators. wbadmin has filed records under its active contract in every state: visits
 * confirmed by the unit (the latest next visit of one piece overdue, of another due within the
 * week), one waiting for confirmation, one returned, one draft; gcwb one confirmed visit per piece.
 * Written through the resource engine as the demo users.
 */
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoActor, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT } from '../equipment/seed';
import { MAINTENANCE_UNIT } from '../equipment/maintenance-units';
import { MAINTENANCE_CONTRACT } from './hooks';

const MAINTENANCE_RECORD = 'maintenance-record';

interface ContractPlan {
  target: 'active' | 'submitted' | 'returned';
  pieces: Row[];
  opinion?: string;
  remarks?: string;
}

/**
 * In-use elevators of a unit beyond those earlier seeds use (the first `skip`), last first; on a
 * small demo (a test's few pieces) with fewer than `need` there, any of its in-use elevators.
 */
function elevators(rows: Row[] | undefined, skip: number, need: number): Row[] {
  const inUse = (list: Row[]) => list.filter((e) => e.useStatus === '1' && String(e.equclacode ?? '').startsWith('3')).reverse();
  const apart = inUse((rows ?? []).slice(skip));
  return apart.length >= need ? apart : inUse(rows ?? []);
}

async function contract(
  demo: DemoContext,
  unit: Actor,
  maintainer: Actor,
  registry: Row,
  plan: ContractPlan,
  contact: Record<string, string>,
): Promise<Row | undefined> {
  // A contract lists at least one piece: on a demo without enough elevators it is left out.
  if (plan.pieces.length === 0) return undefined;
  const resource = demo.resource(MAINTENANCE_CONTRACT);
  const saved = await saveRecord(demo.db, resource, unit, {
    maintenanceUnitId: registry.id,
    startDate: addToDate(demo.today, -5, 'm'),
    endDate: addToDate(demo.today, 7, 'm'),
    equipments: plan.pieces.map((e) => ({ equipment: e.id })),
    contractScan: demoForm('电梯维护保养合同.pdf'),
    remarks: plan.remarks ?? null,
    ...contact,
    isCommit: true,
  });
  if (plan.target === 'active') await runAction(demo.db, resource, maintainer, 'confirm', saved.id, { opinion: plan.opinion ?? null });
  if (plan.target === 'returned') await runAction(demo.db, resource, maintainer, 'return', saved.id, { opinion: plan.opinion });
  return saved;
}

type RecordTarget = 'confirmed' | 'submitted' | 'returned' | 'draft';
interface Visit {
  piece: Row;
  /** Days from today to the visit (negative: past). */
  day: number;
  target: RecordTarget;
  findings?: string;
  opinion?: string;
}

const MAINTAINERS = ['孙建国', '周立新', '吴海'];

async function file(demo: DemoContext, contractRow: Row, maintainer: Actor, unit: Actor, confirmer: string, visits: readonly Visit[]): Promise<number> {
  const resource = demo.resource(MAINTENANCE_RECORD);
  for (const [i, visit] of visits.entries()) {
    const date = addToDate(demo.today, visit.day, 'd');
    const saved = await saveRecord(demo.db, resource, maintainer, {
      contract: contractRow.id,
      equipment: visit.piece.id,
      maintenanceDate: date,
      items: i % 2 === 0 ? ['clean', 'brake', 'safety-device', 'door'] : ['clean', 'brake', 'door'],
      findings: visit.findings ?? '运行正常，各安全装置动作可靠',
      maintainer: MAINTAINERS[i % MAINTAINERS.length],
      maintainerCertNo: `TSZ3302${String(1980010100 + i)}`,
      photos: demoForm('维保现场照片.jpg'),
      nextMaintenanceDate: addToDate(date, 15, 'd'),
      isCommit: visit.target !== 'draft',
    });
    const id = saved.id as string;
    if (visit.target === 'confirmed') await runAction(demo.db, resource, unit, 'confirm', id, { extra: { unitConfirmer: confirmer } });
    if (visit.target === 'returned') await runAction(demo.db, resource, unit, 'return', id, { opinion: visit.opinion });
  }
  return visits.length;
}

export async function seedMaintenance(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入维保合同、维保单位填报的维保记录…');
  const registry = demo.rows.get(MAINTENANCE_UNIT) ?? [];
  const first = registry.find((m) => m.accountUnitId === DEMO_UNITS.maintenance.id);
  const second = registry.find((m) => m.accountUnitId === DEMO_UNITS.maintenanceSecond.id);
  if (!first || !second) return {};
  const wbadmin = await demoActor(demo.db, 'wbadmin', 'maintenance', 'maintenance');
  const gcwb = await demoActor(demo.db, 'gcwb', 'maintenanceSecond', 'maintenance');
  // Pieces apart from the earlier seeds' (the first unit's 10–60, the second's 20–30).
  const mine = elevators(demo.rows.get(EQUIPMENT), 60, 7);
  const theirs = elevators(demo.rows.get(SECOND_UNIT_EQUIPMENT), 30, 3);
  const secondContact = { contactPerson: '周敏', contactMobile: '13805740006' };

  const plans: ContractPlan[] = [
    { target: 'active', pieces: mine.slice(0, 4), opinion: '合同内容无误，确认生效' },
    { target: 'submitted', pieces: mine.slice(4, 6), remarks: '新增两台电梯纳入维保' },
    { target: 'returned', pieces: mine.slice(6, 7), opinion: '合同扫描件缺少我方盖章页，请补充后重新提交' },
  ];
  const made: (Row | undefined)[] = [];
  for (const plan of plans) made.push(await contract(demo, demo.unit, wbadmin, first, plan, DEMO_CONTACT));
  const [active] = made;
  const secondActive = await contract(demo, demo.secondUnit, gcwb, second, { target: 'active', pieces: theirs.slice(0, 3), opinion: '确认' }, secondContact);

  const contracts = [...made, secondActive];
  const [a, b, c, d] = mine;
  const planned: Visit[] = [
    // a: the latest visit's next date within the week (orange).
    { piece: a, day: -40, target: 'confirmed' },
    { piece: a, day: -25, target: 'confirmed' },
    { piece: a, day: -10, target: 'confirmed', findings: '制动器闸瓦磨损，已调整间隙，建议下次更换' },
    // b: the latest next date passed (red, 维保超期).
    { piece: b, day: -36, target: 'confirmed' },
    { piece: b, day: -21, target: 'confirmed' },
    // c: confirmed, then one waiting for the unit.
    { piece: c, day: -16, target: 'confirmed' },
    { piece: c, day: -2, target: 'submitted', findings: '层门门锁触点氧化，已清洁' },
    // d: returned by the unit, and a new draft.
    { piece: d, day: -14, target: 'returned', opinion: '维保项目漏填限速器校验，请补充后重新提交' },
    { piece: d, day: -1, target: 'draft' },
  ];
  const visits = planned.filter((v) => v.piece);
  const secondVisits = theirs.slice(0, 3).map((piece, i) => ({ piece, day: -3 - i * 4, target: 'confirmed' as const }));
  const records =
    (active ? await file(demo, active, wbadmin, demo.unit, '张伟', visits) : 0) +
    (secondActive ? await file(demo, secondActive, gcwb, demo.secondUnit, '周敏', secondVisits) : 0);
  return { maintenanceContracts: contracts.filter(Boolean).length, contractorMaintenanceRecords: records };
}
