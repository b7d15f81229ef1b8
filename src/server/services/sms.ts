/**
 * Text messages and verification codes: one interface, the provider chosen by configuration
 * (PORTAL_SMS_PROVIDER):
 *
 *   outbox (default)  each message is a row of `sys_sms_outbox` and a log line (the demo: README
 *                     shows how to read the codes)
 *   log               a log line only
 *
 * A real gateway is one more `SmsProvider`. A message delivers its whole `text`; what is kept at
 * rest (the outbox row) is its `storedText`, where every secret part (a temporary password: see
 * `SecretText`) is masked as ******. A code's text is stored as it was sent: the demo reads codes
 * from the outbox, a code is only valid 5 minutes and once, and the housekeeping job deletes
 * messages after PORTAL_SMS_RETENTION_DAYS (`pruneSms`).
 *
 * Codes (`send` / `verify`), per purpose and mobile:
 * 6 digits, valid 5 minutes, single use; at most 1 per minute and 10 per day per mobile (the
 * database rate counter, so every process counts together); 5 wrong tries void the code. Only a
 * hash of a code is stored. Callers that must not reveal whether a mobile is known (a login name,
 * a credit code) answer the same text whatever `send` did: see `sendQuietly`.
 *
 *   const sms = smsService(app);          // in a route
 *   await sms.send('register', mobile);   // throws SMS_TOO_FREQUENT / SMS_DAILY_LIMIT
 *   if (!(await sms.verify('register', mobile, code))) throw new AppError('SMS_CODE_INVALID');
 *   await sms.notify(mobile, 'apply', '您的申请已通过');
 *   await sms.notify(mobile, 'reset', { text: `临时密码为 ${password}`, secrets: [password] });
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config';
import { newId } from '../db/ids';
import type { Db } from '../db/index';
import { AppError, defineErrors } from '../errors';
import { countHit } from './rate-counter';

declare module '../db/schema' {
  interface Database {
    sys_sms_outbox: SmsOutboxTable;
    sys_sms_code: SmsCodeTable;
  }
}

export interface SmsOutboxTable {
  id: string;
  mobile: string;
  purpose: string;
  text: string;
  provider: string;
  created_at: Date | string | undefined;
}

export interface SmsCodeTable {
  id: string;
  purpose: string;
  mobile: string;
  code_hash: string;
  expires_at: Date;
  tries: number | undefined;
  used_at: Date | null;
  created_at: Date | string | undefined;
}

export const SMS_ERRORS = defineErrors({
  /** A second code for the same mobile within a minute. */
  SMS_TOO_FREQUENT: { status: 429, message: '验证码发送过于频繁，请1分钟后再试' },
  /** The 11th code for the same mobile within a day. */
  SMS_DAILY_LIMIT: { status: 429, message: '该手机号今日获取验证码次数已达上限，请明天再试' },
  /** Wrong, expired, used or voided code (one message for all: nothing to learn from it). */
  SMS_CODE_INVALID: { status: 400, message: '短信验证码错误或已失效，请重新获取' },
  /** Not a mobile number (the original portal's mobile rule). */
  SMS_MOBILE_INVALID: { status: 400, message: '请输入有效的手机号码' },
});

export const CODE_TTL_MS = 5 * 60_000;
export const MAX_WRONG_TRIES = 5;
export const PER_MINUTE = 1;
export const PER_DAY = 10;
const DAY_MS = 24 * 60 * 60_000;
const MOBILE = /^1[3-9]\d{9}$/;

/** One message: `text` is what the recipient gets, `storedText` what may be kept (secrets masked). */
export interface SmsMessage {
  mobile: string;
  purpose: string;
  text: string;
  storedText: string;
}

/** Who delivers a message: the whole `text` to the recipient; anything it keeps is `storedText`. */
export interface SmsProvider {
  readonly name: string;
  deliver(db: Db, message: SmsMessage): Promise<void>;
}

/** A message text with secret parts (a temporary password): delivered whole, stored with each secret masked. */
export interface SecretText {
  text: string;
  secrets: readonly string[];
}

export const SECRET_MASK = '******';

/** The text to keep of a message: each secret (non-empty) replaced by ******. */
export function maskSecrets({ text, secrets }: SecretText): string {
  return secrets.filter((secret) => secret !== '').reduce((masked, secret) => masked.split(secret).join(SECRET_MASK), text);
}

const mask = (mobile: string) => `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;

/**
 * The demo provider: every message goes to table sys_sms_outbox (where the README tells users to
 * read demo codes) with its secrets masked (`storedText`). The log line at debug (LOG_LEVEL=debug)
 * is the demo's delivery: the whole text, as a gateway would get it. At info the log says only that
 * a message went out (masked mobile, purpose).
 */
export function outboxProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'outbox',
    async deliver(db, { mobile, purpose, text, storedText }) {
      await db.insertInto('sys_sms_outbox').values({ id: newId(), mobile, purpose, text: storedText, provider: 'outbox' }).execute();
      log.info({ sms: { mobile: mask(mobile), purpose } }, 'sms (outbox)');
      log.debug({ sms: { mobile, purpose, text } }, 'sms (outbox) text');
    },
  };
}

export function logProvider(log: FastifyBaseLogger): SmsProvider {
  return {
    name: 'log',
    async deliver(_db, { mobile, purpose, text }) {
      log.info({ sms: { mobile: mask(mobile), purpose, text } }, 'sms (log)');
    },
  };
}

export function providerOf(config: Pick<Config, 'smsProvider'>, log: FastifyBaseLogger): SmsProvider {
  return config.smsProvider === 'log' ? logProvider(log) : outboxProvider(log);
}

const hashOf = (purpose: string, mobile: string, code: string) => createHash('sha256').update(`${purpose}\u0000${mobile}\u0000${code}`).digest('hex');

export const isMobile = (value: unknown): value is string => typeof value === 'string' && MOBILE.test(value);

export interface SmsService {
  /** Sends a new 6-digit code for `purpose` to `mobile` (earlier unused ones of that purpose are void). */
  send(purpose: string, mobile: string, now?: Date): Promise<void>;
  /** Whether `code` is the live code of purpose + mobile; true uses it up. A wrong one counts a try (5 void it). */
  verify(purpose: string, mobile: string, code: unknown, now?: Date): Promise<boolean>;
  /** Like verify, but a right code stays usable (a form checks it before it submits); a wrong one counts a try. */
  check(purpose: string, mobile: string, code: unknown, now?: Date): Promise<boolean>;
  /** Sends a plain message (a result), or one with secrets (a temporary password: only a masked copy is kept). */
  notify(mobile: string, purpose: string, text: string | SecretText, db?: Db): Promise<void>;
  readonly provider: SmsProvider;
}

export function createSmsService(db: Db, provider: SmsProvider, signature = ''): SmsService {
  const signed = (text: string) => (signature ? `【${signature}】${text}` : text);
  async function limit(mobile: string, now: Date): Promise<void> {
    const minute = await countHit(db, `sms:m:${mobile}`, 60_000, now);
    if (minute.count > PER_MINUTE) throw new AppError(SMS_ERRORS.SMS_TOO_FREQUENT);
    const day = await countHit(db, `sms:d:${mobile}`, DAY_MS, now);
    if (day.count > PER_DAY) throw new AppError(SMS_ERRORS.SMS_DAILY_LIMIT);
  }

  async function match(purpose: string, mobile: string, code: unknown, consume: boolean, now: Date): Promise<boolean> {
    if (!isMobile(mobile)) return false;
    const row = await db
      .selectFrom('sys_sms_code')
      .selectAll()
      .where('purpose', '=', purpose)
      .where('mobile', '=', mobile)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return false;
    const given = typeof code === 'string' && /^\d{6}$/.test(code.trim()) ? hashOf(purpose, mobile, code.trim()) : '';
    const right = given.length === row.code_hash.length && timingSafeEqual(Buffer.from(given), Buffer.from(row.code_hash));
    if (!right) {
      // Count the try; the fifth voids the code.
      await db
        .updateTable('sys_sms_code')
        .set({ tries: sql<number>`tries + 1`, used_at: sql<Date | null>`case when tries + 1 >= ${MAX_WRONG_TRIES} then ${now}::timestamptz else used_at end` })
        .where('id', '=', row.id)
        .execute();
      return false;
    }
    if (!consume) return true;
    // Single use, also between two concurrent requests: only one update finds it unused.
    const used = await db
      .updateTable('sys_sms_code')
      .set({ used_at: now })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return !!used;
  }

  const service: SmsService = {
    provider,
    async send(purpose, mobile, now = new Date()) {
      if (!isMobile(mobile)) throw new AppError(SMS_ERRORS.SMS_MOBILE_INVALID);
      await limit(mobile, now);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('sys_sms_code')
          .set({ used_at: now })
          .where('purpose', '=', purpose)
          .where('mobile', '=', mobile)
          .where('used_at', 'is', null)
          .execute();
        await trx
          .insertInto('sys_sms_code')
          .values({
            id: newId(),
            purpose,
            mobile,
            code_hash: hashOf(purpose, mobile, code),
            expires_at: new Date(now.getTime() + CODE_TTL_MS),
            tries: 0,
            used_at: null,
            created_at: now,
          })
          .execute();
        // Stored as sent (see the header): the demo reads codes from the outbox; the code table keeps a hash only.
        const text = signed(`您的验证码为${code}，5分钟内有效，请勿泄露。`);
        await provider.deliver(trx, { mobile, purpose, text, storedText: text });
      });
    },
    verify: (purpose, mobile, code, now = new Date()) => match(purpose, mobile, code, true, now),
    check: (purpose, mobile, code, now = new Date()) => match(purpose, mobile, code, false, now),
    async notify(mobile, purpose, message, on = db) {
      if (!isMobile(mobile)) return;
      const { text, secrets } = typeof message === 'string' ? { text: message, secrets: [] } : message;
      await provider.deliver(on, { mobile, purpose, text: signed(text), storedText: signed(maskSecrets({ text, secrets })) });
    },
  };
  return service;
}

/** The app's SMS service (one per app instance). */
const services = new WeakMap<FastifyInstance, SmsService>();
export function smsService(app: FastifyInstance): SmsService {
  let service = services.get(app);
  if (!service) {
    service = createSmsService(app.db, providerOf(app.config, app.log), app.config.productName);
    services.set(app, service);
  }
  return service;
}

/**
 * Sends a code where the caller must not learn whether the target exists: `mobile` null (nothing
 * registered) sends nothing, and a rate limit of a real mobile is swallowed; either way the
 * caller answers the same text. A dummy hash keeps the work of both paths alike.
 */
export async function sendQuietly(sms: SmsService, purpose: string, mobile: string | null): Promise<void> {
  if (!mobile) {
    hashOf(purpose, '00000000000', String(randomInt(0, 1_000_000)));
    return;
  }
  try {
    await sms.send(purpose, mobile);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
  }
}

/**
 * Deletes text messages older than `days`, and codes used or expired more than `days` ago (a code
 * row is a hash, useless once spent; the outbox rows hold the code texts). Returns the rows deleted.
 */
export async function pruneSms(db: Db, days: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - days * DAY_MS);
  const messages = await db.deleteFrom('sys_sms_outbox').where('created_at', '<', before).executeTakeFirst();
  const codes = await db
    .deleteFrom('sys_sms_code')
    .where((eb) => eb.or([eb('used_at', '<', before), eb('expires_at', '<', before)]))
    .executeTakeFirst();
  return Number(messages.numDeletedRows) + Number(codes.numDeletedRows);
}

/** The newest messages of a mobile (tests, README demo). */
export async function outboxOf(db: Db, mobile: string): Promise<{ text: string; purpose: string; created_at: unknown }[]> {
  return db.selectFrom('sys_sms_outbox').select(['text', 'purpose', 'created_at']).where('mobile', '=', mobile).orderBy('created_at', 'desc').execute();
}

/** The 6-digit code in a message text (tests, the demo). */
export const codeIn = (text: string): string | null => /验证码为(\d{6})/.exec(text)?.[1] ?? null;
