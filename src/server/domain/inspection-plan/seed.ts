/**
 * Demo random inspection plans of the city authority (jgadmin): its seven officers (one off duty),
 * a finished plan whose results are public (one unit 合格, one 责令整改 with its order issued to the
 * unit), a drawn plan whose checks wait (one planned date passed), and a draft. Written through the
 * engine as the authority, so the draw, the order and the publication run as in the screens.
 */
import { sql } from 'kysely';
import { addToDate } from '../../../shared/dates';
import type { DemoContext } from '../../db/demo/context';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import { insertRecord } from '../../resources/writer';
import { CHECK, INSPECTOR, PLAN } from './hooks';

const OFFICERS = [
  { name: '陈静', certNo: '33020026001', department: '特种设备安全监察处', phone: '0574-89182001', active: true },
  { name: '林浩', certNo: '33020026002', department: '特种设备安全监察处', phone: '0574-89182002', active: true },
  { name: '王芳', certNo: '33020026003', department: '特种设备安全监察处', phone: '0574-89182003', active: true },
  { name: '赵磊', certNo: '33020026004', department: '执法稽查支队', phone: '0574-89182011', active: true },
  { name: '孙丽', certNo: '33020026005', department: '执法稽查支队', phone: '0574-89182012', active: true },
  { name: '周斌', certNo: '33020026006', department: '鄞州区市场监督管理局', phone: '0574-88102006', active: true },
  { name: '吴敏', certNo: '33020026007', department: '北仑区市场监督管理局', phone: '0574-86802007', active: false, remark: '借调中，暂不参加抽查' },
];

async function checksOf(demo: DemoContext, planId: string): Promise<Row[]> {
  const model = demo.resource(CHECK).model;
  const { rows } = await sql<{ id: string; version: number }>`
    SELECT id, version FROM ${sql.table(model.table)} WHERE ${sql.ref(model.byName.get('plan')!.column)} = ${planId}
    ORDER BY ${sql.ref(model.byName.get('drawOrder')!.column)}`.execute(demo.db);
  return rows;
}

export async function seedInspectionPlans(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入双随机检查计划…');
  const { db, authority, today } = demo;
  const inspectors = demo.resource(INSPECTOR);
  for (const officer of OFFICERS) await insertRecord(db, inspectors, authority, { remark: null, ...officer }, { trusted: true });

  const plans = demo.resource(PLAN);
  const checks = demo.resource(CHECK);
  const plan = (title: string, categories: string[], start: number, end: number, seed: string | null, unitCount = 2) =>
    insertRecord(
      db,
      plans,
      authority,
      {
        title,
        area: authority.areaCode,
        categories,
        unitCount,
        inspectorsPerCheck: 2,
        periodStart: addToDate(today, start, 'd'),
        periodEnd: addToDate(today, end, 'd'),
        seed,
        remark: null,
      },
      { trusted: true },
    );

  // Finished and published: one unit passed, one was ordered to rectify.
  const done = await plan('2026年第四季度电梯及起重机械使用单位双随机抽查', ['3000', '4000'], -40, -10, 'NB-2026Q4-0917');
  await runAction(db, plans, authority, 'draw', done, {});
  const [first, second] = await checksOf(demo, done);
  const record = async (row: Row | undefined, values: Record<string, unknown>) => {
    if (!row) return;
    await saveRecord(db, checks, authority, { id: row.id, version: row.version, ...values });
    await runAction(db, checks, authority, 'commit', row.id, {});
  };
  await record(first, {
    checkDate: addToDate(today, -30, 'd'),
    result: 'pass',
    findings: '设备使用登记、定期检验、维保记录齐全，作业人员持证上岗，未发现问题',
  });
  await record(second, {
    checkDate: addToDate(today, -20, 'd'),
    result: 'rectify',
    findings: '现场抽查发现部分设备日常巡检记录缺失，安全附件校验标签过期',
    requirement: '补齐日常巡检记录，安全附件送检校验并更换标签',
    rectifyDeadline: addToDate(today, 10, 'd'),
  });
  await runAction(db, plans, authority, 'publish', done, {});

  // Drawn, checks waiting (the first planned date has passed).
  const drawn = await plan('2026年12月压力容器及锅炉专项抽查', ['1000', '2000', '3000'], -5, 25, null);
  await runAction(db, plans, authority, 'draw', drawn, {});

  // A draft the officer is still preparing.
  await plan('2027年第一季度起重机械使用单位双随机抽查', ['4000'], 35, 90, null, 1);
  return { inspectionOfficers: OFFICERS.length, inspectionPlans: 3 };
}
