/**
 * What tables that anyone may write to must not keep for ever: expired captchas and sessions, old
 * rate counters, error reports past their retention, and visitor error reports beyond their cap;
 * text messages and spent SMS codes past their retention, and expired external-link tokens.
 * Run by plugins/housekeeping.ts on a timer (every process; each step is an idempotent delete).
 */
import type { Db } from '../db/index';
import { pruneAuditLog } from './audit-chain';
import { pruneCaptchas } from './captcha';
import { pruneLinkTokens } from './link-token';
import { pruneRateCounters } from './rate-counter';
import { purgeExpiredSessions } from './sessions';
import { pruneSms } from './sms';

export interface HousekeepingLimits {
  sessionTtlMinutes: number;
  errorLogDays: number;
  visitorErrorLogCap: number;
  /** Audit rows older than this go; the chain keeps an anchor (audit-chain.ts). */
  auditRetentionDays: number;
  smsRetentionDays: number;
}

export interface HousekeepingReport {
  captchas: number;
  counters: number;
  errorLogs: number;
  auditLogs: number;
  /** Text messages and SMS codes. */
  sms: number;
  linkTokens: number;
}

/** Error reports older than the retention, and visitor reports beyond the newest `cap`. */
export async function pruneErrorLogs(db: Db, days: number, cap: number, now = new Date()): Promise<number> {
  const old = await db
    .deleteFrom('sys_error_log')
    .where('time', '<', new Date(now.getTime() - days * 86_400_000))
    .executeTakeFirst();
  const oldestKept = await db
    .selectFrom('sys_error_log')
    .select('time')
    .where('user_id', 'is', null)
    .orderBy('time', 'desc')
    .offset(cap - 1)
    .limit(1)
    .executeTakeFirst();
  const over = oldestKept
    ? await db.deleteFrom('sys_error_log').where('user_id', 'is', null).where('time', '<', oldestKept.time).executeTakeFirst()
    : { numDeletedRows: 0n };
  return Number(old.numDeletedRows) + Number(over.numDeletedRows);
}

export async function runHousekeeping(db: Db, limits: HousekeepingLimits, now = new Date()): Promise<HousekeepingReport> {
  const captchas = await pruneCaptchas(db, now);
  const counters = await pruneRateCounters(db, now);
  await purgeExpiredSessions(db, limits.sessionTtlMinutes, now);
  const errorLogs = await pruneErrorLogs(db, limits.errorLogDays, limits.visitorErrorLogCap, now);
  const auditLogs = await pruneAuditLog(db, limits.auditRetentionDays, now);
  const sms = await pruneSms(db, limits.smsRetentionDays, now);
  const linkTokens = await pruneLinkTokens(db, now);
  return { captchas, counters, errorLogs, auditLogs, sms, linkTokens };
}
