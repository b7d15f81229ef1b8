/**
 * Demo records of invoices, interactions and price applications for both using units, written
 * through the resource engine as the demo users: a few more paid online inspection applications of
 * the first unit so its invoice list shows every state and still leaves a paid one to request an
 * invoice for; messages in every state (one answered and followed up, one the authority has not
 * opened); price applications in every state.
 */
import { sql } from 'kysely';
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { DEMO_UNITS } from '../../db/seed';
import { runAction, type ActionInput } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT } from '../equipment/seed';
import { acceptInput, demoInspectionBodies } from '../online-inspection/seed';
import { INTERACTION, INVOICE, PRICE_APPLY } from './hooks';

const SECOND_CONTACT = { contactPerson: '周敏', contactMobile: '13805740006' };

/** Online inspection applications of `unit` taken to 已缴费, one per piece of `pieces`. */
async function paidApplications(demo: DemoContext, unit: Actor, pieces: Row[]): Promise<number> {
  const { db, today } = demo;
  const online = demo.resource('online-apply');
  // The body serving the unit (nbjy for 鄞州) does the body's steps.
  const body = (await demoInspectionBodies(demo)).first;
  for (const piece of pieces) {
    const saved = await saveRecord(db, online, unit, {
      applicant: DEMO_UNITS.using.orgname,
      ...DEMO_CONTACT,
      expectedDate: addToDate(today, 7, 'd'),
      inspectionAddress: String(piece.address ?? ''),
      items: [{ equipment: piece.id }],
      isCommit: true,
    });
    const id = saved.id as string;
    const steps: [Actor, string, ActionInput][] = [
      [body, 'accept', acceptInput(today)],
      [body, 'bill', {}],
      [unit, 'update-pay-cert', { extra: { payCertificate: demoForm('银行转账回单.pdf') } }],
      [body, 'confirm-payment', {}],
    ];
    for (const [actor, action, input] of steps) await runAction(db, online, actor, action, id, input);
  }
  return pieces.length;
}

/** The unit's paid applications with something to pay, oldest first. */
async function paidOf(demo: DemoContext, unit: Actor): Promise<string[]> {
  const { rows } = await sql<{
    id: string;
  }>`SELECT id FROM online_apply WHERE unit_id = ${unit.unitId} AND status IN ('paid', 'inspected') AND payable_amount > 0 ORDER BY created_at, id`.execute(
    demo.db,
  );
  return rows.map((r) => r.id);
}

type InvoicePlan = { target: 'requested' | 'issued' | 'returned'; special?: boolean; opinion?: string };

async function requestInvoices(demo: DemoContext, unit: Actor, applications: string[], plans: InvoicePlan[], contact: Record<string, string>): Promise<number> {
  const { db, authority, today } = demo;
  const resource = demo.resource(INVOICE);
  let made = 0;
  for (const [i, plan] of plans.entries()) {
    const onlineApply = applications[i];
    if (!onlineApply) break;
    const special = plan.special
      ? {
          invoiceType: 'special',
          bankName: '中国工商银行宁波鄞州支行',
          bankAccount: '3901110009000123456',
          regAddress: '浙江省宁波市鄞州区天童南路588号',
          regPhone: '0574-87654321',
        }
      : { invoiceType: 'normal' };
    const saved = await saveRecord(db, resource, unit, { onlineApply, ...special, ...contact, receiveEmail: 'caiwu@example.com' });
    const id = saved.id as string;
    if (plan.target === 'issued') {
      // Issued the day it was paid (the demo applications are paid today).
      await runAction(db, resource, authority, 'issue', id, {
        extra: { invoiceNo: `2633200000${String(1000 + made).padStart(10, '0')}`, invoiceDate: today, invoiceFile: demoForm('电子发票.pdf') },
      });
    }
    if (plan.target === 'returned') await runAction(db, resource, authority, 'audit-disagree', id, { opinion: plan.opinion });
    made++;
  }
  return made;
}

type MessagePlan = { subject: string; category: string; content: string; reply?: string; followUp?: string; closed?: boolean };

const FIRST_MESSAGES: MessagePlan[] = [
  { subject: '电梯定期检验周期咨询', category: 'policy', content: '我单位住宅电梯已使用满15年，请问定期检验周期是否需要调整？按哪项规定执行？' },
  {
    subject: '使用登记证遗失如何补办',
    category: 'business',
    content: '我单位一台叉车的使用登记证遗失，请问补办需要提交哪些材料，能否网上办理？',
    reply: '可在本平台“使用登记”中提交补证申请，需上传登报遗失声明及设备铭牌照片，审核通过后领取新证。',
  },
  {
    subject: '检验费减免政策适用范围',
    category: 'policy',
    content: '请问小微企业检验费减免政策是否适用于起重机械的定期检验？',
    reply: '小微企业减免适用于全部设备种类的定期检验，报检时选择减免政策并上传证明材料即可。',
    followUp: '证明材料是否需要加盖公章？营业执照复印件可以吗？',
  },
  {
    subject: '维保单位响应不及时',
    category: 'complaint',
    content: '本单位电梯困人故障报修后，维保单位超过1小时未到场，请监管部门督促。',
    reply: '已联系该维保单位核实情况并责令整改，后续将加强日常检查。',
    closed: true,
  },
  { subject: '锅炉能效测试安排', category: 'other', content: '我单位新装燃气锅炉，请问能效测试应在投用后多久内完成？' },
];
const SECOND_MESSAGES: MessagePlan[] = [
  { subject: '门座起重机变更使用单位', category: 'business', content: '两台门座起重机拟转让给关联公司，请问变更登记是否需要重新检验？' },
  {
    subject: '作业人员证书复审',
    category: 'policy',
    content: '起重机司机证书即将到期，复审可否在线提交？',
    reply: '可在作业人员管理中提交复审申请，无需到现场办理。',
  },
];

async function leaveMessages(demo: DemoContext, unit: Actor, plans: MessagePlan[], contact: Record<string, string>): Promise<number> {
  const { db, authority } = demo;
  const resource = demo.resource(INTERACTION);
  for (const plan of plans) {
    const saved = await saveRecord(db, resource, unit, { subject: plan.subject, category: plan.category, content: plan.content, ...contact });
    const id = saved.id as string;
    if (plan.reply) await runAction(db, resource, authority, 'answer', id, { extra: { reply: plan.reply } });
    if (plan.followUp) await runAction(db, resource, unit, 'follow-up', id, { extra: { followUp: plan.followUp } });
    if (plan.closed) await runAction(db, resource, unit, 'close', id, { opinion: '问题已解决' });
  }
  return plans.length;
}

type PricePlan = { target: 'draft' | 'submitted' | 'approved' | 'returned'; title: string; serviceType: string; opinion?: string };

const FIRST_PRICES: PricePlan[] = [
  { target: 'draft', title: '2027年度叉车维护保养收费标准', serviceType: 'maintenance' },
  { target: 'submitted', title: '2027年度电梯维护保养收费标准', serviceType: 'maintenance' },
  { target: 'approved', title: '2026年度电梯维护保养收费标准', serviceType: 'maintenance', opinion: '收费标准符合本地区指导价，予以备案' },
  { target: 'returned', title: '起重机械改造修理收费标准', serviceType: 'repair', opinion: '定价依据不充分，请补充成本测算材料' },
];
const SECOND_PRICES: PricePlan[] = [{ target: 'submitted', title: '2027年度门座起重机维护保养收费标准', serviceType: 'maintenance' }];

const PRICE_ITEMS: Record<string, { itemName: string; equclacode: string; priceUnit: string; price: number }[]> = {
  maintenance: [
    { itemName: '乘客电梯半月维护保养', equclacode: '3000', priceUnit: '台·年', price: 4800 },
    { itemName: '载货电梯半月维护保养', equclacode: '3000', priceUnit: '台·年', price: 4200 },
    { itemName: '自动扶梯维护保养', equclacode: '3000', priceUnit: '台·年', price: 6000 },
  ],
  repair: [
    { itemName: '起重机制动器更换', equclacode: '4000', priceUnit: '台·次', price: 3500 },
    { itemName: '钢丝绳更换', equclacode: '4000', priceUnit: '米', price: 45 },
  ],
};

async function filePrices(demo: DemoContext, unit: Actor, plans: PricePlan[], contact: Record<string, string>): Promise<number> {
  const { db, authority, today } = demo;
  const resource = demo.resource(PRICE_APPLY);
  for (const [i, plan] of plans.entries()) {
    const saved = await saveRecord(db, resource, unit, {
      title: plan.title,
      serviceType: plan.serviceType,
      effectiveDate: addToDate(today, 30 + i * 10, 'd'),
      expireDate: addToDate(today, 30 + i * 10 + 364, 'd'),
      items: PRICE_ITEMS[plan.serviceType] ?? PRICE_ITEMS.maintenance,
      basis: '按人工、备件及交通成本测算，参照本市电梯维护保养指导价',
      attachments: demoForm('成本测算表.pdf'),
      ...contact,
      isCommit: plan.target !== 'draft',
    });
    const id = saved.id as string;
    if (plan.target === 'approved') await runAction(db, resource, authority, 'audit-agree', id, { opinion: plan.opinion });
    if (plan.target === 'returned') await runAction(db, resource, authority, 'audit-disagree', id, { opinion: plan.opinion });
  }
  return plans.length;
}

export async function seedSelfService(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入发票申请、互动留言、价格申请…');
  // Pieces the earlier seeds leave alone (online inspection takes 10–35, the self-service records 40–58).
  const usable = (demo.rows.get(EQUIPMENT) ?? []).filter((e) => e.useStatus === '1' && e.registrationCode);
  const from = Math.min(60, Math.max(0, usable.length - 3));
  const pieces = usable.slice(from, from + 3);
  const paid = await paidApplications(demo, demo.unit, pieces);
  const invoices =
    (await requestInvoices(
      demo,
      demo.unit,
      await paidOf(demo, demo.unit),
      [
        { target: 'issued' },
        { target: 'requested', special: true },
        { target: 'returned', opinion: '发票抬头与纳税人识别号不一致，请核对后重新申请' },
        { target: 'issued', special: true },
      ],
      DEMO_CONTACT,
    )) + (await requestInvoices(demo, demo.secondUnit, await paidOf(demo, demo.secondUnit), [{ target: 'requested' }], SECOND_CONTACT));
  const messages =
    (await leaveMessages(demo, demo.unit, FIRST_MESSAGES, DEMO_CONTACT)) + (await leaveMessages(demo, demo.secondUnit, SECOND_MESSAGES, SECOND_CONTACT));
  const prices = (await filePrices(demo, demo.unit, FIRST_PRICES, DEMO_CONTACT)) + (await filePrices(demo, demo.secondUnit, SECOND_PRICES, SECOND_CONTACT));
  return { paidForInvoices: paid, invoices, interactions: messages, priceApplications: prices };
}
