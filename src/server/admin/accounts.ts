/**
 * What `npm run admin` does to the database: the authority's and a using unit's first accounts,
 * a password reset and an unlock. Each runs in one transaction and re-checks what it relies on
 * there, so a refused command (AdminError, exit status 2) writes nothing.
 *
 * The accounts get the standard roles the demo accounts have (db/seed.ts ensureRoles): an
 * authority administrator is what the demo's jgadmin is, a unit administrator what nbadmin is
 * (the unit's seed user, who sees the system menu). A password set here must be changed at the
 * account's next login (sys_user.password_must_change, migration 0018).
 */
import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { inTransaction, type Db } from '../db/index';
import { newId } from '../db/ids';
import type { UnitRow } from '../db/schema';
import { ensureRoles, insertAccount, type RoleKey } from '../db/seed';
import { escapeLike } from '../db/sql';
import { makeUscc } from '../db/uscc';
import { passwordHasher } from '../services/password';
import { storePassword } from '../services/password-policy';
import { deleteUserSessions } from '../services/sessions';
import { AdminError } from './errors';

export type UnitKind = 'authority' | 'use' | 'inspection';

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
}

export interface CreatedAdministrator {
  unit: Pick<UnitRow, 'orgname' | 'orgcode' | 'areacode'>;
  unitCreated: boolean;
  /** The unit's code was made up here (an authority unit created without --org-code). */
  orgCodeGenerated: boolean;
}

const ROLE: Record<UnitKind, RoleKey> = { authority: 'authority', use: 'unitAdmin', inspection: 'inspector' };
const UNIT_KIND_NAMES: Record<string, string> = { authority: '监察机构', use: '使用单位', inspection: '检验机构' };

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
    return { unit: { orgname: unit.orgname, orgcode: unit.orgcode, areacode: unit.areacode }, unitCreated: created, orgCodeGenerated: generated };
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
