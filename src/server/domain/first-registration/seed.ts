/**
 * Demo first registrations of both using units: 宁波甬江 (nbadmin) a draft, one waiting for the
 * authority, one approved (its equipment in the registry, 未登记) and one returned with an opinion;
 * 北仑港城 (bladmin) one waiting and one approved.
 */
import { addToDate } from '../../../shared/dates';
import { DEMO_CONTACT, demoForm, type DemoContext } from '../../db/demo/context';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Actor } from '../../resources/scope';
import { FIRST_REGISTRATION } from './hooks';

type Target = 'draft' | 'submitted' | 'approved' | 'returned';

interface Plan {
  target: Target;
  equclacode: string;
  subCategory: string;
  equipmentName: string;
  equipmentModel: string;
  manufacturer: string;
  manufacturerLicenceNo: string;
  opinion?: string;
}

const UNIT_PLANS: Plan[] = [
  {
    target: 'draft',
    equclacode: '3000',
    subCategory: '3100',
    equipmentName: '曳引驱动乘客电梯',
    equipmentModel: 'KONE MonoSpace 500',
    manufacturer: '通力电梯有限公司',
    manufacturerLicenceNo: 'TS3132016-2028',
  },
  {
    target: 'submitted',
    equclacode: '2000',
    subCategory: '2100',
    equipmentName: '储气罐',
    equipmentModel: 'C-2.0/1.0',
    manufacturer: '浙江鸿盛压力容器有限公司',
    manufacturerLicenceNo: 'TS2233110-2027',
  },
  {
    target: 'approved',
    equclacode: '4000',
    subCategory: '4100',
    equipmentName: '电动单梁桥式起重机',
    equipmentModel: 'LD10-22.5',
    manufacturer: '河南卫华重型机械股份有限公司',
    manufacturerLicenceNo: 'TS2441007-2029',
    opinion: '材料齐全，准予首次登记',
  },
  {
    target: 'returned',
    equclacode: '1000',
    subCategory: '1100',
    equipmentName: '燃气蒸汽锅炉',
    equipmentModel: 'WNS4-1.25-Q',
    manufacturer: '浙江特富发展股份有限公司',
    manufacturerLicenceNo: 'TS2133015-2027',
    opinion: '监督检验证书与出厂编号不符，请核对后重新提交',
  },
];
const SECOND_PLANS: Plan[] = [
  {
    target: 'submitted',
    equclacode: '5000',
    subCategory: '5100',
    equipmentName: '内燃平衡重式叉车',
    equipmentModel: 'CPCD30',
    manufacturer: '杭叉集团股份有限公司',
    manufacturerLicenceNo: 'TS2533001-2028',
  },
  {
    target: 'approved',
    equclacode: '4000',
    subCategory: '4200',
    equipmentName: '通用门式起重机',
    equipmentModel: 'MH10-20',
    manufacturer: '浙江甬申起重设备工程有限公司',
    manufacturerLicenceNo: 'TS2433087-2028',
    opinion: '准予首次登记',
  },
];

async function file(demo: DemoContext, unit: Actor, plans: Plan[], prefix: string, site: string, contact: Record<string, string>): Promise<number> {
  const { db, authority, today } = demo;
  const applications = demo.resource(FIRST_REGISTRATION);
  for (const [i, plan] of plans.entries()) {
    const { target, opinion, ...equipment } = plan;
    const saved = await saveRecord(db, applications, unit, {
      ...equipment,
      factoryNo: `${prefix}${today.slice(0, 4)}${String(i + 1).padStart(4, '0')}`,
      manufactureDate: addToDate(today, -(2 + i), 'm'),
      installer: '宁波迅达电梯安装工程有限公司',
      locationArea: unit.areaCode,
      address: `${site}${i + 1}号车间`,
      ...contact,
      productCert: demoForm('产品合格证.pdf'),
      supervisionCert: demoForm('监督检验证书.pdf'),
      isCommit: target !== 'draft',
    });
    const id = saved.id as string;
    if (target === 'approved') await runAction(db, applications, authority, 'audit-agree', id, { opinion });
    if (target === 'returned') await runAction(db, applications, authority, 'audit-disagree', id, { opinion });
  }
  return plans.length;
}

export async function seedFirstRegistrations(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入首次登记申请…');
  const made =
    (await file(demo, demo.unit, UNIT_PLANS, 'SCNB', '宁波市鄞州区天童南路588号', DEMO_CONTACT)) +
    (await file(demo, demo.secondUnit, SECOND_PLANS, 'SCBL', '宁波市北仑区明州路88号', { contactPerson: '周敏', contactMobile: '13905740002' }));
  return { firstRegistrations: made };
}
