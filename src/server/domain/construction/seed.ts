/**
 * Demo construction notices of both using units: a draft, a submitted one, an accepted one (start
 * ahead, so it can still be cancelled), one returned with the authority's opinion, and an
 * alteration of registered equipment; the second unit (bladmin) a submitted and an accepted one.
 */
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { makeUscc } from '../../db/uscc';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { EQUIPMENT, SECOND_UNIT_EQUIPMENT } from '../equipment/seed';
import { CONSTRUCTION } from './hooks';

/** Licensed installers of the demo (their licences valid for years). */
const INSTALLERS = [
  {
    installerName: '宁波迅达电梯安装工程有限公司',
    installerCreditCode: makeUscc('91', '330203', 'MA2AH3K1'),
    licenceNo: 'TS3133101-2029',
    licenceLevel: 'A级',
  },
  {
    installerName: '浙江甬申起重设备工程有限公司',
    installerCreditCode: makeUscc('91', '330206', 'MA2BX7P4'),
    licenceNo: 'TS3433087-2028',
    licenceLevel: 'B级',
  },
  { installerName: '宁波明州锅炉安装有限公司', installerCreditCode: makeUscc('91', '330212', 'MA2C05M9'), licenceNo: 'TS3333215-2030', licenceLevel: '2级' },
];

type Plan = { target: 'draft' | 'submitted' | 'accepted' | 'returned'; type: 'install' | 'alter' | 'repair'; installer: number; opinion?: string };

const UNIT_PLANS: Plan[] = [
  { target: 'draft', type: 'install', installer: 0 },
  { target: 'submitted', type: 'install', installer: 0 },
  { target: 'accepted', type: 'install', installer: 2, opinion: '告知材料齐全，予以受理，请按方案施工并申报监督检验' },
  { target: 'returned', type: 'alter', installer: 1, opinion: '施工方案未加盖施工单位公章，请补正后重新提交' },
  { target: 'accepted', type: 'repair', installer: 1, opinion: '予以受理' },
];
const SECOND_PLANS: Plan[] = [
  { target: 'submitted', type: 'repair', installer: 1 },
  { target: 'accepted', type: 'install', installer: 1, opinion: '予以受理' },
];

const NEW_EQUIPMENT = [
  { equclacode: '3000', subCategory: '3100', equipmentName: '曳引驱动乘客电梯', manufacturer: '通力电梯有限公司' },
  { equclacode: '4000', subCategory: '4100', equipmentName: '通用桥式起重机', manufacturer: '河南卫华重型机械股份有限公司' },
  { equclacode: '1000', subCategory: '1100', equipmentName: '燃气蒸汽锅炉', manufacturer: '浙江特富发展股份有限公司' },
];

async function fileNotices(demo: DemoContext, unit: Actor, equipment: Row[], plans: Plan[], prefix: string, offset: number): Promise<number> {
  const { db, authority, today } = demo;
  const notices = demo.resource(CONSTRUCTION);
  let made = 0;
  for (const [i, plan] of plans.entries()) {
    const piece = equipment[offset + i];
    if (plan.type !== 'install' && !piece) continue;
    const fresh = NEW_EQUIPMENT[(offset + i) % NEW_EQUIPMENT.length];
    const subject = plan.type === 'install' ? { ...fresh, factoryNo: `${prefix}${String(2026000 + offset + i)}` } : { equipment: piece.id };
    const start = addToDate(today, 10 + i * 5, 'd');
    const notice = await saveRecord(db, notices, unit, {
      constructionType: plan.type,
      ...INSTALLERS[plan.installer],
      licenceExpiry: addToDate(today, 2 + plan.installer, 'y'),
      ...subject,
      planStartDate: start,
      planEndDate: addToDate(start, 30, 'd'),
      siteArea: plan.type === 'install' ? unit.areaCode : String(piece.locationArea ?? unit.areaCode),
      siteAddress:
        plan.type === 'install' ? `${prefix === 'NB' ? '宁波市鄞州区天童南路588号' : '宁波市北仑区明州路88号'}${i + 1}号车间` : String(piece.address ?? ''),
      ...(unit === demo.unit ? DEMO_CONTACT : { contactPerson: '周敏', contactMobile: '13905740002' }),
      remarks: plan.type === 'install' ? '新装设备，施工前告知' : plan.type === 'alter' ? '改变主要受力结构，施工前告知' : '更换主要部件，施工前告知',
      constructionPlan: demoForm('施工方案.pdf'),
      licenceCopy: demoForm('特种设备生产许可证.pdf'),
      isCommit: plan.target !== 'draft',
    });
    const id = notice.id as string;
    if (plan.target === 'accepted') await runAction(db, notices, authority, 'accept', id, { opinion: plan.opinion });
    if (plan.target === 'returned') await runAction(db, notices, authority, 'audit-disagree', id, { opinion: plan.opinion });
    made++;
  }
  return made;
}

export async function seedConstructionNotices(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入施工告知…');
  const own = (demo.rows.get(EQUIPMENT) ?? []).filter((e) => e.useStatus === '1');
  const second = (demo.rows.get(SECOND_UNIT_EQUIPMENT) ?? []).filter((e) => e.useStatus === '1');
  const made = (await fileNotices(demo, demo.unit, own, UNIT_PLANS, 'NB', 0)) + (await fileNotices(demo, demo.secondUnit, second, SECOND_PLANS, 'BL', 0));
  return { constructionNotices: made };
}
