/**
 * Account management: a unit's main account (the seed user) keeps its sub-accounts, the
 * authority keeps the accounts of its area. The rules:
 *
 * - A manager sees and changes only accounts of its own unit (sub-accounts), or — the authority,
 *   a role type that oversees — accounts of units in its area. Anything else answers
 *   ACCOUNT_NOT_FOUND, as an unknown id does.
 * - A sub-account gets one role of its own (`sys_role.owner_user_id`), whose menu ids must all be
 *   menu ids the manager itself holds (any of its roles), never a seed-only (system menu) id: the
 *   server refuses anything else with MENU_NOT_GRANTABLE.
 * - A new account starts with a random 8-digit password, shown once to the manager: a simple
 *   password by the strength meter, so its first login opens the forced change (session simplePwd).
 * - Disabling ends every session of the account at once; a main account, the manager itself and
 *   the seed user of another unit (for a unit manager) cannot be disabled.
 * - Unlocking clears the failed-login count and the lock.
 */
import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { messages, rules } from '../../../validators';
import { ACCOUNT_STATUS, type AccountDetail, type AccountRow, type AccountSaveInput, type AccountState, type AccountSaveResult } from '../../shared/accounts';
import { inTransaction, type Db } from '../db/index';
import { newId } from '../db/ids';
import type { Database } from '../db/schema';
import { containsPattern, escapeLike, pageOffset } from '../db/sql';
import { defineErrors, AppError } from '../errors';
import { flattenMenu, loadMenu } from '../menu';
import { accessTitles, grantableTree, type OptionNode } from '../../shared/menu-tree';
import { maskText } from '../resources/mask-patterns';
import { areaPrefix } from '../resources/scope';
import type { FieldCipher } from '../resources/sealed-columns';
import { openValue, sealValue } from '../resources/sealed-fields';
import { passwordHasher } from './password';
import { deleteUserSessions } from './sessions';

export const ACCOUNT_ERRORS = defineErrors({
  ACCOUNT_NOT_FOUND: { status: 200, message: '账号不存在或无权访问' },
  LOGIN_NAME_TAKEN: { status: 200, message: '登录账号已存在，请换一个' },
  LOGIN_NAME_INVALID: { status: 200, message: messages.loginName },
  ACCOUNT_NAME_REQUIRED: { status: 200, message: '请输入姓名' },
  ACCOUNT_MOBILE_INVALID: { status: 200, message: '请输入有效的手机号码' },
  ROLE_NAME_REQUIRED: { status: 200, message: '请输入角色名称' },
  MENU_REQUIRED: { status: 200, message: '请至少选择一个菜单权限' },
  MENU_NOT_GRANTABLE: { status: 200, message: '所选菜单超出本账号的权限范围' },
  ACCOUNT_SELF: { status: 200, message: '不能停用当前登录的账号' },
  ACCOUNT_MAIN_PROTECTED: { status: 200, message: '单位主账号不能在此停用或修改' },
});

/** Who manages: the session's user, unit, area and whether its role type oversees its area. */
export interface Manager {
  userId: string;
  unitId: string;
  areaCode: string;
  roleType: string | null;
  oversees: boolean;
  /** The cipher of sm mode (resources/sealed-fields.ts `cipherOf`): mobiles are sealed at rest; none in the standard mode. */
  cipher?: FieldCipher | null;
}

/** Where a manager looks: its unit's sub-accounts, or (oversight) its area's accounts. */
export type AccountScope = 'unit' | 'area';

interface RoleOwnerColumn {
  owner_user_id: string | null;
}
type Tables = Omit<Database, 'sys_role'> & { sys_role: Database['sys_role'] & RoleOwnerColumn };
const tables = (db: Db) => db as unknown as Kysely<Tables>;

/** Access ids of seed-only menu entries (the system menu): never granted to a sub-account. */
function seedOnlyIds(): Set<string> {
  const menu = loadMenu();
  if (!menu) return new Set();
  const ids = new Set<string>();
  const walk = (nodes: typeof menu.routes, inherited: boolean) => {
    for (const node of nodes) {
      const seedOnly = inherited || Boolean(node.seedOnly);
      if (seedOnly) for (const id of node.access ?? []) ids.add(id);
      walk(node.children ?? [], seedOnly);
    }
  };
  walk(menu.routes, false);
  return ids;
}

let menuIdsCache: Set<string> | undefined;
/** Every access id of the menu. */
function knownMenuIds(): Set<string> {
  const menu = loadMenu();
  menuIdsCache ??= new Set(menu ? flattenMenu(menu.routes).flatMap((n) => n.access ?? []) : []);
  return menuIdsCache;
}

/** The menu ids a manager may grant: those of all its roles, less the seed-only ones. */
export async function grantableMenuIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('sys_role as r')
    .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
    .select('r.menu_ids')
    .where('ur.user_id', '=', userId)
    .execute();
  const excluded = seedOnlyIds();
  return [...new Set(rows.flatMap((r) => r.menu_ids ?? []))].filter((id) => !excluded.has(id)).sort();
}

/** The grantable menu ids as the menu's tree of options (groups and leaves with their titles), for the account form. */
export async function grantableMenuTree(db: Db, userId: string): Promise<OptionNode[]> {
  return grantableTree(loadMenu()?.routes ?? [], new Set(await grantableMenuIds(db, userId)));
}

let titles: Map<string, string> | undefined;
/** The menu title of an access id (the id itself when the menu has none). */
const menuTitle = (id: string): string => (titles ??= accessTitles(loadMenu()?.routes ?? [])).get(id) ?? id;

/** The condition "an account this manager may see" on `u` (sys_user) joined with `un` (sys_unit). */
function scopeCondition(manager: Manager, scope: AccountScope) {
  if (scope === 'area') {
    if (!manager.oversees) throw new AppError('FORBIDDEN');
    return sql<boolean>`(un.areacode LIKE ${`${escapeLike(areaPrefix(manager.areaCode))}%`})`;
  }
  return sql<boolean>`(u.unit_id = ${manager.unitId} AND u.is_user_seed = 0)`;
}

export interface AccountListQuery {
  pageNo: number;
  pageSize: number;
  loginName?: string;
  name?: string;
  orgname?: string;
  status?: string;
  /** main: the units' main accounts only; sub: sub-accounts only. */
  kind?: 'main' | 'sub';
  locked?: boolean;
  /** A column and direction, e.g. `loginName desc` (default: unit, main account first, login name). */
  orderBy?: string;
}

/** An account's lock and the state a list shows (disabled over locked over in use), from its row. */
function lockOf(status: string, lockedUntil: Date | null, now: Date): Pick<AccountRow, 'locked' | 'lockedUntil' | 'state'> {
  const locked = lockedUntil !== null && lockedUntil.getTime() > now.getTime();
  const state: AccountState = status !== ACCOUNT_STATUS.active ? 'disabled' : locked ? 'locked' : 'active';
  return { locked, lockedUntil: locked ? lockedUntil.toISOString() : null, state };
}
/** The same state as SQL to sort by (正常, 已锁定, 已停用). */
const stateOrder = (now: Date) => sql<number>`CASE WHEN u.status <> ${ACCOUNT_STATUS.active} THEN 2 WHEN u.locked_until > ${now} THEN 1 ELSE 0 END`;

const SORTABLE = {
  loginName: 'u.login_name',
  name: 'u.name',
  orgname: 'un.orgname',
  createDate: 'u.created_at',
  status: 'u.status',
} as const;

function baseQuery(db: Db, manager: Manager, scope: AccountScope) {
  return db.selectFrom('sys_user as u').innerJoin('sys_unit as un', 'un.id', 'u.unit_id').where(scopeCondition(manager, scope));
}

const rolesOf = sql<string>`(SELECT coalesce(string_agg(r.name, '、' ORDER BY r.sort, r.name), '') FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id WHERE ur.user_id = u.id)`;

function sorted<Q extends ReturnType<typeof baseQuery>>(query: Q, orderBy: string | undefined, now: Date): Q {
  const [field, direction] = (orderBy ?? '').trim().split(/\s+/);
  const order = direction === 'desc' ? 'desc' : 'asc';
  if (field === 'state') return query.orderBy(stateOrder(now), order) as Q;
  const column = SORTABLE[field as keyof typeof SORTABLE];
  return column ? (query.orderBy(column, order) as Q) : query;
}

/** A value as a list shows it: masked by `pattern`; null and '' stay as they are. */
const masked = (pattern: 'mobile' | 'phone', value: string | null): string | null => (value ? maskText(pattern, value) : value);

export async function listAccounts(
  db: Db,
  manager: Manager,
  scope: AccountScope,
  q: AccountListQuery,
  now = new Date(),
): Promise<{ list: AccountRow[]; count: number }> {
  let query = baseQuery(db, manager, scope);
  if (q.loginName?.trim()) query = query.where('u.login_name', 'ilike', containsPattern(q.loginName.trim()));
  if (q.name?.trim()) query = query.where('u.name', 'ilike', containsPattern(q.name.trim()));
  if (q.orgname?.trim()) query = query.where('un.orgname', 'ilike', containsPattern(q.orgname.trim()));
  if (q.status) query = query.where('u.status', '=', q.status);
  if (q.kind === 'main') query = query.where('u.is_user_seed', '=', 1);
  if (q.kind === 'sub') query = query.where('u.is_user_seed', '=', 0);
  if (q.locked) query = query.where('u.locked_until', '>', now);
  const [{ count }, rows] = await Promise.all([
    query.select((eb) => eb.fn.countAll<string | number>().as('count')).executeTakeFirstOrThrow(),
    sorted(query, q.orderBy, now)
      .select([
        'u.id',
        'u.login_name',
        'u.name',
        'u.mobile',
        'u.phone',
        'u.status',
        'u.locked_until',
        'u.is_user_seed',
        'u.created_at',
        'un.orgname',
        'un.orgcode',
        'un.areacode',
      ])
      .select(rolesOf.as('role_names'))
      .orderBy('un.orgname')
      .orderBy('u.is_user_seed', 'desc')
      .orderBy('u.login_name')
      .limit(q.pageSize)
      .offset(pageOffset(q.pageNo, q.pageSize))
      .execute(),
  ]);
  const list = rows.map((r): AccountRow => ({
    id: r.id,
    loginName: r.login_name,
    name: r.name,
    // Lists show personal data masked (138****5678), as every resource list does; the account's
    // detail and its edit form (getAccount) read the whole value.
    mobile: masked('mobile', openValue(manager.cipher ?? null, r.mobile)),
    phone: masked('phone', r.phone),
    status: r.status,
    ...lockOf(r.status, r.locked_until, now),
    isUserSeed: r.is_user_seed === 1 ? 1 : 0,
    orgname: r.orgname,
    orgcode: r.orgcode,
    areacode: r.areacode,
    roleNames: r.role_names,
    createDate: r.created_at.toISOString(),
  }));
  return { list, count: Number(count) };
}

export async function getAccount(db: Db, manager: Manager, scope: AccountScope, id: unknown, now = new Date()): Promise<AccountDetail> {
  if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
  const row = await baseQuery(db, manager, scope)
    .where('u.id', '=', id)
    .select([
      'u.id',
      'u.login_name',
      'u.name',
      'u.mobile',
      'u.phone',
      'u.status',
      'u.locked_until',
      'u.failed_count',
      'u.is_user_seed',
      'u.created_at',
      'un.orgname',
      'un.orgcode',
      'un.areacode',
    ])
    .select(rolesOf.as('role_names'))
    .select(sql<string | number>`(SELECT count(*) FROM sys_session s WHERE s.user_id = u.id)`.as('sessions'))
    .executeTakeFirst();
  if (!row) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
  const roles = await tables(db)
    .selectFrom('sys_role as r')
    .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
    .select(['r.id', 'r.name', 'r.role_type', 'r.menu_ids', 'r.owner_user_id'])
    .where('ur.user_id', '=', id)
    .orderBy('r.sort')
    .orderBy('r.name')
    .execute();
  const own = roles.find((r) => r.owner_user_id === id) ?? roles[0];
  return {
    id: row.id,
    loginName: row.login_name,
    name: row.name,
    mobile: openValue(manager.cipher ?? null, row.mobile),
    phone: row.phone,
    status: row.status,
    ...lockOf(row.status, row.locked_until, now),
    isUserSeed: row.is_user_seed === 1 ? 1 : 0,
    orgname: row.orgname,
    orgcode: row.orgcode,
    areacode: row.areacode,
    roleNames: row.role_names,
    createDate: row.created_at.toISOString(),
    roles: roles.map((r) => ({
      id: r.id,
      name: r.name,
      roleType: r.role_type,
      menuIds: r.menu_ids ?? [],
      menus: (r.menu_ids ?? []).map(menuTitle),
      own: r.owner_user_id === id,
    })),
    // The account's own role (else its first) as the form edits it.
    roleName: own?.name ?? '',
    menuIds: own?.menu_ids ?? [],
    sessions: Number(row.sessions),
    failedCount: row.failed_count,
  };
}

/** A random 8-digit initial password: simple by the strength meter, so the first login forces a change. */
export function initialPassword(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

interface CleanInput {
  loginName: string;
  name: string;
  mobile: string;
  phone: string | null;
  roleName: string;
  menuIds: string[];
}

function clean(input: AccountSaveInput, grantable: readonly string[]): CleanInput {
  const loginName = (input.loginName ?? '').trim();
  const name = (input.name ?? '').trim();
  const mobile = (input.mobile ?? '').trim();
  const roleName = (input.roleName ?? '').trim();
  if (!loginName || rules.loginName(loginName)) throw new AppError(ACCOUNT_ERRORS.LOGIN_NAME_INVALID);
  if (!name) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NAME_REQUIRED);
  if (!mobile || rules.mobile(mobile)) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_MOBILE_INVALID);
  if (input.phone?.trim() && rules.phoneOrLandline(input.phone.trim())) throw new AppError('PHONE_INVALID');
  if (!roleName) throw new AppError(ACCOUNT_ERRORS.ROLE_NAME_REQUIRED);
  const menuIds = [...new Set(input.menuIds ?? [])].sort();
  if (menuIds.length === 0) throw new AppError(ACCOUNT_ERRORS.MENU_REQUIRED);
  const allowed = new Set(grantable);
  if (menuIds.some((id) => !allowed.has(id) || !knownMenuIds().has(id))) throw new AppError(ACCOUNT_ERRORS.MENU_NOT_GRANTABLE);
  return { loginName, name, mobile, phone: input.phone?.trim() || null, roleName, menuIds };
}

/**
 * Creates a sub-account of the manager's own unit (no id) or edits one (id: its name, mobile and
 * its own role's name and menus; the login name of an existing account does not change).
 */
export async function saveSubAccount(db: Db, manager: Manager, input: AccountSaveInput): Promise<AccountSaveResult> {
  // Another unit's account answers as an unknown one, before anything about the input is said.
  if (input.id) {
    const own = await db.selectFrom('sys_user').select('id').where('id', '=', input.id).where('unit_id', '=', manager.unitId).executeTakeFirst();
    if (!own) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
  }
  const grantable = await grantableMenuIds(db, manager.userId);
  const values = clean(input, grantable);
  const roleType = manager.roleType ?? 'unit';

  if (!input.id) {
    const password = initialPassword();
    const hash = await passwordHasher.hash(password);
    const id = newId();
    await inTransaction(db, async (trx) => {
      const taken = await trx
        .selectFrom('sys_user')
        .select('id')
        .where(sql`lower(login_name)`, '=', values.loginName.toLowerCase())
        .executeTakeFirst();
      if (taken) throw new AppError(ACCOUNT_ERRORS.LOGIN_NAME_TAKEN);
      await trx
        .insertInto('sys_user')
        .values({
          id,
          unit_id: manager.unitId,
          login_name: values.loginName,
          name: values.name,
          password_hash: hash,
          mobile: sealValue(manager.cipher ?? null, values.mobile),
          phone: values.phone,
          is_user_seed: 0,
          basic_unit_flag: 1,
          office_id: manager.unitId,
        })
        .execute();
      const roleId = newId();
      await tables(trx)
        .insertInto('sys_role')
        .values({ id: roleId, name: values.roleName, role_type: roleType, menu_ids: JSON.stringify(values.menuIds), sort: 10, owner_user_id: id })
        .execute();
      await trx.insertInto('sys_user_role').values({ user_id: id, role_id: roleId }).execute();
    });
    return { id, initialPassword: password };
  }

  const id = input.id;
  await inTransaction(db, async (trx) => {
    const user = await trx
      .selectFrom('sys_user')
      .select(['id', 'is_user_seed'])
      .where('id', '=', id)
      .where('unit_id', '=', manager.unitId)
      .forUpdate()
      .executeTakeFirst();
    if (!user) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
    if (user.is_user_seed === 1) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_MAIN_PROTECTED);
    await trx
      .updateTable('sys_user')
      .set({ name: values.name, mobile: sealValue(manager.cipher ?? null, values.mobile), phone: values.phone, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    const own = await tables(trx).selectFrom('sys_role').select('id').where('owner_user_id', '=', id).executeTakeFirst();
    let roleId = own?.id;
    if (roleId) {
      await tables(trx)
        .updateTable('sys_role')
        .set({ name: values.roleName, menu_ids: JSON.stringify(values.menuIds), role_type: roleType })
        .where('id', '=', roleId)
        .execute();
    } else {
      roleId = newId();
      await tables(trx)
        .insertInto('sys_role')
        .values({ id: roleId, name: values.roleName, role_type: roleType, menu_ids: JSON.stringify(values.menuIds), sort: 10, owner_user_id: id })
        .execute();
    }
    // The account's roles become its own role alone: shared roles are never edited from here.
    await trx.deleteFrom('sys_user_role').where('user_id', '=', id).where('role_id', '!=', roleId).execute();
    await trx
      .insertInto('sys_user_role')
      .values({ user_id: id, role_id: roleId })
      .onConflict((oc) => oc.columns(['user_id', 'role_id']).doNothing())
      .execute();
    // Open sessions on a removed role fall back to none; the next request sees the new menus.
    await trx.updateTable('sys_session').set({ role_id: roleId }).where('user_id', '=', id).execute();
  });
  return { id, initialPassword: null };
}

/** The account a manager may act on, locked for the change; refuses the manager itself and (unit scope) main accounts. */
async function target(trx: Db, manager: Manager, scope: AccountScope, id: unknown): Promise<{ id: string; is_user_seed: number }> {
  if (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id)) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
  const row = await baseQuery(trx, manager, scope).where('u.id', '=', id).select(['u.id', 'u.is_user_seed']).executeTakeFirst();
  if (!row) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_NOT_FOUND);
  await trx.selectFrom('sys_user').select('id').where('id', '=', id).forUpdate().execute();
  return row;
}

/** Disables an account and ends its sessions. */
export async function disableAccount(db: Db, manager: Manager, scope: AccountScope, id: unknown): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await target(trx, manager, scope, id);
    if (row.id === manager.userId) throw new AppError(ACCOUNT_ERRORS.ACCOUNT_SELF);
    await trx.updateTable('sys_user').set({ status: ACCOUNT_STATUS.disabled, updated_at: new Date() }).where('id', '=', row.id).execute();
    await deleteUserSessions(trx, row.id);
  });
}

export async function enableAccount(db: Db, manager: Manager, scope: AccountScope, id: unknown): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await target(trx, manager, scope, id);
    await trx.updateTable('sys_user').set({ status: ACCOUNT_STATUS.active, updated_at: new Date() }).where('id', '=', row.id).execute();
  });
}

/** Lifts the lock of five wrong passwords. */
export async function unlockAccount(db: Db, manager: Manager, scope: AccountScope, id: unknown): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await target(trx, manager, scope, id);
    await trx.updateTable('sys_user').set({ failed_count: 0, locked_until: null }).where('id', '=', row.id).execute();
  });
}
