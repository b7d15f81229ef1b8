/**
 * Security events in the audit log (resource `auth`, shown as 登录与账号安全): sign-in, a refused
 * sign-in, sign-out and a password change, with the client address and, for a refusal, the reason.
 * Written through appendAudit, so they are chained like every other row, and carry the account's
 * unit and area so the authority's audit screen shows its area's events.
 */
import type { FieldChange } from '../resources/changes';
import { appendAudit } from '../resources/audit';
import type { AnyDb } from '../resources/repository';

export type SecurityEvent = 'login' | 'login-failed' | 'logout' | 'password-change';

export interface SecurityActor {
  userId: string | null;
  userName: string | null;
  unitId: string | null;
  areaCode: string | null;
}

const line = (field: string, label: string, to: string): FieldChange => ({ field, label, from: '', to });

export async function auditSecurityEvent(
  db: AnyDb,
  event: SecurityEvent,
  actor: SecurityActor,
  account: string,
  details: { ip: string; method?: string; reason?: string },
): Promise<void> {
  const changes = [line('ip', '来源地址', details.ip)];
  if (details.method) changes.push(line('method', '方式', details.method));
  if (details.reason) changes.push(line('reason', '原因', details.reason));
  await appendAudit(db, { ...actor, resource: 'auth', recordId: account.slice(0, 64), operation: event, changes });
}

/** A refused sign-in names only what was typed: the account's unit when exactly one account has that login name. */
export async function failedLoginActor(db: AnyDb, loginName: string): Promise<SecurityActor> {
  const rows = await (
    db as unknown as import('kysely').Kysely<{
      sys_user: { id: string; name: string; unit_id: string; login_name: string };
      sys_unit: { id: string; areacode: string };
    }>
  )
    .selectFrom('sys_user as u')
    .innerJoin('sys_unit as o', 'o.id', 'u.unit_id')
    .select(['u.id', 'u.name', 'u.unit_id', 'o.areacode'])
    .where((eb) => eb(eb.fn('lower', ['u.login_name']), '=', loginName.toLowerCase()))
    .limit(2)
    .execute();
  if (rows.length !== 1) return { userId: null, userName: null, unitId: null, areaCode: null };
  return { userId: rows[0].id, userName: rows[0].name, unitId: rows[0].unit_id, areaCode: rows[0].areacode };
}
