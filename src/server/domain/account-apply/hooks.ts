/**
 * Effects of the authority's audits (schemas/resources/account-register-apply.json and
 * password-reset-apply.json), inside the action's transaction, so a failure undoes the audit:
 *
 * - account-register-approve: creates the unit, its main account (the password the applicant
 *   chose, from sys_register_secret) and gives it the using-unit role; a unit or login name taken
 *   since the application refuses the approval with the duplicate message. A maintenance unit
 *   (unitType maintenance) gets the maintenance role instead, and its licence goes to the
 *   maintenance-unit registry: a new row, or the row the authority already keeps with the same
 *   credit code, linked to the new unit by accountUnitId (maintenance/licence-registry.ts, which the
 *   admin command create-maintenance-admin shares);
 * - account-register-return / password-reset-return: tells the applicant by SMS with the opinion;
 * - password-reset-approve: a temporary password (letters and digits only, so it rates simple and
 *   the forced change dialog opens at the next login), hashed into the account, failures cleared,
 *   sent by SMS as a secret of the message (the outbox keeps it masked).
 */
import { randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { newId } from '../../db/ids';
import type { Database } from '../../db/schema';
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { openValue, sealValue } from '../../resources/sealed-fields';
import { passwordHasher } from '../../services/password';
import { storePassword } from '../../services/password-policy';
import { writeMaintenanceLicence } from '../maintenance/licence-registry';
import { deleteUserSessions } from '../../services/sessions';
import type { SecretText, SmsService } from '../../services/sms';
import { ACCOUNT_APPLY_ERRORS } from './errors';

export const REGISTER = 'account-register-apply';
export const RESET = 'password-reset-apply';

declare module '../../db/schema' {
  interface Database {
    sys_register_secret: { apply_id: string; password_hash: string; created_at: Date | string | undefined };
  }
}

/** The SMS service the hooks use (set by the feature's routes, which know the app). */
let hookSms: SmsService | null = null;
export function useSmsForHooks(sms: SmsService): void {
  hookSms = sms;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

async function notify(trx: unknown, mobile: string, purpose: string, message: string | SecretText): Promise<void> {
  if (!hookSms) return;
  await hookSms.notify(mobile, purpose, message, trx as never);
}

/** A maintenance unit's licence from its application, into the registry (the shared writer, maintenance/licence-registry.ts). */
async function registerMaintenanceLicence(ctx: HookContext, orgcode: string): Promise<void> {
  const { row } = ctx;
  const licence = {
    licenceNo: text(row.licenceNo),
    licenceItems: Array.isArray(row.licenceItems) ? (row.licenceItems as string[]) : [],
    expiryDate: text(row.licenceExpiry),
  };
  const outcome = await writeMaintenanceLicence(ctx, orgcode, licence, {
    unitName: text(row.orgname),
    area: text(row.areacode),
    address: text(row.address) || null,
    contactPerson: text(row.contact) || null,
    contactPhone: text(row.contactMobile) || null,
  });
  if (outcome === 'licence-taken') throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_LICENCE_NO_EXISTS);
}

export const approveRegistration: Hook = async (ctx) => {
  const { trx, row, model } = ctx;
  const db = trx as Kysely<Database>;
  // sm mode: the new unit's contact phone and account's mobile are sealed at rest (this resource's own mobile is, so its model has the cipher).
  const cipher = model.cipher;
  const orgcode = text(row.orgcode).toUpperCase();
  const loginName = text(row.loginName);
  if (await db.selectFrom('sys_unit').select('id').where('orgcode', '=', orgcode).executeTakeFirst())
    throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_UNIT_EXISTS);
  if (await db.selectFrom('sys_user').select('id').where('login_name', '=', loginName).executeTakeFirst())
    throw new AppError(ACCOUNT_APPLY_ERRORS.REGISTER_LOGIN_EXISTS);
  const secret = await db.selectFrom('sys_register_secret').select('password_hash').where('apply_id', '=', text(row.id)).executeTakeFirst();
  if (!secret) throw new AppError('WRONG_STATE');
  const unitType = text(row.unitType) || 'use';
  // The standard role of the kind: a maintenance unit's (role type maintenance), else the using unit's administrator.
  const roleType = unitType === 'maintenance' ? 'maintenance' : 'unit';
  const role = await db.selectFrom('sys_role').select('id').where('role_type', '=', roleType).orderBy('sort').executeTakeFirst();
  if (!role) throw new AppError('WRONG_STATE');
  const unitId = newId();
  const userId = newId();
  const now = new Date();
  await db
    .insertInto('sys_unit')
    .values({
      id: unitId,
      orgname: text(row.orgname),
      orgcode,
      areacode: text(row.areacode),
      address: text(row.address),
      contact: text(row.contact),
      contact_phone: sealValue(cipher, text(row.contactMobile)),
      unit_type: unitType,
      sso_user_id: null,
      created_at: now,
    })
    .execute();
  await db
    .insertInto('sys_user')
    .values({
      id: userId,
      unit_id: unitId,
      login_name: loginName,
      name: text(row.contact),
      password_hash: secret.password_hash,
      phone: null,
      mobile: sealValue(cipher, text(row.contactMobile)),
      id_card: null,
      is_user_seed: 1,
      basic_unit_flag: 0,
      office_id: null,
      locked_until: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await db.insertInto('sys_user_role').values({ user_id: userId, role_id: role.id }).execute();
  if (unitType === 'maintenance') await registerMaintenanceLicence(ctx, orgcode);
  await db.deleteFrom('sys_register_secret').where('apply_id', '=', text(row.id)).execute();
  await notify(
    trx,
    text(row.contactMobile),
    'register-result',
    `您的企业账号注册申请（${text(row.applyNo)}）已审核通过，请使用登录账号 ${loginName} 和注册时设置的密码登录。`,
  );
  return { createdUnitId: unitId };
};

export const returnRegistration: Hook = async ({ trx, row, opinion }) => {
  await notify(
    trx,
    text(row.contactMobile),
    'register-result',
    `您的企业账号注册申请（${text(row.applyNo)}）未通过审核：${opinion ?? ''}。请在注册进度查询中修改后重新提交。`,
  );
};

const LOWER = 'abcdefghjkmnpqrstuvwxyz';
const DIGITS = '23456789';

/** 10 characters of lowercase letters and digits (both present): 2 character classes, so it rates simple. */
export function temporaryPassword(): string {
  const all = LOWER + DIGITS;
  const chars = [LOWER[randomInt(LOWER.length)], DIGITS[randomInt(DIGITS.length)], ...Array.from({ length: 8 }, () => all[randomInt(all.length)])];
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}

export const approveReset: Hook = async ({ trx, row, model }) => {
  const db = trx as Kysely<Database>;
  const user = await db.selectFrom('sys_user').select(['id', 'mobile']).where('id', '=', text(row.accountId)).executeTakeFirst();
  if (!user) throw new AppError('RECORD_NOT_FOUND');
  const password = temporaryPassword();
  await storePassword(db, user.id, await passwordHasher.hash(password));
  await db.updateTable('sys_user').set({ failed_count: 0, locked_until: null }).where('id', '=', user.id).execute();
  // Sessions signed in with the old password end.
  await deleteUserSessions(db, user.id);
  // The password is a secret of the message: delivered, never kept (the outbox has ******).
  await notify(trx, openValue(model.cipher, user.mobile) ?? text(row.mobile), 'reset-result', {
    text: `您的密码重置申请（${text(row.applyNo)}）已通过，临时密码为 ${password} ，请登录后立即修改密码。`,
    secrets: [password],
  });
};

export const returnReset: Hook = async ({ trx, row, opinion }) => {
  await notify(trx, text(row.mobile), 'reset-result', `您的密码重置申请（${text(row.applyNo)}）未通过审核：${opinion ?? ''}。`);
};
