/**
 * What `npm run admin` does to the database: the authority's and a using unit's first accounts,
 * a password reset and an unlock. Each runs in one transaction and re-checks what it relies on
 * there, so a refused command (AdminError, exit status 2) writes nothing.
 *
 * The accounts get the standard roles the demo accounts have (db/seed.ts ensureRoles): an
 * authority administrator is what the demo's jgadmin is, a unit administrator what nbadmin is
 * (the unit's seed user, who sees the system menu). A password set here must be changed at the
 * account's next login (sys_user.password_must_change, migration 0018).
 *
 * A maintenance unit's administrator is what the demo's wbadmin is; its unit is linked to its row
 * in the maintenance-unit registry (the authority's list of licences) by credit code: the row's
 * accountUnitId is set, and with licence options the row's licence is written (a new row when the
 * registry has none for the code) — by the writer the registration approval uses.
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { todayIn } from '../../shared/dates';
import { inTransaction, type Db } from '../db/index';
import { newId } from '../db/ids';
import type { UnitRow } from '../db/schema';
import { ensureRoles, insertAccount, type RoleKey } from '../db/seed';
import { escapeLike } from '../db/sql';
import { makeUscc } from '../db/uscc';
import { maintenanceUnitAccount } from '../domain/equipment/maintenance-units';
import { loadCatalog } from '../resources/catalog';
import { compileModels, type ResourceModel } from '../resources/model';
import type { AnyDb } from '../resources/repository';
import { runHooks } from '../resources/writer';
import type { Hook } from '../resources/hooks';
import { writeMaintenanceLicence, type LicenceOutcome } from '../domain/maintenance/licence-registry';
import { passwordHasher } from '../services/password';
import { storePassword } from '../services/password-policy';
import { deleteUserSessions } from '../services/sessions';
import { AdminError } from './errors';

export type UnitKind = 'authority' | 'use' | 'inspection' | 'maintenance';

export interface NewAdministrator {
  kind: UnitKind;
  loginName: string;
  name: string;
  mobile: string | null;
  unitName: string;
  /** The unit's unified social credit code (checked by the caller); null: the area's authority unit, or a new code. */
  orgCode: string | null;
  areaCode: string;
  password: string;
  /** A maintenance unit's licence for its registry row (checked by the caller for form; items against the dictionary here). */
  licence?: MaintenanceLicence | null;
}

export interface MaintenanceLicence {
  licenceNo: string;
  /** YYYY-MM-DD, not before today. */
  expiryDate: string;
  items: string[];
}

/** What became of a maintenance unit's registry row: written with the licence, linked only, or none to link (the authority adds it). */
export type RegistryOutcome = 'created' | 'updated' | 'linked' | 'none';

export interface CreatedAdministrator {
  unit: Pick<UnitRow, 'orgname' | 'orgcode' | 'areacode'>;
  unitCreated: boolean;
  /** The unit's code was made up here (an authority unit created without --org-code). */
  orgCodeGenerated: boolean;
  /** A maintenance unit's row in the maintenance-unit registry. */
  registry?: RegistryOutcome;
}

const ROLE: Record<UnitKind, RoleKey> = { authority: 'authority', use: 'unitAdmin', inspection: 'inspector', maintenance: 'maintainer' };
const UNIT_KIND_NAMES: Record<string, string> = { authority: '监察机构', use: '使用单位', inspection: '检验机构', maintenance: '维保单位' };

const REGISTRY = 'maintenance-unit';
const LICENCE_ITEMS = 'maintenance-licence-item';

/** The registry's model, and whether its table has the accountUnitId column yet (the server brings tables to the models at start). */
async function registryModel(
  trx: Db,
): Promise<{ model: ResourceModel; dictItems: ReturnType<typeof loadCatalog>['dictItems']; items: readonly string[]; ready: boolean }> {
  const catalog = loadCatalog();
  const model = compileModels(catalog).find((m) => m.name === REGISTRY);
  if (!model) throw new Error(`resource '${REGISTRY}' is not in the schemas`);
  const column = model.byName.get('accountUnitId')!.column;
  const { rows } = await sql<{ found: boolean }>`
    SELECT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ${model.table} AND column_name = ${column}) AS found`.execute(
    trx,
  );
  return { model, dictItems: catalog.dictItems, items: catalog.dictValues.get(LICENCE_ITEMS) ?? [], ready: rows[0].found };
}

/**
 * Links a maintenance unit to its registry row (same credit code), writing the licence when given;
 * with a licence and no row, inserts one — the registration approval's writer
 * (domain/maintenance/licence-registry.ts), run with the registry's hooks as an effect runs it.
 */
async function linkRegistry(trx: Db, unit: UnitRow, input: NewAdministrator): Promise<RegistryOutcome> {
  const { licence } = input;
  if (licence && licence.expiryDate < todayIn())
    throw new AdminError(`--licence-expiry：许可证已过期（${licence.expiryDate}）`, `--licence-expiry: the licence has expired (${licence.expiryDate})`);
  const { model, dictItems, items, ready } = await registryModel(trx);
  if (!ready) {
    if (!licence) return 'none';
    throw new AdminError(
      '维保单位名录尚未建立：请先启动并停止一次门户服务，再运行本命令',
      'The maintenance-unit registry table does not exist yet: start and stop the portal server once, then run the command again',
    );
  }
  const unknown = licence?.items.filter((item) => !items.includes(item)) ?? [];
  if (unknown.length)
    throw new AdminError(
      `--licence-items：未知的许可项目 ${unknown.join('、')}（可选：${items.join('、')}）`,
      `--licence-items: unknown licence items ${unknown.join(', ')} (known: ${items.join(', ')})`,
    );
  // The command acts for the server (no account of its own): the id the open registration's visitor has.
  const actor = {
    userId: '0'.repeat(32),
    userName: '运维命令',
    unitId: unit.id,
    areaCode: unit.areacode,
    roleType: 'maintenance',
    menuIds: [],
    oversees: false,
  };
  // The registry's writes as an effect has them (its derive hook links the row), through the shared writer.
  let outcome = 'none' as LicenceOutcome;
  const write: Hook = async (ctx) => {
    outcome = await writeMaintenanceLicence(
      ctx,
      unit.orgcode,
      licence ? { licenceNo: licence.licenceNo, licenceItems: licence.items, expiryDate: licence.expiryDate } : null,
      { unitName: unit.orgname, area: unit.areacode, contactPerson: input.name },
    );
  };
  const hooks = new Map([
    ['maintenance-unit-account', maintenanceUnitAccount],
    ['create-maintenance-admin', write],
  ]);
  const runtime = { hooks, dicts: dictItems, models: new Map([[model.name, model]]) };
  // The registry is shared (no owner columns): the row the writes run for names no owner.
  await runHooks(runtime, ['create-maintenance-admin'], {
    trx: trx as AnyDb,
    actor,
    model,
    row: {},
    before: undefined,
    action: 'create-maintenance-admin',
    input: {},
  });
  if (outcome === 'licence-taken')
    throw new AdminError(
      `--licence-no：许可证编号 ${licence!.licenceNo} 已登记在其他维保单位名下`,
      `--licence-no: ${licence!.licenceNo} is registered to another unit`,
    );
  return outcome;
}

/** Refuses a login name that is taken (login names are unique across all units). */
async function assertLoginFree(db: Db, loginName: string): Promise<void> {
  const taken = await db.selectFrom('sys_user').select('id').where('login_name', '=', loginName).executeTakeFirst();
  if (taken) throw new AdminError(`登录账号 ${loginName} 已存在`, `The login name ${loginName} is taken`);
}

/** A made-up but well-formed code of a government body ("11") in the area: the authority logs in with it. */
function authorityCode(areaCode: string): string {
  const body = Array.from({ length: 8 }, () => String(randomInt(10))).join('');
  return makeUscc('11', areaCode, body);
}

/** The unit the administrator belongs to: the existing one with the code, or a new one. */
async function unitFor(trx: Db, input: NewAdministrator): Promise<{ unit: UnitRow; created: boolean; generated: boolean }> {
  let orgCode = input.orgCode;
  if (orgCode) {
    const existing = await trx.selectFrom('sys_unit').selectAll().where('orgcode', '=', orgCode).executeTakeFirst();
    if (existing) {
      if (existing.unit_type !== input.kind) {
        const kind = UNIT_KIND_NAMES[existing.unit_type] ?? existing.unit_type;
        throw new AdminError(
          `统一社会信用代码 ${orgCode} 已属于${kind}「${existing.orgname}」`,
          `The credit code ${orgCode} belongs to ${existing.orgname} (${existing.unit_type}), not a unit of this kind`,
        );
      }
      return { unit: existing, created: false, generated: false };
    }
  } else {
    // The authority without a code: its area's authority unit when there is one.
    const inArea = await trx.selectFrom('sys_unit').selectAll().where('unit_type', '=', 'authority').where('areacode', '=', input.areaCode).limit(2).execute();
    if (inArea.length > 1)
      throw new AdminError(
        `区域 ${input.areaCode} 有多个监察机构单位：请用 --org-code 指明`,
        `Area ${input.areaCode} has several authority units: name one with --org-code`,
      );
    if (inArea.length === 1) return { unit: inArea[0], created: false, generated: false };
    do orgCode = authorityCode(input.areaCode);
    while (await trx.selectFrom('sys_unit').select('id').where('orgcode', '=', orgCode).executeTakeFirst());
  }
  const unit = await trx
    .insertInto('sys_unit')
    .values({
      id: newId(),
      orgname: input.unitName,
      orgcode: orgCode,
      areacode: input.areaCode,
      contact: input.name,
      contact_phone: input.mobile,
      unit_type: input.kind,
      sso_user_id: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return { unit, created: true, generated: !input.orgCode };
}

/** Creates the administrator (and its unit when missing) with the standard role of its kind. */
export async function createAdministrator(db: Db, input: NewAdministrator): Promise<CreatedAdministrator> {
  const passwordHash = await passwordHasher.hash(input.password);
  return inTransaction(db, async (trx) => {
    await assertLoginFree(trx, input.loginName);
    const { unit, created, generated } = await unitFor(trx, input);
    if (input.kind !== 'authority') {
      const main = await trx.selectFrom('sys_user').select('login_name').where('unit_id', '=', unit.id).where('is_user_seed', '=', 1).executeTakeFirst();
      if (main) throw new AdminError(`单位「${unit.orgname}」已有主账号 ${main.login_name}`, `${unit.orgname} already has its main account ${main.login_name}`);
    }
    const role = ROLE[input.kind];
    await ensureRoles(trx, [role]);
    await insertAccount(trx, {
      id: newId(),
      unitId: unit.id,
      loginName: input.loginName,
      name: input.name,
      passwordHash,
      mobile: input.mobile,
      isUserSeed: 1,
      basicUnitFlag: 0,
      roles: [role],
      passwordMustChange: true,
    });
    const registry = input.kind === 'maintenance' ? await linkRegistry(trx, unit, input) : undefined;
    return { unit: { orgname: unit.orgname, orgcode: unit.orgcode, areacode: unit.areacode }, unitCreated: created, orgCodeGenerated: generated, registry };
  });
}

interface FoundAccount {
  id: string;
  login_name: string;
  status: string;
  orgcode: string;
}

/** The account with the login name; with `orgCode`, only if its unit has that code. */
async function findAccount(db: Db, loginName: string, orgCode: string | null): Promise<FoundAccount> {
  const row = await db
    .selectFrom('sys_user as u')
    .innerJoin('sys_unit as un', 'un.id', 'u.unit_id')
    .select(['u.id', 'u.login_name', 'u.status', 'un.orgcode'])
    .where('u.login_name', '=', loginName)
    .executeTakeFirst();
  if (!row) throw new AdminError(`没有登录账号 ${loginName}`, `No account with the login name ${loginName}`);
  if (orgCode && row.orgcode.toUpperCase() !== orgCode)
    throw new AdminError(`账号 ${loginName} 不属于统一社会信用代码为 ${orgCode} 的单位`, `The account ${loginName} is not of the unit ${orgCode}`);
  return row;
}

/** Rate-limit counters of the login name (routes/auth.ts: per account, per address and account). */
async function clearLoginCounters(db: Db, loginName: string): Promise<number> {
  const account = loginName.toLowerCase();
  const result = await db
    .deleteFrom('sys_rate_counter')
    .where((eb) => eb.or([eb('key', '=', `login:account:${account}`), eb('key', 'like', `login:ip-account:%:${escapeLike(account)}`)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export interface AccountState {
  /** The account is disabled (status '2'): the command does not enable it. */
  disabled: boolean;
  orgCode: string;
}

/**
 * Sets a new password the account must change at its next login, lifts a lock of wrong passwords
 * (the operator resets because the user cannot log in) and ends the account's sessions.
 */
export async function resetPassword(db: Db, loginName: string, orgCode: string | null, password: string): Promise<AccountState> {
  const passwordHash = await passwordHasher.hash(password);
  return inTransaction(db, async (trx) => {
    const account = await findAccount(trx, loginName, orgCode);
    await storePassword(trx, account.id, passwordHash, { mustChange: true });
    await trx.updateTable('sys_user').set({ failed_count: 0, locked_until: null }).where('id', '=', account.id).execute();
    await deleteUserSessions(trx, account.id);
    await clearLoginCounters(trx, account.login_name);
    return { disabled: account.status !== '0', orgCode: account.orgcode };
  });
}

/** Lifts the lock of five wrong passwords and the login name's rate-limit counters. */
export async function unlockAccount(db: Db, loginName: string, orgCode: string | null): Promise<AccountState & { wasLocked: boolean }> {
  return inTransaction(db, async (trx) => {
    const account = await findAccount(trx, loginName, orgCode);
    const before = await trx.selectFrom('sys_user').select(['failed_count', 'locked_until']).where('id', '=', account.id).executeTakeFirstOrThrow();
    await trx.updateTable('sys_user').set({ failed_count: 0, locked_until: null }).where('id', '=', account.id).execute();
    const counters = await clearLoginCounters(trx, account.login_name);
    const wasLocked = (before.locked_until !== null && before.locked_until.getTime() > Date.now()) || before.failed_count > 0 || counters > 0;
    return { disabled: account.status !== '0', orgCode: account.orgcode, wasLocked };
  });
}

export interface AdministratorRow {
  loginName: string;
  name: string;
  orgName: string;
  orgCode: string;
  areaCode: string;
  unitType: string;
  roles: string;
  locked: boolean;
  disabled: boolean;
  passwordMustChange: boolean;
}

/** The main accounts of every unit (the seed users: authority and unit administrators). */
export async function listAdministrators(db: Db, now = new Date()): Promise<AdministratorRow[]> {
  const rows = await db
    .selectFrom('sys_user as u')
    .innerJoin('sys_unit as un', 'un.id', 'u.unit_id')
    .select([
      'u.login_name',
      'u.name',
      'u.status',
      'u.locked_until',
      'u.password_must_change',
      'un.orgname',
      'un.orgcode',
      'un.areacode',
      'un.unit_type',
      sql<string>`(SELECT coalesce(string_agg(r.name, '、' ORDER BY r.sort, r.name), '') FROM sys_user_role ur JOIN sys_role r ON r.id = ur.role_id WHERE ur.user_id = u.id)`.as(
        'roles',
      ),
    ])
    .where('u.is_user_seed', '=', 1)
    .orderBy('un.unit_type')
    .orderBy('un.areacode')
    .orderBy('u.login_name')
    .execute();
  return rows.map((r) => ({
    loginName: r.login_name,
    name: r.name,
    orgName: r.orgname,
    orgCode: r.orgcode,
    areaCode: r.areacode,
    unitType: r.unit_type,
    roles: r.roles,
    locked: r.locked_until !== null && r.locked_until.getTime() > now.getTime(),
    disabled: r.status !== '0',
    passwordMustChange: r.password_must_change,
  }));
}
