/**
 * Demo supervision orders: the authority (jgadmin) has issued 整改通知, 责令改正指令书 and the
 * hidden dangers of its checks to both using units, in every state — waiting with a deadline ahead,
 * due within the week (orange), overdue (red), answered and waiting for verification, returned with
 * an opinion, closed — plus a draft of its own and a withdrawn one. Written through the engine as
 * the authority and the units (the hooks check the unit's area and hand the order over on issue);
 * older orders carry their past issue date (a trusted insert, as an import of the old system's
 * would), so their deadlines can lie in the past.
 */
import { addToDate } from '../../../shared/dates';
import { demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { runAction } from '../../resources/record-actions';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { insertRecord } from '../../resources/writer';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT } from '../equipment/seed';
import { SUPERVISION } from './hooks';

type Target = 'draft' | 'issued' | 'submitted' | 'returned' | 'closed' | 'cancelled';

interface Plan {
  category: 'correct' | 'demand' | 'check';
  target: Target;
  /** Days from today: when it was issued, and its deadline. */
  issued: number;
  deadline: number;
  /** Whether it concerns a piece of the unit's equipment (else the unit as a whole). */
  onEquipment: boolean;
  problem: string;
  requirement: string;
  basis?: string;
  level?: 'general' | 'major';
  opinion?: string;
}

const SAFETY_LAW = '《中华人民共和国特种设备安全法》';

const FIRST: Plan[] = [
  {
    category: 'correct',
    target: 'issued',
    issued: -3,
    deadline: 20,
    onEquipment: true,
    problem: '电梯轿厢应急照明失效，五方通话装置无法接通值班室',
    requirement: '修复应急照明和五方通话装置，并由维保单位出具维修记录',
  },
  {
    category: 'correct',
    target: 'issued',
    issued: -12,
    deadline: 4,
    onEquipment: false,
    problem: '未按规定配备特种设备安全管理员，安全管理制度未更新',
    requirement: '配备持证安全管理员，修订安全管理制度并报送',
  },
  {
    category: 'correct',
    target: 'issued',
    issued: -40,
    deadline: -6,
    onEquipment: true,
    problem: '起重机限位器失灵，吊钩防脱装置缺失',
    requirement: '停止使用该起重机，修复限位器、加装防脱装置后申报检验',
  },
  {
    category: 'correct',
    target: 'submitted',
    issued: -20,
    deadline: 10,
    onEquipment: true,
    problem: '锅炉水位表玻璃管破损，安全阀超期未校验',
    requirement: '更换水位表，安全阀送检校验',
  },
  {
    category: 'correct',
    target: 'returned',
    issued: -25,
    deadline: 6,
    onEquipment: false,
    problem: '特种设备安全技术档案不完整，缺少定期检验报告',
    requirement: '补齐全部在用设备的安全技术档案',
    opinion: '反馈材料中缺少3台压力容器的定期检验报告，请补充后重新反馈',
  },
  {
    category: 'correct',
    target: 'closed',
    issued: -60,
    deadline: -30,
    onEquipment: true,
    problem: '叉车制动性能不良，喇叭损坏',
    requirement: '维修制动系统和喇叭，经自检合格后方可使用',
    opinion: '整改到位，予以销号',
  },
  {
    category: 'demand',
    target: 'issued',
    issued: -8,
    deadline: 5,
    onEquipment: true,
    problem: '使用未经定期检验的压力容器',
    requirement: '立即停止使用该压力容器，申报定期检验，检验合格后方可使用',
    basis: `${SAFETY_LAW}第四十条`,
  },
  {
    category: 'demand',
    target: 'issued',
    issued: -45,
    deadline: -3,
    onEquipment: false,
    problem: '特种设备作业人员未取得相应资格即上岗作业',
    requirement: '责令立即停止无证人员作业，组织取证培训',
    basis: `${SAFETY_LAW}第十四条`,
  },
  {
    category: 'demand',
    target: 'submitted',
    issued: -18,
    deadline: 12,
    onEquipment: true,
    problem: '电梯未办理使用登记即投入使用',
    requirement: '停止使用并办理使用登记',
    basis: `${SAFETY_LAW}第三十三条`,
  },
  {
    category: 'demand',
    target: 'closed',
    issued: -90,
    deadline: -60,
    onEquipment: false,
    problem: '未制定特种设备事故应急专项预案',
    requirement: '制定应急专项预案并组织演练',
    basis: `${SAFETY_LAW}第六十九条`,
    opinion: '已制定预案并完成演练，予以销号',
  },
  {
    category: 'check',
    target: 'issued',
    issued: -2,
    deadline: 15,
    onEquipment: true,
    problem: '压力管道支吊架锈蚀严重，部分失效',
    requirement: '更换失效支吊架，对锈蚀部位除锈防腐',
    level: 'major',
  },
  {
    category: 'check',
    target: 'issued',
    issued: -30,
    deadline: -2,
    onEquipment: true,
    problem: '电梯机房未设置通风降温设施，机房温度超过40℃',
    requirement: '加装通风或空调设施',
    level: 'general',
  },
  {
    category: 'check',
    target: 'issued',
    issued: -10,
    deadline: 2,
    onEquipment: false,
    problem: '特种设备日常巡检记录缺失',
    requirement: '建立并落实日常巡检记录制度',
    level: 'general',
  },
  {
    category: 'check',
    target: 'submitted',
    issued: -15,
    deadline: 8,
    onEquipment: true,
    problem: '起重机钢丝绳断丝超标',
    requirement: '更换钢丝绳',
    level: 'major',
  },
  {
    category: 'check',
    target: 'closed',
    issued: -50,
    deadline: -20,
    onEquipment: true,
    problem: '锅炉房未张贴安全操作规程',
    requirement: '张贴安全操作规程及岗位责任制',
    level: 'general',
    opinion: '现场核查已整改',
  },
  {
    category: 'correct',
    target: 'draft',
    issued: 0,
    deadline: 30,
    onEquipment: false,
    problem: '电梯维保合同已过期未续签',
    requirement: '续签维保合同并报送复印件',
  },
  {
    category: 'correct',
    target: 'cancelled',
    issued: -5,
    deadline: 25,
    onEquipment: false,
    problem: '疑似未登记使用的锅炉一台',
    requirement: '说明情况并提供使用登记证',
    opinion: '经核实该锅炉已登记，文书撤销',
  },
];

const SECOND: Plan[] = [
  {
    category: 'correct',
    target: 'issued',
    issued: -6,
    deadline: 3,
    onEquipment: true,
    problem: '门座起重机防风锚定装置损坏',
    requirement: '修复防风锚定装置，台风季前完成',
  },
  {
    category: 'demand',
    target: 'submitted',
    issued: -20,
    deadline: 10,
    onEquipment: true,
    problem: '超期未检的起重机继续使用',
    requirement: '停止使用，申报定期检验',
    basis: `${SAFETY_LAW}第四十条`,
  },
  {
    category: 'check',
    target: 'issued',
    issued: -35,
    deadline: -4,
    onEquipment: true,
    problem: '轮胎起重机力矩限制器失效',
    requirement: '修复力矩限制器并经检验合格',
    level: 'major',
  },
  {
    category: 'check',
    target: 'closed',
    issued: -40,
    deadline: -15,
    onEquipment: false,
    problem: '作业人员持证上岗公示缺失',
    requirement: '公示作业人员持证情况',
    level: 'general',
    opinion: '已整改',
  },
];

const REPLIES: Record<Plan['category'], string> = {
  correct: '已按整改要求完成整改，相关记录和照片见附件',
  demand: '已停止违法行为并完成整改，整改材料见附件',
  check: '隐患已消除，整改前后照片见附件',
};

async function issueOrders(demo: DemoContext, unit: Actor, orgcode: string, equipment: Row[], plans: Plan[]): Promise<number> {
  const { db, authority, today } = demo;
  const orders = demo.resource(SUPERVISION);
  const pieces = equipment.filter((e) => typeof e.equcode === 'string' && e.equcode !== '');
  let made = 0;
  for (const [i, plan] of plans.entries()) {
    const piece = plan.onEquipment ? pieces[(i * 7) % Math.max(pieces.length, 1)] : undefined;
    const issueDate = addToDate(today, plan.issued, 'd');
    const id = await insertRecord(
      db,
      orders,
      authority,
      {
        category: plan.category,
        targetCreditCode: orgcode,
        equcode: piece?.equcode ?? null,
        checkDate: plan.category === 'check' ? addToDate(issueDate, -1, 'd') : null,
        dangerLevel: plan.category === 'check' ? (plan.level ?? 'general') : null,
        problem: plan.problem,
        basis: plan.basis ?? null,
        requirement: plan.requirement,
        deadline: addToDate(today, plan.deadline, 'd'),
        inspector: '陈静',
        inspectorPhone: '0574-89182000',
        issueDate: plan.target === 'draft' ? null : issueDate,
        noticeFile: demoForm(plan.category === 'demand' ? '责令改正指令书.pdf' : plan.category === 'check' ? '监督检查记录.pdf' : '整改通知书.pdf'),
      },
      { trusted: true },
    );
    made++;
    if (plan.target === 'draft') continue;
    await runAction(db, orders, authority, 'commit', id, {});
    if (plan.target === 'cancelled') {
      await runAction(db, orders, authority, 'cancel', id, { opinion: plan.opinion });
      continue;
    }
    if (plan.target === 'issued') continue;
    // Finished halfway to the deadline, or today when that is still ahead.
    const halfway = addToDate(issueDate, Math.max(1, Math.floor((plan.deadline - plan.issued) / 2)), 'd');
    const reply = { rectifyMeasures: REPLIES[plan.category], rectifyFinishDate: halfway < today ? halfway : today, evidence: demoForm('整改照片.jpg') };
    await runAction(db, orders, unit, 'reply', id, { extra: reply });
    if (plan.target === 'closed') await runAction(db, orders, authority, 'accept', id, { opinion: plan.opinion });
    if (plan.target === 'returned') await runAction(db, orders, authority, 'audit-disagree', id, { opinion: plan.opinion });
  }
  return made;
}

export async function seedSupervisionOrders(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入监督整改文书…');
  const first = await issueOrders(demo, demo.unit, DEMO_UNITS.using.orgcode, demo.rows.get(EQUIPMENT) ?? [], FIRST);
  const second = await issueOrders(demo, demo.secondUnit, DEMO_UNITS.second.orgcode, demo.rows.get(SECOND_UNIT_EQUIPMENT) ?? [], SECOND);
  return { supervisionOrders: first + second };
}
