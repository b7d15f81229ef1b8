/**
 * Demo records of the unit's own information for both using units: the profile as first
 * registered (version 1), then changes through the real workflow — the first unit's contact and
 * staff figures approved (version 2, so 变更记录 has a difference to show) and a name change
 * returned for its proof; the second unit's landline change waiting for the authority — plus a
 * unit type change waiting, and each unit's safety department and personnel (certificates
 * expired, expiring within 90 days and valid) and its branches.
 */
import { addToDate } from '../../../shared/dates';
import { DEMO_UNITS } from '../../db/seed';
import { makeUscc } from '../../db/uscc';
import { demoForm, demoIdCard, type DemoContext } from '../../db/demo/context';
import { insertRecord } from '../../resources/writer';
import { runAction } from '../../resources/record-actions';
import { saveRecord } from '../../resources/record-save';
import type { Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';

interface Registered {
  industry: string;
  legalPerson: string;
  legalBirth: string;
  postalCode: string;
  contactPerson: string;
  contactMobile: string;
  email: string;
  registeredCapital: number;
  fixedAssets: number;
  employees: number;
  longitude: number;
  latitude: number;
  registeredOn: string;
}

const FACTS: Record<'using' | 'second', Registered> = {
  using: {
    industry: 'C',
    legalPerson: '陈国华',
    legalBirth: '19680312',
    postalCode: '315100',
    contactPerson: '李明',
    contactMobile: '13805740011',
    email: 'aq@yongjiang-tz.cn',
    registeredCapital: 5000,
    fixedAssets: 12800,
    employees: 420,
    longitude: 121.5467,
    latitude: 29.8123,
    registeredOn: '2016-05-18',
  },
  second: {
    industry: 'G',
    legalPerson: '周建平',
    legalBirth: '19710923',
    postalCode: '315800',
    contactPerson: '周敏',
    contactMobile: '13905746021',
    email: 'safety@blgc-crane.cn',
    registeredCapital: 3000,
    fixedAssets: 8600,
    employees: 260,
    longitude: 121.8442,
    latitude: 29.9011,
    registeredOn: '2018-09-03',
  },
};

/** The profile as registered, and its first version. */
async function seedProfile(demo: DemoContext, unit: Actor, key: 'using' | 'second'): Promise<Row> {
  const { db } = demo;
  const base = DEMO_UNITS[key];
  const facts = FACTS[key];
  const values = {
    orgname: base.orgname,
    creditCode: base.orgcode,
    unitType: 'use',
    industry: facts.industry,
    legalPerson: facts.legalPerson,
    legalIdCard: demoIdCard(base.areacode, facts.legalBirth, 31),
    area: base.areacode,
    address: base.address,
    postalCode: facts.postalCode,
    contactPerson: facts.contactPerson,
    contactMobile: facts.contactMobile,
    landline: base.contact_phone,
    email: facts.email,
    registeredCapital: facts.registeredCapital,
    fixedAssets: facts.fixedAssets,
    employees: facts.employees,
    longitude: facts.longitude,
    latitude: facts.latitude,
  };
  const id = await insertRecord(db, demo.resource('unit-profile'), unit, { ...values, versionNo: 1, changedDate: facts.registeredOn }, { trusted: true });
  const { longitude, latitude, ...snapshot } = values;
  await insertRecord(
    db,
    demo.resource('unit-version'),
    unit,
    { ...snapshot, longitude, latitude, versionNo: 1, approvedDate: facts.registeredOn, changes: '首次登记' },
    { trusted: true },
  );
  return { id, ...values };
}

/** An application starting from the profile with `changes`, carried to `target`. */
async function seedChange(
  demo: DemoContext,
  unit: Actor,
  profile: Row,
  changes: Record<string, unknown>,
  target: 'approved' | 'returned' | 'submitted',
  opinion?: string,
): Promise<void> {
  const { db } = demo;
  const applications = demo.resource('unit-change');
  const { id: profileId, creditCode: _code, unitType: _type, ...carried } = profile;
  const row = await saveRecord(db, applications, unit, { ...carried, profile: profileId, ...changes });
  await runAction(db, applications, unit, 'commit', row.id, {});
  if (target === 'approved') await runAction(db, applications, demo.authority, 'audit-agree', row.id, { opinion: opinion ?? '材料齐全，同意变更' });
  if (target === 'returned') await runAction(db, applications, demo.authority, 'audit-disagree', row.id, { opinion: opinion ?? '请补充证明材料' });
}

const STAFF: [post: 'principal' | 'director' | 'officer', scope: string, certDays: number | null][] = [
  ['principal', '全面负责特种设备安全', null],
  ['director', '全厂特种设备', 900],
  ['officer', '电梯、起重机械', 20],
  ['officer', '锅炉、压力容器', -15],
  ['officer', '场（厂）内机动车辆', 400],
];
const STAFF_NAMES: Record<'using' | 'second', string[]> = {
  using: ['陈国华', '王建国', '钱芳', '刘洋', '许文'],
  second: ['周建平', '孙立新', '何静', '马超', '杨帆'],
};

async function seedSafety(demo: DemoContext, unit: Actor, key: 'using' | 'second', offset: number): Promise<{ depts: number; staff: number }> {
  const { db, today } = demo;
  const base = DEMO_UNITS[key];
  const dept = await saveRecord(db, demo.resource('safety-dept'), unit, {
    name: '安全生产管理部',
    head: STAFF_NAMES[key][1],
    headMobile: `1380574${String(2100 + offset).padStart(4, '0')}`,
    phone: base.contact_phone,
    establishedDate: '2019-03-01',
    duties: '贯彻特种设备安全法律法规，组织制定安全管理制度和操作规程，落实日管控、周排查、月调度，组织隐患排查治理和应急演练。',
    document: demoForm('关于设立安全生产管理部的通知.pdf'),
  });
  for (const [i, [post, scopeOfDuty, certDays]] of STAFF.entries()) {
    const name = STAFF_NAMES[key][i];
    await saveRecord(db, demo.resource('safety-staff'), unit, {
      name,
      idCard: demoIdCard(base.areacode, `19${75 + i}0${1 + i}1${i}`, 200 + i + offset),
      mobile: `1390574${String(3100 + i + offset).padStart(4, '0')}`,
      post,
      dept: dept.id,
      scopeOfDuty,
      ...(certDays === null ? {} : { certNo: `TS-A-${base.areacode}-${String(1000 + i + offset)}`, certExpiry: addToDate(today, certDays, 'd') }),
      appointDate: addToDate(today, -400 - i * 30, 'd'),
      appointDoc: demoForm(`${name}任命文件.pdf`),
      onDuty: true,
    });
  }
  return { depts: 1, staff: STAFF.length };
}

interface Branch {
  name: string;
  orgBody: string;
  head: string;
  headMobile: string;
  phone: string;
  area: string;
  address: string;
  establishedDate: string;
  businessScope: string;
}

/** Each using unit's branches, registered in other districts of 宁波. */
const BRANCHES: Record<'using' | 'second', Branch[]> = {
  using: [
    {
      name: '宁波甬江特种设备使用有限公司余姚分公司',
      orgBody: 'MA2D4R6N',
      head: '钱立峰',
      headMobile: '13805742201',
      phone: '0574-62781234',
      area: '330281',
      address: '浙江省宁波市余姚市阳明街道舜水南路168号',
      establishedDate: '2020-06-15',
      businessScope: '特种设备使用管理；起重机械、场（厂）内专用机动车辆的日常维护保养（依法须经批准的项目，经相关部门批准后方可开展经营活动）。',
    },
    {
      name: '宁波甬江特种设备使用有限公司慈溪分公司',
      orgBody: 'MA2G8K1T',
      head: '韩晓东',
      headMobile: '13805742202',
      phone: '0574-63051234',
      area: '330282',
      address: '浙江省宁波市慈溪市浒山街道新城大道北路318号',
      establishedDate: '2022-03-08',
      businessScope: '电梯、压力容器的使用管理；仓储服务。',
    },
  ],
  second: [
    {
      name: '宁波北仑港城起重设备使用有限公司镇海分公司',
      orgBody: 'MA2J5T8W',
      head: '吴海涛',
      headMobile: '13905746101',
      phone: '0574-86661234',
      area: '330211',
      address: '浙江省宁波市镇海区招宝山街道平海路1188号',
      establishedDate: '2021-09-20',
      businessScope: '港口起重机械的使用与管理；货物装卸、搬运服务。',
    },
  ],
};

async function seedBranches(demo: DemoContext, unit: Actor, key: 'using' | 'second'): Promise<number> {
  for (const { orgBody, ...branch } of BRANCHES[key]) {
    await saveRecord(demo.db, demo.resource('unit-branch'), unit, {
      ...branch,
      creditCode: makeUscc('91', branch.area, orgBody),
      licence: demoForm(`${branch.name}营业执照.pdf`),
    });
  }
  return BRANCHES[key].length;
}

export async function seedCompany(demo: DemoContext): Promise<Record<string, number>> {
  demo.progress('写入企业信息、安全管理机构与人员、分支机构…');
  const first = await seedProfile(demo, demo.unit, 'using');
  const second = await seedProfile(demo, demo.secondUnit, 'second');
  await seedChange(
    demo,
    demo.unit,
    first,
    { contactPerson: '张伟', contactMobile: '13805740001', employees: 450, reason: '原联系人岗位调整，更换企业联系人及联系手机；职工人数按年度报表更新' },
    'approved',
  );
  await seedChange(
    demo,
    demo.unit,
    { ...first, contactPerson: '张伟', contactMobile: '13805740001', employees: 450 },
    { orgname: '宁波甬江特种设备科技有限公司', reason: '企业名称变更' },
    'returned',
    '单位名称变更须上传变更后的营业执照，请补充后重新提交',
  );
  await seedChange(demo, demo.secondUnit, second, { landline: '0574-86885678', reason: '办公电话号码变更' }, 'submitted');
  const types = demo.resource('unit-type-change');
  const typeChange = await saveRecord(demo.db, types, demo.secondUnit, {
    profile: second.id,
    orgname: second.orgname,
    creditCode: second.creditCode,
    newUnitType: 'filling',
    licenceNo: 'TS4233020-2029',
    licenceExpiry: addToDate(demo.today, 3 * 365, 'd'),
    reason: '新增气瓶充装业务，已取得移动式压力容器充装许可',
    licence: demoForm('充装许可证.pdf'),
  });
  await runAction(demo.db, types, demo.secondUnit, 'commit', typeChange.id, {});
  const a = await seedSafety(demo, demo.unit, 'using', 0);
  const b = await seedSafety(demo, demo.secondUnit, 'second', 50);
  const branches = (await seedBranches(demo, demo.unit, 'using')) + (await seedBranches(demo, demo.secondUnit, 'second'));
  return { unitProfiles: 2, unitChanges: 3, unitTypeChanges: 1, safetyDepts: a.depts + b.depts, safetyStaff: a.staff + b.staff, unitBranches: branches };
}
