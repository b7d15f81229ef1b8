/**
 * Demo notices of the authority (jgadmin): five published (one pinned), one withdrawn, one draft;
 * the demo units have read none of them, so the home desk shows them as unread. And each using
 * unit's own notices (单位通知, resource demo-notice) in every state of their workflow.
 */
import { addToDate } from '../../../shared/dates';
import type { DemoContext } from '../../db/demo/context';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Actor } from '../../resources/scope';

export const NOTICE = 'notice-article';
export const UNIT_NOTICE = 'demo-notice';

const ARTICLES: {
  title: string;
  category: string;
  pinned?: boolean;
  daysAgo: number;
  target: 'published' | 'withdrawn' | 'draft';
  summary: string;
  content: string;
}[] = [
  {
    title: '关于开展2026年度特种设备安全隐患排查整治的通知',
    category: '1',
    pinned: true,
    daysAgo: 3,
    target: 'published',
    summary: '各使用单位于本月底前完成隐患自查并在平台填报。',
    content:
      '<p>各特种设备使用单位：</p><p>为进一步落实企业安全主体责任，市局决定在全市范围内开展特种设备安全隐患排查整治。</p><h3>工作要求</h3><ol><li>对照排查清单<strong>逐台自查</strong>，建立隐患台账；</li><li>于<strong>本月底前</strong>在平台“隐患自查上报”中填报结果；</li><li>重大隐患立即停用并报告属地监管部门。</li></ol><p>宁波市市场监督管理局</p>',
  },
  {
    title: '特种设备定期检验到期提醒',
    category: '4',
    daysAgo: 10,
    target: 'published',
    summary: '请关注首页“超期未检”“30天内到期”设备，及时申报检验。',
    content:
      '<p>请各单位登录平台查看首页工作台中“超期未检”“30天内到期”的设备，在下次检验日期前一个月通过“在线报检”提出定期检验申请。</p><blockquote>超期未检的设备不得继续使用。</blockquote>',
  },
  {
    title: '《特种设备使用管理规则》修订要点解读',
    category: '3',
    daysAgo: 25,
    target: 'published',
    summary: '使用登记、变更登记与停用报废的主要变化。',
    content: '<p>本次修订主要涉及：</p><ul><li>使用登记办理时限；</li><li>变更登记的材料要求；</li><li>停用一年以上设备的报废程序。</li></ul>',
  },
  {
    title: '作业人员证书复审安排',
    category: '2',
    daysAgo: 40,
    target: 'published',
    summary: '证书有效期届满前3个月内申请复审。',
    content: '<p>持证作业人员应在证书有效期届满前<strong>3个月</strong>内提出复审申请，逾期未复审的证书自动失效。</p>',
  },
  {
    title: '平台系统升级维护公告',
    category: '2',
    daysAgo: 60,
    target: 'published',
    summary: '周六 22:00 至次日 02:00 暂停服务。',
    content: '<p>为提升服务质量，平台将于<strong>本周六 22:00 至次日 02:00</strong> 进行系统升级，期间暂停服务，请合理安排业务办理时间。</p>',
  },
  {
    title: '（已撤回）电梯维保单位名录更新',
    category: '1',
    daysAgo: 15,
    target: 'withdrawn',
    summary: '名录有误，已撤回。',
    content: '<p>名录核对中，稍后重新发布。</p>',
  },
  { title: '2027年度检验计划（草稿）', category: '1', daysAgo: 0, target: 'draft', summary: '待发布。', content: '<p>草稿内容。</p>' },
];

interface UnitNotice {
  title: string;
  category: string;
  daysAgo: number;
  /** Days the notice stays valid after its publish date. */
  validDays?: number;
  urgentReason?: string;
  target: 'draft' | 'submitted' | 'approved' | 'returned';
  opinion?: string;
  content: string;
}

const UNIT_NOTICES: UnitNotice[] = [
  {
    title: '关于开展冬季锅炉房安全专项检查的通知',
    category: '1',
    daysAgo: 12,
    validDays: 45,
    target: 'approved',
    content: '各车间：入冬前请对锅炉房安全阀、压力表、水位计逐台检查，检查记录于本月25日前交安全管理部。',
  },
  {
    title: '叉车司机持证上岗专项培训安排',
    category: '1',
    daysAgo: 5,
    validDays: 30,
    target: 'submitted',
    content: '厂内机动车辆作业人员须持证上岗。下周三 14:00 在二楼会议室开展专项培训，请各班组长通知本组司机参加。',
  },
  {
    title: '压力容器停用期间安全管理公告',
    category: '2',
    daysAgo: 20,
    target: 'returned',
    opinion: '请补充停用设备清单及停用起止日期',
    content: '停用期间的压力容器应卸压、排空并挂牌，由设备管理员每周巡查一次。',
  },
  {
    title: '电梯困人应急演练通知',
    category: '1',
    daysAgo: 0,
    validDays: 7,
    urgentReason: '本周五迎接属地监管部门检查，演练须提前完成',
    target: 'draft',
    content: '本周四 10:00 在办公楼1号电梯开展困人应急救援演练，维保单位派员参加，请物业提前张贴告示。',
  },
  {
    title: '《特种设备安全管理制度》（2026版）发布',
    category: '3',
    daysAgo: 90,
    validDays: 60,
    target: 'approved',
    content: '公司《特种设备安全管理制度》已修订发布，原制度同时废止。请各部门组织学习并签收。',
  },
];

/** One using unit's notices (its administrator files them; the authority audits the submitted ones). */
async function seedUnitNotices(demo: DemoContext, unit: Actor, notices: readonly UnitNotice[]): Promise<number> {
  const resource = demo.resource(UNIT_NOTICE);
  for (const n of notices) {
    const publishDate = addToDate(demo.today, -n.daysAgo, 'd');
    const row = await saveRecord(demo.db, resource, unit, {
      title: n.title,
      category: n.category,
      publishDate,
      ...(n.validDays ? { expireDate: addToDate(publishDate, n.validDays, 'd') } : {}),
      urgent: Boolean(n.urgentReason),
      ...(n.urgentReason ? { urgentReason: n.urgentReason } : {}),
      contactEmail: unit === demo.unit ? 'anquan@nbdemo.com.cn' : 'aqb@bldemo.com.cn',
      content: n.content,
      isCommit: n.target !== 'draft',
    });
    if (n.target === 'approved') await runAction(demo.db, resource, demo.authority, 'audit-agree', row.id, {});
    if (n.target === 'returned') await runAction(demo.db, resource, demo.authority, 'audit-disagree', row.id, { opinion: n.opinion });
  }
  return notices.length;
}

export async function seedNotices(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入通知公告…');
  const notices = demo.resource(NOTICE);
  for (const a of ARTICLES) {
    const row = await saveRecord(demo.db, notices, demo.authority, {
      title: a.title,
      category: a.category,
      pinned: a.pinned ?? false,
      publishDate: addToDate(demo.today, -a.daysAgo, 'd'),
      summary: a.summary,
      content: a.content,
    });
    if (a.target === 'draft') continue;
    await runAction(demo.db, notices, demo.authority, 'publish', row.id, {});
    if (a.target === 'withdrawn') await runAction(demo.db, notices, demo.authority, 'withdraw', row.id, {});
  }
  const unitNotices =
    (await seedUnitNotices(demo, demo.unit, UNIT_NOTICES)) +
    (await seedUnitNotices(demo, demo.secondUnit, UNIT_NOTICES.filter((n) => n.target !== 'returned').slice(0, 3)));
  return { notices: ARTICLES.length, unitNotices };
}
