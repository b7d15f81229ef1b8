/**
 * Demo records of enterprise responsibility for both using units: hidden dangers (drafts, reported
 * ones — one past its deadline, one due within the week — and rectified ones, some on the unit's
 * own equipment), the safety commitment letters (last year's committed, this year's a draft), and
 * the emergency plans (versions) with their drills, and risk gradings of equipment in use (one of
 * each grade, one reassessment overdue and one due within the month).
 */
import { addToDate } from '../../../shared/dates';
import { demoForm, type DemoContext } from '../../db/demo/context';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT } from '../equipment/seed';

interface Plan {
  content: string;
  level: 'general' | 'major';
  source: string;
  foundDaysAgo: number;
  /** Days from today of the rectification deadline. */
  deadline: number;
  target: 'draft' | 'reported' | 'completed';
  measures: string;
  /** The equipment category it concerns (equipment-category), if any. */
  category?: string;
}

const PLANS: Plan[] = [
  {
    content: '电梯层门门锁触点接触不良，偶发开门运行',
    level: 'major',
    source: 'self',
    foundDaysAgo: 20,
    deadline: -5,
    target: 'reported',
    measures: '立即停梯，由维保单位更换门锁触点并检测',
    category: '3000',
  },
  {
    content: '锅炉安全阀校验已过有效期',
    level: 'general',
    source: 'inspection',
    foundDaysAgo: 10,
    deadline: 4,
    target: 'reported',
    measures: '联系检验机构校验安全阀，校验前降压运行',
    category: '1000',
  },
  {
    content: '叉车制动距离超标',
    level: 'general',
    source: 'self',
    foundDaysAgo: 40,
    deadline: -10,
    target: 'completed',
    measures: '更换制动片并调整制动器',
    category: '5000',
  },
  {
    content: '起重机钢丝绳断丝超过报废标准',
    level: 'major',
    source: 'supervision',
    foundDaysAgo: 60,
    deadline: -30,
    target: 'completed',
    measures: '更换同规格钢丝绳，作业前加强检查',
    category: '4000',
  },
  { content: '压力容器安全附件铅封缺失', level: 'general', source: 'self', foundDaysAgo: 3, deadline: 14, target: 'draft', measures: '' },
  { content: '气瓶间通风设施损坏', level: 'general', source: 'report', foundDaysAgo: 1, deadline: 10, target: 'draft', measures: '' },
];

async function seedUnit(demo: DemoContext, unit: Actor, equipment: readonly Row[]): Promise<number> {
  const { db, today } = demo;
  const dangers = demo.resource('hidden-danger');
  for (const plan of PLANS) {
    const piece = plan.category ? equipment.find((e) => e.equclacode === plan.category) : undefined;
    const foundDate = addToDate(today, -plan.foundDaysAgo, 'd');
    const row = await saveRecord(db, dangers, unit, {
      content: plan.content,
      level: plan.level,
      source: plan.source,
      foundDate,
      ...(piece ? { equipment: piece.id, equcode: piece.equcode, equipmentName: piece.equipmentName } : {}),
      measures: plan.measures || null,
      rectifyDeadline: addToDate(today, plan.deadline, 'd'),
    });
    if (plan.target === 'draft') continue;
    await runAction(db, dangers, unit, 'commit', row.id, {});
    if (plan.target === 'completed') {
      await runAction(db, dangers, unit, 'complete', row.id, {
        extra: { completedDate: addToDate(foundDate, 7, 'd'), rectifyResult: `已按整改措施完成：${plan.measures}，复查合格` },
      });
    }
  }
  return PLANS.length;
}

/** Last year's letter signed and committed; this year's filled in, waiting for the signed scan. */
async function seedCommitments(demo: DemoContext, unit: Actor, principal: string): Promise<number> {
  const { db, today } = demo;
  const letters = demo.resource('safety-commitment');
  const year = Number(today.slice(0, 4));
  const last = await saveRecord(db, letters, unit, {
    year: year - 1,
    principal,
    signDate: `${year - 1}-01-15`,
    scan: demoForm(`${year - 1}年度安全承诺书（盖章）.pdf`),
  });
  await runAction(db, letters, unit, 'commit', last.id, {});
  await saveRecord(db, letters, unit, { year, principal });
  return 2;
}

/** Score sheets (age, inspection, hazards, environment, management, population), graded by the server. */
const SCORE_SHEETS: [scores: number[], assessedDaysAgo: number, nextInDays: number, measures?: string][] = [
  [[18, 15, 10, 10, 8, 9], 200, -12, '每日专人巡检，缩短维保周期，制定专项应急预案并每季度演练'],
  [[12, 12, 6, 8, 5, 2], 150, 20, '加强日常检查，安排检验机构提前检验'],
  [[8, 5, 3, 6, 4, 8], 90, 275],
  [[15, 18, 13, 6, 7, 4], 60, 120, '立即停用整改，复检合格后方可使用'],
  [[2, 0, 0, 3, 2, 1], 30, 335],
  [[6, 5, 3, 4, 3, 2], 10, 355],
];

async function seedRiskAssessments(demo: DemoContext, unit: Actor, equipment: readonly Row[]): Promise<number> {
  const { db, today } = demo;
  const assessments = demo.resource('risk-assessment');
  const pieces = equipment.filter((e) => e.useStatus === '1').slice(0, SCORE_SHEETS.length);
  for (const [i, piece] of pieces.entries()) {
    const [[ageScore, inspectionScore, hazardScore, environmentScore, managementScore, populationScore], ago, next, measures] = SCORE_SHEETS[i];
    const assessDate = addToDate(today, -ago, 'd');
    await saveRecord(db, assessments, unit, {
      equipment: piece.id,
      equcode: piece.equcode,
      equipmentName: piece.equipmentName,
      equclacode: piece.equclacode,
      assessDate,
      ageScore,
      inspectionScore,
      hazardScore,
      environmentScore,
      managementScore,
      populationScore,
      measures: measures ?? null,
      nextAssessDate: addToDate(today, next, 'd'),
    });
  }
  return pieces.length;
}

export async function seedResponsibility(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入事故隐患…');
  const first = await seedUnit(demo, demo.unit, demo.rows.get(EQUIPMENT) ?? []);
  const second = await seedUnit(demo, demo.secondUnit, demo.rows.get(SECOND_UNIT_EQUIPMENT) ?? []);
  const letters = (await seedCommitments(demo, demo.unit, '陈国华')) + (await seedCommitments(demo, demo.secondUnit, '周建平'));
  const plansFirst = await seedPlans(demo, demo.unit);
  const plansSecond = await seedPlans(demo, demo.secondUnit);
  demo.progress('写入设备风险分级…');
  const risks =
    (await seedRiskAssessments(demo, demo.unit, demo.rows.get(EQUIPMENT) ?? [])) +
    (await seedRiskAssessments(demo, demo.secondUnit, demo.rows.get(SECOND_UNIT_EQUIPMENT) ?? []));
  return {
    hiddenDangers: first + second,
    safetyCommitments: letters,
    emergencyPlans: plansFirst.plans + plansSecond.plans,
    drills: plansFirst.drills + plansSecond.drills,
    riskAssessments: risks,
  };
}

/** A plan in its second version (the first retired), a new draft, and drills of the current plans. */
export async function seedPlans(demo: DemoContext, unit: Actor): Promise<{ plans: number; drills: number }> {
  const { db, today } = demo;
  const plans = demo.resource('emergency-plan');
  const drills = demo.resource('emergency-drill');
  const publish = async (fields: Record<string, unknown>) => {
    const row = await saveRecord(db, plans, unit, { ...fields, document: demoForm(`${String(fields.planName)}${String(fields.planVersion)}.pdf`) });
    await runAction(db, plans, unit, 'commit', row.id, {});
    return row;
  };
  const old = await publish({
    planName: '特种设备事故综合应急预案',
    planType: 'general',
    planVersion: 'V1.0',
    issueDate: addToDate(today, -4, 'y'),
    reviewDate: addToDate(today, -1, 'y'),
    summary: '事故分级、应急组织、响应程序、保障措施',
  });
  await runAction(db, plans, unit, 'retire', old.id, {});
  const general = await publish({
    planName: '特种设备事故综合应急预案',
    planType: 'general',
    planVersion: 'V2.0',
    issueDate: addToDate(today, -1, 'y'),
    reviewDate: addToDate(today, 20, 'd'),
    summary: '按新版法规修订：增加信息报告时限和舆情应对',
  });
  const elevator = await publish({
    planName: '电梯困人现场处置方案',
    planType: 'onsite',
    equclacode: '3000',
    planVersion: 'V1.0',
    issueDate: addToDate(today, -200, 'd'),
    reviewDate: addToDate(today, 2 * 365, 'd'),
    summary: '困人安抚、盘车放人、通知维保单位',
  });
  await saveRecord(db, plans, unit, { planName: '锅炉爆管专项应急预案', planType: 'special', equclacode: '1000', planVersion: 'V1.0', summary: '编制中' });
  const drillPlans: [Record<string, unknown>, string, number, string][] = [
    [general, '厂区主干道及仓储区', 45, '起重机吊物坠落、人员受伤的综合应急响应'],
    [elevator, '办公楼1号电梯', 12, '电梯停电困人，维保人员30分钟内到场盘车放人'],
    [elevator, '宿舍楼2号电梯', 10, '电梯故障困人，夜间值班人员处置'],
  ];
  for (const [i, [plan, location, participants, scenario]] of drillPlans.entries()) {
    await saveRecord(db, drills, unit, {
      plan: plan.id,
      planName: plan.planName,
      drillDate: addToDate(today, -(30 + i * 60), 'd'),
      location,
      participants,
      scenario,
      evaluation: '响应及时、分工明确；通讯联络环节需加强，已补充应急通讯录。',
    });
  }
  return { plans: 4, drills: drillPlans.length };
}
