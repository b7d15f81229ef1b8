/**
 * Login: password (RSA-encrypted fields + captcha), SSO token, and regional SSO; then the session.
 *
 * Timing: the password check always runs scrypt — against the user's hash, or a dummy hash of the
 * same cost when the account does not exist — so the reply time does not reveal which accounts
 * exist. The org code is compared only after the password matched, so it cannot be probed either.
 */
import { sql } from 'kysely';
import type { LoginResult } from '../../shared/contract';
import type { Config } from '../config';
import type { Db } from '../db/index';
import type { UnitRow, UserRow } from '../db/schema';
import { AppError } from '../errors';
import { consumeCaptcha } from './captcha';
import { passwordHasher, passwordStrength, SIMPLE_PASSWORD_THRESHOLD } from './password';
import type { ServerKeys } from './server-keys';
import { createSession, purgeExpiredSessions } from './sessions';
import { verifySsoToken } from './sso';
import { cipherOf } from '../resources/sealed-fields';
import { findRoles, findUserByLoginName, toUserInfo } from './users';

/** Consecutive failures that lock an account, and for how long (the message says 15 minutes). */
export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;

const ACTIVE_STATUS = '0';

export interface AuthDeps {
  db: Db;
  keys: ServerKeys;
  config: Pick<Config, 'captchaEnabled' | 'sessionTtlMinutes' | 'crypto' | 'masterKey' | 'singleSession' | 'passwordMaxAgeDays'>;
}

export interface Authenticated {
  user: UserRow;
  unit: UnitRow;
  simplePwd: boolean;
  method: 'password' | 'sso' | 'regionalSso';
}

export interface PasswordCredentials {
  /** RSA-OAEP encrypted, base64. */
  username: string;
  password: string;
  orgCode: string;
  validateCode?: string;
  captchaId?: string;
  /** Called with the decrypted login name before it is looked up; throws to refuse the attempt. */
  throttle?: (loginName: string) => Promise<void>;
}

function isLocked(user: UserRow, now: Date): boolean {
  return user.locked_until !== null && user.locked_until.getTime() > now.getTime();
}

/** Counts a failed attempt (restarting the count after an expired lock); true when now locked. */
async function recordFailure(db: Db, userId: string, now: Date): Promise<boolean> {
  const lockExpired = sql<boolean>`(locked_until is not null and locked_until <= ${now})`;
  const nextCount = sql<number>`(case when ${lockExpired} then 1 else failed_count + 1 end)`;
  const lockUntil = new Date(now.getTime() + LOCK_MINUTES * 60_000);
  const row = await db
    .updateTable('sys_user')
    .set({
      failed_count: nextCount,
      locked_until: sql<Date | null>`(case when ${nextCount} >= ${MAX_FAILED_LOGINS} then ${lockUntil}::timestamptz when ${lockExpired} then null else locked_until end)`,
    })
    .where('id', '=', userId)
    .returning('locked_until')
    .executeTakeFirstOrThrow();
  return row.locked_until !== null && row.locked_until.getTime() > now.getTime();
}

async function resetFailures(db: Db, user: UserRow): Promise<void> {
  if (user.failed_count === 0 && user.locked_until === null) return;
  await db.updateTable('sys_user').set({ failed_count: 0, locked_until: null }).where('id', '=', user.id).execute();
}

function decryptAll(keys: ServerKeys, credentials: PasswordCredentials): { loginName: string; password: string; orgCode: string } {
  const loginName = keys.decrypt(credentials.username);
  const password = keys.decrypt(credentials.password);
  const orgCode = keys.decrypt(credentials.orgCode);
  if (loginName === null || password === null || orgCode === null) throw new AppError('CREDENTIALS_UNDECRYPTABLE');
  return { loginName: loginName.trim(), password, orgCode: orgCode.trim().toUpperCase() };
}

export async function authenticateWithPassword(deps: AuthDeps, credentials: PasswordCredentials, now = new Date()): Promise<Authenticated> {
  const { db, keys, config } = deps;
  if (config.captchaEnabled && !(await consumeCaptcha(db, credentials.captchaId, credentials.validateCode))) {
    throw new AppError('CAPTCHA_INVALID');
  }
  const { loginName, password, orgCode } = decryptAll(keys, credentials);
  await credentials.throttle?.(loginName);

  const found = await findUserByLoginName(db, loginName);
  const passwordMatches = await passwordHasher.verify(password, found?.user.password_hash ?? (await passwordHasher.dummyHash()));
  if (!found) throw new AppError('INVALID_CREDENTIALS');

  const { user, unit } = found;
  if (isLocked(user, now)) throw new AppError('ACCOUNT_LOCKED');
  if (!passwordMatches || unit.orgcode.toUpperCase() !== orgCode) {
    const locked = await recordFailure(db, user.id, now);
    if (locked) throw new AppError('ACCOUNT_LOCKED');
    throw new AppError(passwordMatches ? 'ORG_CODE_MISMATCH' : 'INVALID_CREDENTIALS');
  }
  if (user.status !== ACTIVE_STATUS) throw new AppError('ACCOUNT_DISABLED');
  await resetFailures(db, user);
  return { user, unit, simplePwd: passwordStrength(password) < SIMPLE_PASSWORD_THRESHOLD, method: 'password' };
}

async function authenticateSsoUser(db: Db, loginName: string, method: Authenticated['method'], now: Date): Promise<Authenticated> {
  const found = await findUserByLoginName(db, loginName);
  if (!found || found.user.status !== ACTIVE_STATUS) throw new AppError('SSO_TOKEN_INVALID');
  if (isLocked(found.user, now)) throw new AppError('ACCOUNT_LOCKED');
  return { ...found, simplePwd: false, method };
}

/** `ssotoken`: a signed token naming the user (services/sso.ts). */
export async function authenticateWithSsoToken(deps: AuthDeps, token: string, now = new Date()): Promise<Authenticated> {
  const claims = verifySsoToken(deps.keys.ssoSecret, token, now.getTime());
  if (!claims) throw new AppError('SSO_TOKEN_INVALID');
  return authenticateSsoUser(deps.db, claims.loginName, 'sso', now);
}

function decodeRequestInfo(reqInfoBase64Str: string): { loginName?: unknown } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(reqInfoBase64Str.trim().replace(/ /g, '+'), 'base64').toString('utf8'));
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
}

/** Regional SSO: `reqInfoBase64Str` names the user; `ynSsoToken` must be a signed token for the same name. */
export async function authenticateWithRegionalSso(deps: AuthDeps, reqInfoBase64Str: string, ynSsoToken: string, now = new Date()): Promise<Authenticated> {
  const info = decodeRequestInfo(reqInfoBase64Str);
  const claims = verifySsoToken(deps.keys.ssoSecret, ynSsoToken, now.getTime());
  if (!info || !claims || info.loginName !== claims.loginName) throw new AppError('SSO_TOKEN_INVALID');
  return authenticateSsoUser(deps.db, claims.loginName, 'regionalSso', now);
}

/**
 * Opens a session on the user's first role and builds the login reply (the tokens go to the
 * browser, their digests to sys_session). With PORTAL_SINGLE_SESSION the account's other sessions end.
 */
export async function openSession(deps: AuthDeps, auth: Authenticated, data: Record<string, unknown>): Promise<LoginResult> {
  const { db, config } = deps;
  const roles = await findRoles(db, auth.user.id);
  const current = roles[0];
  if (!current) throw new AppError('ACCOUNT_WITHOUT_ROLE');
  await purgeExpiredSessions(db, config.sessionTtlMinutes);
  const session = await createSession(
    db,
    { userId: auth.user.id, roleId: current.id, simplePwd: auth.simplePwd, data: { ...data, method: auth.method }, single: config.singleSession },
    config.crypto,
  );
  return {
    sessionid: session.token,
    sessionId: session.token,
    extendSessionId: session.extendToken,
    user: toUserInfo(auth.user, auth.unit, current, auth.simplePwd, config.passwordMaxAgeDays, cipherOf(config)),
    roleList: roles,
  };
}
