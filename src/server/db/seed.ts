/**
 * Demo data: two using units in 宁波市, the city's and a district's supervision authority, two
 * inspection bodies and two maintenance units, their accounts and roles.
 * Idempotent (stable ids, insert-or-ignore); role menus are refreshed from schemas/menu.json on
 * every run. `DEMO_ACCOUNTS` is the one list the README, the tests and the startup banner use.
 */
import { ACCESS } from '../access';
import { accessGroup, loadMenu, menuAccessIds } from '../menu';
import { passwordHasher } from '../services/password';
import { inTransaction, type Db } from './index';
import { stableId } from './ids';
import type { NewUnit } from './schema';
import { makeUscc } from './uscc';

export const DEMO_UNITS = {
  using: {
    id: stableId('seed:unit:using'),
    orgname: '宁波甬江特种设备使用有限公司',
    orgcode: makeUscc('91', '330212', 'MA2CL8F5'),
    areacode: '330212',
    address: '浙江省宁波市鄞州区首南街道天童南路588号',
    contact: '张伟',
    contact_phone: '0574-88123456',
    unit_type: 'use',
    sso_user_id: null,
  },
  /** A second using unit in another district, so every cross-unit rule can be tried. */
  second: {
    id: stableId('seed:unit:second'),
    orgname: '宁波北仑港城起重设备使用有限公司',
    orgcode: makeUscc('91', '330206', 'MA2H7K3Q'),
    areacode: '330206',
    address: '浙江省宁波市北仑区新碶街道明州路88号',
    contact: '周敏',
    contact_phone: '0574-86881234',
    unit_type: 'use',
    sso_user_id: null,
  },
  authority: {
    id: stableId('seed:unit:authority'),
    orgname: '宁波市市场监督管理局特种设备安全监察处',
    orgcode: makeUscc('11', '330200', '00253017'),
    areacode: '330200',
    address: '浙江省宁波市鄞州区宁穿路1901号',
    contact: '陈静',
    contact_phone: '0574-89182000',
    unit_type: 'authority',
    sso_user_id: null,
  },
  /** A district authority (鄞州, 330212): its area holds the first using unit only, so a district's scope can be tried. */
  district: {
    id: stableId('seed:unit:district'),
    orgname: '宁波市鄞州区市场监督管理局',
    orgcode: makeUscc('11', '330212', '00254212'),
    areacode: '330212',
    address: '浙江省宁波市鄞州区惠风东路568号',
    contact: '黄磊',
    contact_phone: '0574-87412345',
    unit_type: 'authority',
    sso_user_id: null,
  },
  /** An inspection body of the city: online inspection applications of its area and categories are routed to it. */
  inspection: {
    id: stableId('seed:unit:inspection'),
    orgname: '宁波市特种设备检验研究院',
    orgcode: makeUscc('12', '330200', '47005812'),
    areacode: '330200',
    address: '浙江省宁波市江北区育才路181号',
    contact: '郑涛',
    contact_phone: '0574-87351200',
    unit_type: 'inspection',
    sso_user_id: null,
  },
  /** A second inspection body, so a body's scope can be tried: it serves 北仑. */
  inspectionSecond: {
    id: stableId('seed:unit:inspection-second'),
    orgname: '浙江省特种设备科学研究院宁波分院',
    orgcode: makeUscc('12', '330206', '47012345'),
    areacode: '330206',
    address: '浙江省宁波市北仑区长江路1166号',
    contact: '孙悦',
    contact_phone: '0574-86112233',
    unit_type: 'inspection',
    sso_user_id: null,
  },
  /** A maintenance unit (elevators) working for the using units under contract; its licence is in the maintenance-unit registry. */
  maintenance: {
    id: stableId('seed:unit:maintenance'),
    orgname: '宁波甬安电梯工程有限公司',
    orgcode: makeUscc('91', '330203', 'MA2AX9R1'),
    areacode: '330203',
    address: '浙江省宁波市海曙区望春工业园区杉杉路300号',
    contact: '钱伟',
    contact_phone: '0574-87667788',
    unit_type: 'maintenance',
    sso_user_id: null,
  },
  /** A second maintenance unit (北仑), so a maintenance unit's scope can be tried: it never sees the first one's contracts and records. */
  maintenanceSecond: {
    id: stableId('seed:unit:maintenance-second'),
    orgname: '宁波港城电梯维保有限公司',
    orgcode: makeUscc('91', '330206', 'MA2KQ3W7'),
    areacode: '330206',
    address: '浙江省宁波市北仑区大碶街道庐山西路58号',
    contact: '蒋华',
    contact_phone: '0574-86225566',
    unit_type: 'maintenance',
    sso_user_id: null,
  },
} satisfies Record<string, NewUnit>;

export type RoleKey = 'unitAdmin' | 'unitOperator' | 'authority' | 'analyst' | 'inspector' | 'maintainer';

export interface DemoAccount {
  loginName: string;
  password: string;
  orgCode: string;
  description: string;
}

interface DemoUser extends DemoAccount {
  name: string;
  unit: keyof typeof DEMO_UNITS;
  roles: RoleKey[];
  isUserSeed: 0 | 1;
  basicUnitFlag: 0 | 1;
  mobile: string;
}

const DEMO_USERS: DemoUser[] = [
  {
    loginName: 'nbadmin',
    password: 'Admin@2026',
    orgCode: DEMO_UNITS.using.orgcode,
    description: '使用单位主账号（种子用户，可见系统管理菜单）',
    name: '张伟',
    unit: 'using',
    roles: ['unitAdmin'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740001',
  },
  {
    loginName: 'nbsub',
    password: 'Oper@2026',
    orgCode: DEMO_UNITS.using.orgcode,
    description: '子账号（经办人角色：设备、自助服务；无系统管理）',
    name: '李娜',
    unit: 'using',
    roles: ['unitOperator'],
    isUserSeed: 0,
    basicUnitFlag: 1,
    mobile: '13805740002',
  },
  {
    loginName: 'nbmulti',
    password: 'Multi@2026',
    orgCode: DEMO_UNITS.using.orgcode,
    description: '双角色子账号（管理员 / 经办人，可在页头切换角色）',
    name: '刘洋',
    unit: 'using',
    roles: ['unitAdmin', 'unitOperator'],
    isUserSeed: 0,
    basicUnitFlag: 1,
    mobile: '13805740003',
  },
  {
    loginName: 'nbweak',
    password: '12345678',
    orgCode: DEMO_UNITS.using.orgcode,
    description: '弱口令子账号（登录后强制修改密码）',
    name: '王强',
    unit: 'using',
    roles: ['unitOperator'],
    isUserSeed: 0,
    basicUnitFlag: 1,
    mobile: '13805740004',
  },
  {
    loginName: 'bladmin',
    password: 'Beilun@2026',
    orgCode: DEMO_UNITS.second.orgcode,
    description: '第二家使用单位（北仑区）主账号，用于试跨单位规则',
    name: '周敏',
    unit: 'second',
    roles: ['unitAdmin'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740006',
  },
  {
    loginName: 'blsub',
    password: 'Blsub@2026',
    orgCode: DEMO_UNITS.second.orgcode,
    description: '第二家使用单位的子账号（经办人角色）',
    name: '孙磊',
    unit: 'second',
    roles: ['unitOperator'],
    isUserSeed: 0,
    basicUnitFlag: 1,
    mobile: '13805740007',
  },
  {
    loginName: 'jgadmin',
    password: 'Audit@2026',
    orgCode: DEMO_UNITS.authority.orgcode,
    description: '监察机构账号（账号注册与密码重置审核）',
    name: '陈静',
    unit: 'authority',
    roles: ['authority'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740005',
  },
  {
    loginName: 'yzjg',
    password: 'Yinzhou@2026',
    orgCode: DEMO_UNITS.district.orgcode,
    description: '区县监察机构账号（鄞州区，辖区查询只见本区）',
    name: '黄磊',
    unit: 'district',
    roles: ['authority'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740009',
  },
  {
    loginName: 'nbjy',
    password: 'Inspect@2026',
    orgCode: DEMO_UNITS.inspection.orgcode,
    description: '检验机构账号（宁波市特种设备检验研究院：受理报检、核定费用、录入检验结果、补发报告）',
    name: '郑涛',
    unit: 'inspection',
    roles: ['inspector'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740010',
  },
  {
    loginName: 'zjjy',
    password: 'Branch@2026',
    orgCode: DEMO_UNITS.inspectionSecond.orgcode,
    description: '第二家检验机构账号（北仑的报检路由到此，只见路由给本机构的申请）',
    name: '孙悦',
    unit: 'inspectionSecond',
    roles: ['inspector'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740011',
  },
  {
    loginName: 'wbadmin',
    password: 'Maint@2026',
    orgCode: DEMO_UNITS.maintenance.orgcode,
    description: '维保单位账号（宁波甬安电梯工程有限公司：确认维保合同、填报维保记录）',
    name: '钱伟',
    unit: 'maintenance',
    roles: ['maintainer'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740012',
  },
  {
    loginName: 'gcwb',
    password: 'Gangcheng@2026',
    orgCode: DEMO_UNITS.maintenanceSecond.orgcode,
    description: '第二家维保单位账号（北仑区，只见与本单位签订的合同及其维保记录）',
    name: '蒋华',
    unit: 'maintenanceSecond',
    roles: ['maintainer'],
    isUserSeed: 1,
    basicUnitFlag: 0,
    mobile: '13805740013',
  },
  {
    loginName: 'analyst',
    password: 'Analyst@2026',
    orgCode: DEMO_UNITS.authority.orgcode,
    description: '配置分析员（屏幕调试台：粘贴屏幕 JSON，即时预览与校验）',
    name: '吴昊',
    unit: 'authority',
    roles: ['analyst'],
    isUserSeed: 0,
    basicUnitFlag: 1,
    mobile: '13805740008',
  },
];

export const DEMO_ACCOUNTS: readonly DemoAccount[] = DEMO_USERS.map(({ loginName, password, orgCode, description }) => ({
  loginName,
  password,
  orgCode,
  description,
}));

/**
 * Menu groups of each demo role; `null` means every group except the authority's, the analysts'
 * (the screen playground, `dev`: a tool for whoever writes screens, not for a company) and the
 * serving parties' desks.
 */
const AUTHORITY_GROUPS = ['account', 'area', 'stats', 'plan'];
const ANALYST_GROUPS = ['dev'];
/** The desks of the parties serving the using units: inspection bodies and maintenance units. */
const INSPECTION_GROUPS = ['inspection'];
const MAINTENANCE_GROUPS = ['maintenance'];
const ROLE_DEFS: Record<RoleKey, { name: string; roleType: string; sort: number; groups: string[] | null }> = {
  unitAdmin: { name: '使用单位管理员', roleType: 'unit', sort: 1, groups: null },
  unitOperator: { name: '使用单位经办人', roleType: 'unit', sort: 2, groups: ['equipment', 'company-service'] },
  authority: { name: '监察机构审核员', roleType: 'authority', sort: 3, groups: AUTHORITY_GROUPS },
  analyst: { name: '配置分析员', roleType: 'analyst', sort: 4, groups: ANALYST_GROUPS },
  inspector: { name: '检验机构业务员', roleType: 'inspection', sort: 5, groups: INSPECTION_GROUPS },
  maintainer: { name: '维保单位管理员', roleType: 'maintenance', sort: 6, groups: MAINTENANCE_GROUPS },
};

/** The access ids a role gets: from menu.json when present, plus those server routes enforce. */
export function roleMenuIds(role: RoleKey, allIds: string[]): string[] {
  const { groups } = ROLE_DEFS[role];
  const ids = [...new Set([...allIds, ...Object.values(ACCESS)])];
  const reserved = [...AUTHORITY_GROUPS, ...ANALYST_GROUPS, ...INSPECTION_GROUPS, ...MAINTENANCE_GROUPS];
  return ids.filter((id) => (groups ? groups.includes(accessGroup(id)) : !reserved.includes(accessGroup(id)))).sort();
}

export const roleId = (role: RoleKey): string => stableId(`seed:role:${role}`);
export const userId = (loginName: string): string => stableId(`seed:user:${loginName}`);

/**
 * Creates the portal's standard roles, or refreshes their menus from schemas/menu.json: the demo
 * data's and the operator's (`npm run admin`), which share the role rows (stable ids).
 */
export async function ensureRoles(db: Db, keys: readonly RoleKey[] = Object.keys(ROLE_DEFS) as RoleKey[]): Promise<void> {
  const menu = loadMenu();
  const allIds = menu ? menuAccessIds(menu) : [];
  for (const key of keys) {
    const def = ROLE_DEFS[key];
    const menuIds = JSON.stringify(roleMenuIds(key, allIds));
    await db
      .insertInto('sys_role')
      .values({ id: roleId(key), name: def.name, role_type: def.roleType, sort: def.sort, menu_ids: menuIds })
      .onConflict((oc) => oc.column('id').doUpdateSet({ menu_ids: menuIds }))
      .execute();
  }
}

export interface NewAccount {
  id: string;
  unitId: string;
  loginName: string;
  name: string;
  passwordHash: string;
  mobile: string | null;
  isUserSeed: 0 | 1;
  basicUnitFlag: 0 | 1;
  /** Standard roles (ensureRoles) the account holds. */
  roles: readonly RoleKey[];
  /** The password was set by someone else: the first login must change it (migration 0018). */
  passwordMustChange?: boolean;
}

/** Inserts an account of a unit with its roles; an account with the same id is kept as it is. */
export async function insertAccount(db: Db, account: NewAccount): Promise<void> {
  await db
    .insertInto('sys_user')
    .values({
      id: account.id,
      unit_id: account.unitId,
      login_name: account.loginName,
      name: account.name,
      password_hash: account.passwordHash,
      mobile: account.mobile,
      is_user_seed: account.isUserSeed,
      basic_unit_flag: account.basicUnitFlag,
      office_id: account.unitId,
      password_must_change: account.passwordMustChange ?? false,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  await db
    .insertInto('sys_user_role')
    .values(account.roles.map((r) => ({ user_id: account.id, role_id: roleId(r) })))
    .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
    .execute();
}

/** Inserts the demo data (existing rows are kept, role menus refreshed). */
export async function seedDemoData(db: Db): Promise<void> {
  const hashes = await Promise.all(DEMO_USERS.map((u) => passwordHasher.hash(u.password)));

  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('sys_unit')
      .values(Object.values(DEMO_UNITS))
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await ensureRoles(trx);
    for (const [i, u] of DEMO_USERS.entries()) {
      const unitId = DEMO_UNITS[u.unit].id;
      await insertAccount(trx, { ...u, id: userId(u.loginName), unitId, passwordHash: hashes[i] });
    }
  });
}

/** True when the database holds no user yet (main.ts seeds it then). */
export async function isEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  return !row;
}

/** True when the demo accounts are in the database (the start-up banner lists them then). */
export async function hasDemoAccounts(db: Db): Promise<boolean> {
  const row = await db.selectFrom('sys_user').select('id').where('id', '=', userId(DEMO_USERS[0].loginName)).limit(1).executeTakeFirst();
  return !!row;
}

/** The demo accounts as printable lines. */
export function formatDemoAccounts(): string {
  return DEMO_ACCOUNTS.map((a) => `  ${a.loginName.padEnd(8)} ${a.password.padEnd(14)} ${a.orgCode}  ${a.description}`).join('\n');
}
