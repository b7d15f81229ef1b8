/**
 * What anyone may call without a session is bounded: captcha images per IP and a capped
 * captcha store; browser error reports per visitor IP, capped and pruned; logins limited per
 * account and per address and account under a high per-IP ceiling, so one guesser behind a NAT does
 * not lock out the other companies on that address. Counters live in the database
 * (sys_rate_counter), shared by every process.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/db/index';
import { newId } from '../../src/server/db/ids';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import { API, type Envelope } from '../../src/shared/contract';
import { api, appSuite, dbTargets, demo, login, withSession } from './helpers';

const count = async (db: Db, table: string, where = 'true') =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${sql.raw(where)}`.execute(db)).rows[0].n;

const RATE_LIMITED = { result: 'false', code: 'RATE_LIMITED', message: '请求过于频繁，请稍后再试' };

describe.each(dbTargets())('captcha bounds (%s)', (target) => {
  const { app } = appSuite(target, { build: { captchaEnabled: true, captchaRateLimit: 6, captchaCap: 3 } });
  const image = (ip: string) => app.inject({ method: 'GET', url: api(API.captcha), remoteAddress: ip });

  it('keeps at most the cap of unexpired captchas, the newest; an older one no longer logs in', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await image('10.0.0.1');
      expect(res.statusCode).toBe(200);
      ids.push(res.cookies.find((c) => c.name === 'captchaId')!.value);
    }
    expect(await count(app.db, 'sys_captcha')).toBe(3);
    const kept = await app.db.selectFrom('sys_captcha').select('id').execute();
    expect(kept.map((r) => r.id).sort()).toEqual(ids.slice(2).sort());
    const { loginName, password, orgCode } = demo('nbsub');
    expect(await login(app, loginName, password, orgCode, { validateCode: 'abcd', cookies: { captchaId: ids[0] } })).toMatchObject({ code: 'CAPTCHA_INVALID' });
  });

  it('answers a flood of images from one address with 429 and the envelope, other addresses unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await image('10.0.0.2')).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await image('10.0.0.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject(RATE_LIMITED);
    expect((await image('10.0.0.3')).statusCode).toBe(200);
    expect(await count(app.db, 'sys_captcha')).toBeLessThanOrEqual(3);
  });
});

describe.each(dbTargets())('error report bounds (%s)', (target) => {
  const { app, session } = appSuite(target, { build: { errorLogRateLimit: 3, visitorErrorLogCap: 4, errorLogDays: 30 }, sessions: { nbadmin: 'nbadmin' } });
  const report = (path: string, ip: string, sid?: string) => {
    const options = { method: 'POST' as const, url: api(path), remoteAddress: ip, payload: { type: 'script', code: '0', mes: 'boom', url: '/home' } };
    return sid ? withSession(app, sid, options) : app.inject(options);
  };

  it('takes a visitor’s reports up to the limit per minute, both paths counting together, then 429 and nothing stored', async () => {
    const before = await count(app.db, 'sys_error_log');
    expect((await report(API.saveErrorLogger, '10.1.0.1')).statusCode).toBe(200);
    expect((await report(`/a${API.saveErrorLogger}`, '10.1.0.1')).statusCode).toBe(200);
    expect((await report(API.saveErrorLogger, '10.1.0.1')).statusCode).toBe(200);
    const refused = await report(`/a${API.saveErrorLogger}`, '10.1.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject(RATE_LIMITED);
    expect(await count(app.db, 'sys_error_log')).toBe(before + 3);
    // Another visitor, and a signed-in user on the same address, still report.
    expect((await report(API.saveErrorLogger, '10.1.0.2')).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await report(API.saveErrorLogger, '10.1.0.1', session.nbadmin)).statusCode).toBe(200);
  });

  it('housekeeping drops reports past their retention and visitor reports beyond the cap, newest kept', async () => {
    await sql`DELETE FROM sys_error_log`.execute(app.db);
    const now = Date.now();
    const row = (minutesAgo: number, userId: string | null) => ({
      id: newId(),
      type: 'script',
      code: '0',
      mes: `m${minutesAgo}`,
      url: '/',
      time: new Date(now - minutesAgo * 60_000),
      user_id: userId,
      ip: '10.1.0.9',
    });
    const nbadmin = await app.db.selectFrom('sys_user').select('id').where('login_name', '=', 'nbadmin').executeTakeFirstOrThrow();
    await app.db
      .insertInto('sys_error_log')
      .values([...[1, 2, 3, 4, 5, 6, 7].map((m) => row(m, null)), row(10, nbadmin.id), row(31 * 24 * 60, nbadmin.id)])
      .execute();
    await runHousekeeping(app.db, app.config);
    const left = await app.db.selectFrom('sys_error_log').select(['mes', 'user_id']).orderBy('time', 'desc').execute();
    expect(left.map((r) => r.mes)).toEqual(['m1', 'm2', 'm3', 'm4', 'm10']);
  });

  it('housekeeping drops expired captchas and rate counters whose window ended long ago', async () => {
    await app.db
      .insertInto('sys_captcha')
      .values({ id: newId(), text: 'abcd', expires_at: new Date(Date.now() - 1000) })
      .execute();
    await app.db
      .insertInto('sys_rate_counter')
      .values({ key: 'test:old', window_start: new Date(Date.now() - 2 * 24 * 3_600_000), count: 9 })
      .execute();
    await app.db.insertInto('sys_rate_counter').values({ key: 'test:live', window_start: new Date(), count: 1 }).execute();
    const report = await runHousekeeping(app.db, app.config);
    expect(report.captchas).toBeGreaterThanOrEqual(1);
    expect(await count(app.db, 'sys_captcha', 'expires_at < now()')).toBe(0);
    const keys = (await app.db.selectFrom('sys_rate_counter').select('key').where('key', 'like', 'test:%').execute()).map((r) => r.key);
    expect(keys).toEqual(['test:live']);
  });
});

describe.each(dbTargets())('login limits per account (%s)', (target) => {
  // A low per-IP ceiling would refuse everyone on the address; here it is high, the account limits low.
  const { app } = appSuite(target, { build: { loginRateLimit: 1000, loginIpAccountRateLimit: 3, loginAccountRateLimit: 5 } });
  const nbsub = demo('nbsub');
  const nbadmin = demo('nbadmin');
  const failedCount = async () =>
    (await app.db.selectFrom('sys_user').select('failed_count').where('login_name', '=', nbsub.loginName).executeTakeFirstOrThrow()).failed_count;
  const THROTTLED = { result: 'false', code: 'LOGIN_THROTTLED', message: '该账号登录尝试过于频繁，请1分钟后再试' };

  it('refuses one address guessing one account, before the password is checked, and no one else', async () => {
    for (let i = 0; i < 3; i++)
      expect(await login(app, nbsub.loginName, 'Wrong@2026', nbsub.orgCode, { remoteAddress: '10.2.0.1' })).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(await login(app, nbsub.loginName, nbsub.password, nbsub.orgCode, { remoteAddress: '10.2.0.1' })).toMatchObject(THROTTLED);
    // The refused attempt did not count as a failure (no step towards the account lock).
    expect(await failedCount()).toBe(3);
    // The same address signs another account in: a company behind the same NAT is not locked out.
    expect(await login(app, nbadmin.loginName, nbadmin.password, nbadmin.orgCode, { remoteAddress: '10.2.0.1' })).toMatchObject({ result: 'true' });
    // The owner, from another address, signs in (the 5th request for the account this minute).
    expect(await login(app, nbsub.loginName, nbsub.password, nbsub.orgCode, { remoteAddress: '10.2.0.2' })).toMatchObject({ result: 'true' });
    expect(await failedCount()).toBe(0);
  });

  it('refuses an account tried from many addresses past its own limit, whatever the address', async () => {
    const res = await app.inject({ method: 'GET', url: api(API.publicKey), remoteAddress: '10.2.0.3' });
    expect(res.statusCode).toBe(200);
    const reply = await login(app, nbsub.loginName, nbsub.password, nbsub.orgCode, { remoteAddress: '10.2.0.3' });
    expect(reply).toMatchObject(THROTTLED);
    expect((reply as Envelope<unknown>).result).toBe('false');
    // The name is matched without regard to case: the limit cannot be dodged by capitals.
    expect(await login(app, nbsub.loginName.toUpperCase(), nbsub.password, nbsub.orgCode, { remoteAddress: '10.2.0.4' })).toMatchObject(THROTTLED);
  });

  it('keeps the counters in the database, where a second process sees them', async () => {
    const rows = await app.db.selectFrom('sys_rate_counter').select(['key', 'count']).where('key', 'like', 'login:account:%').execute();
    expect(rows).toContainEqual({ key: `login:account:${nbsub.loginName.toLowerCase()}`, count: 7 });
  });
});

describe.each(dbTargets())('a session-less caller cannot grow the tables (%s)', (target) => {
  const { app } = appSuite(target, { build: { errorLogRateLimit: 2, captchaRateLimit: 2, captchaEnabled: true } });

  it('100 captcha images and 100 error reports from one address store at most the limits', async () => {
    const before = { captcha: await count(app.db, 'sys_captcha'), log: await count(app.db, 'sys_error_log') };
    const statuses = new Map<number, number>();
    for (let i = 0; i < 100; i++) {
      for (const res of [
        await app.inject({ method: 'GET', url: api(API.captcha), remoteAddress: '10.3.0.1' }),
        await app.inject({ method: 'POST', url: api(API.saveErrorLogger), remoteAddress: '10.3.0.1', payload: { mes: `x${i}` } }),
      ])
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 4, 429: 196 });
    expect(await count(app.db, 'sys_captcha')).toBeLessThanOrEqual(before.captcha + 2);
    expect(await count(app.db, 'sys_error_log')).toBe(before.log + 2);
  });
});
