/** Reading users, their unit and roles, and shaping them for the wire contract. */
import type { Role, UnitInfo, UserInfo } from '../../shared/contract';
import type { Db } from '../db/index';
import type { RoleRow, UnitRow, UserRow } from '../db/schema';
import { openValue } from '../resources/sealed-fields';
import type { FieldCipher } from '../resources/sealed-columns';
import { passwordChangeReason } from './password-policy';

export interface UserWithUnit {
  user: UserRow;
  unit: UnitRow;
}

export async function findUserByLoginName(db: Db, loginName: string): Promise<UserWithUnit | null> {
  const user = await db.selectFrom('sys_user').selectAll().where('login_name', '=', loginName).executeTakeFirst();
  if (!user) return null;
  const unit = await db.selectFrom('sys_unit').selectAll().where('id', '=', user.unit_id).executeTakeFirstOrThrow();
  return { user, unit };
}

export async function findUserById(db: Db, userId: string): Promise<UserWithUnit> {
  const user = await db.selectFrom('sys_user').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const unit = await db.selectFrom('sys_unit').selectAll().where('id', '=', user.unit_id).executeTakeFirstOrThrow();
  return { user, unit };
}

/** The user's roles, in display order; the first is the default current role. */
export async function findRoles(db: Db, userId: string): Promise<Role[]> {
  const rows = await db
    .selectFrom('sys_role as r')
    .innerJoin('sys_user_role as ur', 'ur.role_id', 'r.id')
    .selectAll('r')
    .where('ur.user_id', '=', userId)
    .orderBy('r.sort')
    .orderBy('r.name')
    .execute();
  return rows.map(toRole);
}

export function toRole(row: RoleRow): Role {
  return { id: row.id, name: row.name, roleType: row.role_type, menuIdList: row.menu_ids ?? [] };
}

/**
 * `passwordMaxAgeDays`: PORTAL_PASSWORD_MAX_AGE_DAYS, which makes an old password one to change
 * first; `cipher`: that of sm mode (resources/sealed-fields.ts `cipherOf`), which opens the
 * sealed mobile and ID card — the user sees its own whole.
 */
export function toUserInfo(
  user: UserRow,
  unit: UnitRow,
  currentRole: Role | null,
  simplePwd: boolean,
  passwordMaxAgeDays = 0,
  cipher: FieldCipher | null = null,
): UserInfo {
  const changeReason = passwordChangeReason(user, passwordMaxAgeDays);
  return {
    id: user.id,
    loginName: user.login_name,
    name: user.name,
    phone: user.phone,
    mobile: openValue(cipher, user.mobile),
    idCard: openValue(cipher, user.id_card),
    userUnitAreacode: unit.areacode,
    currentRole: currentRole ? { id: currentRole.id, roleType: currentRole.roleType, name: currentRole.name } : null,
    officeId: user.office_id,
    isUserSeed: user.is_user_seed === 1 ? 1 : 0,
    simplePwd,
    passwordMustChange: changeReason !== null,
    passwordChangeReason: changeReason,
    basicUnitFlag: user.basic_unit_flag === 1 ? 1 : 0,
    orgName: unit.orgname,
    ssoUserId: unit.sso_user_id,
  };
}

/** `cipher` as for toUserInfo: opens the sealed contact phone. */
export function toUnitInfo(unit: UnitRow, cipher: FieldCipher | null = null): UnitInfo {
  return {
    id: unit.id,
    orgname: unit.orgname,
    orgcode: unit.orgcode,
    areacode: unit.areacode,
    address: unit.address,
    contact: unit.contact,
    contactPhone: openValue(cipher, unit.contact_phone),
    unitType: unit.unit_type,
  };
}
