import type { FastifyPluginAsync } from 'fastify';
import { describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets, demo, login, sessionOf, withSession } from './helpers';

/** Test-only routes: an unexpected crash and a crash carrying internal detail. */
const crashingRoutes: FastifyPluginAsync = async (scope) => {
  scope.get('/test/boom', { config: { public: true } }, async () => {
    throw new Error('database password is hunter2');
  });
  scope.get('/test/type-error', { config: { public: true } }, async () => {
    (null as unknown as { x: () => void }).x();
  });
};

function expectFailureEnvelope(body: unknown, code: string, message: string) {
  expect(body).toEqual({ result: 'false', success: false, isSuccess: false, message, errorMsg: message, code });
}

describe.each(dbTargets())('envelope on errors (%s)', (target) => {
  const { app } = appSuite(target, { build: { extraRoutes: crashingRoutes } });

  it('400: a body failing the route schema, with a Chinese message naming the field', async () => {
    const sid = await sessionOf(app, 'nbmulti');
    const res = await withSession(app, sid, { method: 'POST', url: api(API.changeRole), payload: {} });
    expect(res.statusCode).toBe(400);
    expectFailureEnvelope(res.json(), 'BAD_REQUEST', '请求参数错误：id');
  });

  it('400: malformed JSON', async () => {
    const res = await app.inject({ method: 'POST', url: api(API.login), headers: { 'content-type': 'application/json' }, payload: '{"username":' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: 'false', code: 'BAD_REQUEST', message: '请求参数错误' });
  });

  it('401: no session', async () => {
    const res = await app.inject({ method: 'GET', url: api(API.getUserInfo) });
    expect(res.statusCode).toBe(401);
    expectFailureEnvelope(res.json(), 'UNAUTHENTICATED', '登录已过期，请重新登录');
  });

  it('403: role without the access id', async () => {
    const res = await withSession(app, await sessionOf(app, 'nbsub'), { method: 'GET', url: api(API.bypassAccountList) });
    expect(res.statusCode).toBe(403);
    expectFailureEnvelope(res.json(), 'FORBIDDEN', '无权访问');
  });

  it('404: unknown API path, with or without a session, any method', async () => {
    for (const res of [
      await app.inject({ method: 'GET', url: api('/a/no/such/thing') }),
      await app.inject({ method: 'POST', url: api('/a/no/such/thing'), payload: {} }),
      await withSession(app, await sessionOf(app, 'nbadmin'), { method: 'GET', url: api('/a/no/such/thing') }),
      await app.inject({ method: 'GET', url: '/no/such/page' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expectFailureEnvelope(res.json(), 'NOT_FOUND', '请求的接口不存在');
    }
  });

  it('413: an oversized error report', async () => {
    const res = await app.inject({ method: 'POST', url: api(API.saveErrorLogger), payload: { type: 'script', code: 0, mes: 'x'.repeat(20_000), url: '/' } });
    expect(res.statusCode).toBe(413);
    expectFailureEnvelope(res.json(), 'PAYLOAD_TOO_LARGE', '请求内容过大');
  });

  it('415: an unsupported content type', async () => {
    const res = await app.inject({ method: 'POST', url: api(API.login), headers: { 'content-type': 'application/xml' }, payload: '<x/>' });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ result: 'false', code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('500: a crash answers the envelope without stack or internal message', async () => {
    for (const path of ['/test/boom', '/test/type-error']) {
      const res = await app.inject({ method: 'GET', url: api(path) });
      expect(res.statusCode).toBe(500);
      expectFailureEnvelope(res.json(), 'INTERNAL', '服务器内部错误，请稍后再试');
      expect(res.body).not.toMatch(/hunter2|stack|at .*\.ts|TypeError/);
    }
  });

  describe('save_error_logger', () => {
    const rows = () => app.db.selectFrom('sys_error_log').selectAll().orderBy('time', 'desc').execute();

    it('stores an anonymous report at both paths', async () => {
      for (const path of [API.saveErrorLogger, `/a${API.saveErrorLogger}`]) {
        const res = await app.inject({ method: 'POST', url: api(path), payload: { type: 'script', code: 0, mes: `boom at ${path}`, url: '/home' } });
        expect(res.json()).toMatchObject({ result: 'true' });
      }
      const stored = await rows();
      expect(stored.map((r) => r.mes)).toEqual(expect.arrayContaining([`boom at ${API.saveErrorLogger}`, `boom at /a${API.saveErrorLogger}`]));
      expect(stored.find((r) => r.mes === `boom at ${API.saveErrorLogger}`)).toMatchObject({
        type: 'script',
        code: '0',
        url: '/home',
        user_id: null,
        token: null,
      });
    });

    it('adds the time and the session user, keeping only a fingerprint of the session (its digest), never the token', async () => {
      const reply = await login(app, 'nbsub', demo('nbsub').password, demo('nbsub').orgCode);
      const before = Date.now();
      await withSession(app, reply.sessionid!, {
        method: 'POST',
        url: api(API.saveErrorLogger),
        payload: { type: 'script', code: '0', mes: 'with user', url: '/equipment/overview' },
      });
      const row = (await rows()).find((r) => r.mes === 'with user')!;
      expect(row).toMatchObject({
        user_id: reply.user!.id,
        user_name: '李娜',
        token: tokenDigest(app.config.crypto, reply.sessionid!).slice(0, 8),
        client_time: null,
      });
      expect(row.time.getTime()).toBeGreaterThanOrEqual(before - 1000);
    });

    it('takes the eight fields of the original error log entry, keeping the browser’s time and trusting the session, not the body, for who', async () => {
      const reply = await login(app, 'nbsub', demo('nbsub').password, demo('nbsub').orgCode);
      const entry = {
        type: 'script',
        code: 0,
        mes: 'full entry',
        url: 'http://portal/equipment/overview',
        time: '2026-03-01T08:15:30.250Z',
        token: reply.sessionid!,
        userId: 'someone-else',
        userName: '冒名',
      };
      const res = await withSession(app, reply.sessionid!, { method: 'POST', url: api(API.saveErrorLogger), payload: entry });
      expect(res.json()).toMatchObject({ result: 'true' });
      const row = (await rows()).find((r) => r.mes === 'full entry')!;
      expect(row).toMatchObject({
        type: 'script',
        code: '0',
        url: entry.url,
        user_id: reply.user!.id,
        user_name: '李娜',
        token: tokenDigest(app.config.crypto, reply.sessionid!).slice(0, 8),
      });
      expect(row.client_time?.toISOString()).toBe(entry.time);
      expect(row.time.getTime()).not.toBe(row.client_time?.getTime()); // the server's own receipt time stays
      expect(JSON.stringify(row)).not.toContain(reply.sessionid!); // never the whole token

      // A visitor's claims are not believed either; an unreadable time is dropped, not refused.
      for (const [i, time] of ['yesterday', '0000-01-01T00:00:00Z', '2026-13-45T99:99'].entries()) {
        const visitor = { ...entry, mes: `visitor entry ${i}`, time };
        expect((await app.inject({ method: 'POST', url: api(API.saveErrorLogger), payload: visitor })).json()).toMatchObject({ result: 'true' });
        expect((await rows()).find((r) => r.mes === visitor.mes)).toMatchObject({ user_id: null, user_name: null, token: null, client_time: null });
      }
    });

    it('refuses over-long fields (400)', async () => {
      for (const payload of [
        { type: 'script', code: 0, mes: 'x', url: '/', time: '2'.repeat(100) },
        { type: 'script', code: 0, mes: 'x', url: '/', token: 't'.repeat(300) },
        { type: 'script', code: 0, mes: 'x', url: '/', userId: 'u'.repeat(100) },
        { type: 'script', code: 0, mes: 'x', url: '/', userName: '名'.repeat(200) },
      ]) {
        const res = await app.inject({ method: 'POST', url: api(API.saveErrorLogger), payload });
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      }
    });
  });

  it('publishes the OpenAPI document at /docs', async () => {
    const doc = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys(doc.json<{ paths: Record<string, unknown> }>().paths);
    expect(paths).toEqual(expect.arrayContaining([api(API.login), api(API.userInfo), api(API.bypassAccountList), api(API.publicKey)]));
    // The upload names its parts: a script knows what to send.
    type Body = { content: Record<string, { schema: { required: string[]; properties: Record<string, { format?: string }> } }> };
    const upload = doc.json<{ paths: Record<string, { post: { requestBody: Body } }> }>().paths[api(API.attachmentUpload)].post.requestBody;
    const parts = upload.content['multipart/form-data'].schema;
    expect([parts.required, parts.properties.file.format, Object.keys(parts.properties)]).toEqual([['file'], 'binary', ['file', 'refId', 'attrefsysid']]);
    expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
  });
});

describe.each(dbTargets())('login rate limit (%s)', (target) => {
  const { app } = appSuite(target, { build: { loginRateLimit: 3 } });

  it('429 with the envelope after the per-IP limit', async () => {
    const { loginName, orgCode } = demo('nbsub');
    for (let i = 0; i < 3; i++) expect((await login(app, loginName, 'Wrong@2026', orgCode)).code).toBe('INVALID_CREDENTIALS');
    const res = await app.inject({ method: 'POST', url: api(API.login), payload: {} });
    expect(res.statusCode).toBe(429);
    expectFailureEnvelope(res.json(), 'RATE_LIMITED', '请求过于频繁，请稍后再试');
    expect(res.headers['retry-after']).toBeDefined();
    // Other routes are not limited.
    expect((await app.inject({ method: 'GET', url: api(API.publicKey) })).statusCode).toBe(200);
  });
});
