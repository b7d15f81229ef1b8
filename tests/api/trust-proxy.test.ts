/**
 * PORTAL_TRUST_PROXY: only the balancers listed may say who the client is. Behind the trusted
 * balancer (127.0.0.1) X-Forwarded-For names the client: its reports carry that address and each
 * client has its own per-address limit. A client reaching the process directly (10.9.9.9) is seen
 * as itself whatever header it sends, so rotating the header does not escape the per-address limit.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig, StartupError, unknownSettings } from '../../src/server/config';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets } from './helpers';

const BALANCER = '127.0.0.1';
const DIRECT = '10.9.9.9';

describe.each(dbTargets())('client address behind PORTAL_TRUST_PROXY=%s', (target) => {
  const { app } = appSuite(target, {
    build: { trustProxy: loadConfig({ PORTAL_TRUST_PROXY: BALANCER }).trustProxy, errorLogRateLimit: 2, captchaRateLimit: 2 },
  });

  /** A visitor's error report (its row keeps `request.ip`); `mes` finds the row again. */
  const report = (from: string, forwardedFor: string, mes: string) =>
    app.inject({
      method: 'POST',
      url: api(API.saveErrorLogger),
      remoteAddress: from,
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { type: 'script', mes },
    });
  const storedIp = async (mes: string) => (await app.db.selectFrom('sys_error_log').select('ip').where('mes', '=', mes).executeTakeFirstOrThrow()).ip;
  const captcha = (from: string, forwardedFor: string) =>
    app.inject({ method: 'GET', url: api(API.captcha), remoteAddress: from, headers: { 'x-forwarded-for': forwardedFor } });

  it('believes X-Forwarded-For from the listed balancer, not from anyone else', async () => {
    expect((await report(BALANCER, '1.2.3.4', 'via balancer')).statusCode).toBe(200);
    expect(await storedIp('via balancer')).toBe('1.2.3.4');
    // A client behind the balancer cannot forge its address either: the balancer appends the real one.
    expect((await report(BALANCER, '6.6.6.6, 1.2.3.5', 'forged behind balancer')).statusCode).toBe(200);
    expect(await storedIp('forged behind balancer')).toBe('1.2.3.5');
    expect((await report(DIRECT, '1.2.3.4', 'direct')).statusCode).toBe(200);
    expect(await storedIp('direct')).toBe(DIRECT);
  });

  it('keeps a per-address limit for each client behind the balancer and one for a direct client whatever it claims', async () => {
    // Two captcha images a minute per address (captchaRateLimit 2).
    const statuses = async (from: string, forwarded: readonly string[]) => {
      const codes: number[] = [];
      for (const f of forwarded) codes.push((await captcha(from, f)).statusCode);
      return codes;
    };
    expect(await statuses(BALANCER, ['5.5.5.1', '5.5.5.1', '5.5.5.1'])).toEqual([200, 200, 429]);
    // Another client through the same balancer has its own allowance.
    expect(await statuses(BALANCER, ['5.5.5.2', '5.5.5.2'])).toEqual([200, 200]);
    // The direct client rotates the header: still one address, limited after two.
    expect(await statuses(DIRECT, ['7.7.7.1', '7.7.7.2', '7.7.7.3', '7.7.7.4'])).toEqual([200, 200, 429, 429]);
  });
});

describe('PORTAL_TRUST_PROXY and misspelt settings', () => {
  it('refuses a malformed address or range with a StartupError naming PORTAL_TRUST_PROXY', () => {
    for (const value of ['10.0.0.0/33', '300.1.1.1', 'foo', '10.0.0.1/8/1', '::1/129']) {
      const attempt = () => loadConfig({ PORTAL_TRUST_PROXY: value });
      expect(attempt, value).toThrow(StartupError);
      expect(attempt, value).toThrow(/^PORTAL_TRUST_PROXY: /);
    }
    expect(loadConfig({ PORTAL_TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ PORTAL_TRUST_PROXY: 'off' }).trustProxy).toBe(false);
  });

  it('names PORTAL_DEMO for PORTAL_DEMOO', () => {
    expect(unknownSettings({ PORTAL_DEMOO: 'on', PORTAL_DEMO: 'off', PATH: '/usr/bin' })).toEqual([{ name: 'PORTAL_DEMOO', suggestion: 'PORTAL_DEMO' }]);
  });
});
