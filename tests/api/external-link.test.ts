/**
 * External links carry a signed single-use token, never the session: the portal answers the
 * address to open for a configured link its menu item opens (role permitting); the outside system
 * redeems the token once for the user's login name, name, unit and credit code; a replayed,
 * expired, forged or foreign token is refused in Chinese; only the token's digest is stored. With
 * PORTAL_EXTERNAL_LINK_IDENTITY=userId the link carries the user id. Housekeeping deletes expired
 * link tokens, text messages past their retention and codes spent before it (back-dated rows).
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/server/db/ids';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import { issueLinkToken, linkKey } from '../../src/server/services/link-token';
import { signSsoToken } from '../../src/server/services/sso';
import { LINK_API, type LinkAddress, type LinkIdentity } from '../../src/shared/external-link';
import { api, appSuite, call, dbTargets } from './helpers';
import { match } from '../support/match';

const GAS = 'https://qp.example.cn/portal?from=esp';
const DAY = 86_400_000;

describe.each(dbTargets())('external-link tokens (%s)', (target) => {
  const { app, session } = appSuite(target, { build: { gasCylinderUrl: GAS }, sessions: { unit: 'nbadmin', authority: 'jgadmin' } });
  const linkFor = async (sid: string, name = 'gasCylinder') => call<LinkAddress>(app, sid, 'POST', LINK_API.token, { name });
  const tokenOf = async () => new URL((await linkFor(session.unit)).body.data!.url).searchParams.get('token')!;
  const redeem = async (token: string | undefined, method: 'GET' | 'POST' = 'GET') => {
    const res = await app.inject(
      method === 'GET'
        ? { method, url: api(LINK_API.verify), query: token === undefined ? {} : { token } }
        : { method, url: api(LINK_API.verify), payload: { token } },
    );
    return { status: res.statusCode, body: res.json<{ result: string; code?: string; message: string; data?: LinkIdentity }>() };
  };
  const key = () => linkKey(app.config.crypto, app.keys.ssoSecret);

  it('answers the configured address with a token, not the session; the token redeems once', async () => {
    const { body } = await linkFor(session.unit);
    expect(body.result).toBe('true');
    const url = new URL(body.data!.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://qp.example.cn/portal');
    expect(url.searchParams.get('from')).toBe('esp');
    expect([...url.searchParams.keys()].sort()).toEqual(['from', 'token']);
    expect(body.data!.url).not.toContain(session.unit);
    const token = url.searchParams.get('token')!;
    // Only the digest is kept.
    const rows = await app.db.selectFrom('sys_link_token').selectAll().execute();
    expect(rows.map((r) => r.digest)).toContain(tokenDigest(app.config.crypto, token));
    expect(JSON.stringify(rows)).not.toContain(token);

    const first = await redeem(token);
    expect(first.body.result).toBe('true');
    expect(first.body.data).toEqual({
      link: 'gasCylinder',
      loginName: 'nbadmin',
      name: match.any(String),
      unitName: DEMO_UNITS.using.orgname,
      creditCode: DEMO_UNITS.using.orgcode,
    });
    const again = await redeem(token);
    expect([again.status, again.body.code, again.body.message]).toEqual([401, 'LINK_TOKEN_USED', '访问凭证已使用，请从平台重新打开']);
    // POST with the token in the body works the same, once.
    const other = await tokenOf();
    expect((await redeem(other, 'POST')).body.data?.loginName).toBe('nbadmin');
    expect((await redeem(other, 'POST')).body.code).toBe('LINK_TOKEN_USED');
  });

  it('refuses forged, foreign, altered, missing and expired tokens', async () => {
    const token = await tokenOf();
    const [payload, signature] = token.split('.');
    const flipped = `${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BA' : 'AA'}`;
    const nbadmin = await app.db.selectFrom('sys_user').select('id').where('login_name', '=', 'jgadmin').executeTakeFirstOrThrow();
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const otherUser = `${Buffer.from(JSON.stringify({ ...claims, sub: nbadmin.id })).toString('base64url')}.${signature}`;
    for (const bad of [flipped, otherUser, signSsoToken(app.keys.ssoSecret, 'nbadmin'), 'abc', '', undefined]) {
      const res = await redeem(bad);
      expect([res.status, res.body.code, res.body.message], String(bad)).toEqual([401, 'LINK_TOKEN_INVALID', '访问凭证无效']);
    }
    const expired = await issueLinkToken(app.db, key(), nbadmin.id, 'gasCylinder', Date.now() - 6 * 60_000);
    expect((await redeem(expired)).body).toMatchObject({ result: 'false', code: 'LINK_TOKEN_EXPIRED', message: '访问凭证已过期，请从平台重新打开' });
    // The untouched token still works after all that.
    expect((await redeem(token)).body.result).toBe('true');
  });

  it('issues only for a configured link the role may open, and only with a session', async () => {
    expect((await linkFor(session.unit, 'nothing')).body).toMatchObject({ result: 'false', code: 'LINK_UNKNOWN', message: '该外部服务不存在或尚未配置' });
    expect((await linkFor(session.unit, 'constructor')).body.code).toBe('LINK_UNKNOWN');
    expect((await linkFor(session.authority)).body.code).toBe('FORBIDDEN');
    const anonymous = await app.inject({ method: 'POST', url: api(LINK_API.token), payload: { name: 'gasCylinder' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('carries the user id instead when the setting says userId', async () => {
    const before = app.config.externalLinkIdentity;
    app.config.externalLinkIdentity = 'userId';
    try {
      const user = await app.db.selectFrom('sys_user').select('id').where('login_name', '=', 'nbadmin').executeTakeFirstOrThrow();
      const url = new URL((await linkFor(session.unit)).body.data!.url);
      expect(Object.fromEntries(url.searchParams)).toEqual({ from: 'esp', userId: user.id });
    } finally {
      app.config.externalLinkIdentity = before;
    }
  });

  it('housekeeping deletes expired link tokens, old text messages and long-spent codes', async () => {
    const now = Date.now();
    const days = app.config.smsRetentionDays;
    const user = await app.db.selectFrom('sys_user').select('id').where('login_name', '=', 'nbadmin').executeTakeFirstOrThrow();
    await issueLinkToken(app.db, key(), user.id, 'gasCylinder', now - 10 * 60_000);
    const live = await issueLinkToken(app.db, key(), user.id, 'gasCylinder', now);
    const mobile = '13900000777';
    const message = (text: string, age: number) => ({ id: newId(), mobile, purpose: 'test', text, provider: 'outbox', created_at: new Date(now - age) });
    await app.db
      .insertInto('sys_sms_outbox')
      .values([message('old', (days + 1) * DAY), message('recent', (days - 1) * DAY)])
      .execute();
    const code = (name: string, expiresAgo: number, usedAgo: number | null) => ({
      id: newId(),
      purpose: name,
      mobile,
      code_hash: 'x'.repeat(64),
      expires_at: new Date(now - expiresAgo),
      tries: 0,
      used_at: usedAgo === null ? null : new Date(now - usedAgo),
      created_at: new Date(now - expiresAgo - 5 * 60_000),
    });
    await app.db
      .insertInto('sys_sms_code')
      .values([
        code('used-long-ago', (days + 1) * DAY, (days + 1) * DAY),
        code('expired-long-ago', (days + 1) * DAY, null),
        code('used-lately', DAY, DAY),
        code('live', -60_000, null),
      ])
      .execute();

    const report = await runHousekeeping(app.db, app.config);
    expect(report.sms).toBeGreaterThanOrEqual(3);
    expect(report.linkTokens).toBeGreaterThanOrEqual(1);
    expect((await app.db.selectFrom('sys_sms_outbox').select('text').where('mobile', '=', mobile).execute()).map((r) => r.text)).toEqual(['recent']);
    const codes = await app.db.selectFrom('sys_sms_code').select('purpose').where('mobile', '=', mobile).orderBy('purpose').execute();
    expect(codes.map((r) => r.purpose)).toEqual(['live', 'used-lately']);
    expect(await app.db.selectFrom('sys_link_token').select('digest').where('expires_at', '<', new Date()).execute()).toEqual([]);
    expect((await redeem(live)).body.result).toBe('true');
  });
});
