/**
 * Malformed input is bad input: a NUL character in a body, a query or a path, an address
 * that is not UTF-8, broken JSON, a wrong content type, a body too large — each answered with the
 * envelope and a Chinese message from the catalogue (never a 500, never Fastify's English), and
 * nothing is stored.
 */
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { API, type Envelope } from '../../src/shared/contract';
import { api, appSuite, dbTargets, withSession } from './helpers';

describe.each(dbTargets())('malformed input (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { nbadmin: 'nbadmin' } });

  const errorLogs = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM sys_error_log`.execute(app.db)).rows[0].n;
  const refused = async (options: InjectOptions & { url: string }, status: number, message: string) => {
    const res = await app.inject(options);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json<Envelope<unknown>>();
    expect(body).toMatchObject({ result: 'false', message });
    expect(res.body).not.toMatch(/FST_|Error:|at \w+ \(|SELECT|INSERT/);
  };

  it('refuses a NUL character in a body, before anything is stored', async () => {
    const before = await errorLogs();
    await refused(
      { method: 'POST', url: api(API.saveErrorLogger), payload: { type: 'script', code: '0', mes: 'bad\u0000text', url: '/home' } },
      400,
      '输入内容含有无效字符，请删除后重试',
    );
    await refused(
      { method: 'POST', url: api('/a/save_error_logger'), payload: { type: 'script', code: '0', mes: 'x', url: '/\u0000' } },
      400,
      '输入内容含有无效字符，请删除后重试',
    );
    expect(await errorLogs()).toBe(before);
  });

  it('refuses a NUL character in a path or a query, signed in or not', async () => {
    await refused({ method: 'GET', url: api('/pay/sandbox/AB%00CD') }, 400, '输入内容含有无效字符，请删除后重试');
    await refused({ method: 'POST', url: api('/pay/sandbox/AB%00CD/confirm') }, 400, '输入内容含有无效字符，请删除后重试');
    const res = await withSession(app, session.nbadmin, { method: 'GET', url: api('/r/equipment/list'), query: { equipmentName: 'a\u0000b' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<Envelope<unknown>>().message).toBe('输入内容含有无效字符，请删除后重试');
  });

  it('answers an address that is not UTF-8 with the envelope, in Chinese', async () => {
    await refused({ method: 'POST', url: api('/a/stone/appOnline/toPay/%ED%A0%80/x') }, 400, '请求地址无效');
    await refused({ method: 'GET', url: api('/r/equipment/get/%E0%A4%A') }, 400, '请求地址无效');
  });

  it('answers broken JSON, a wrong content type and a body too large with the envelope', async () => {
    await refused(
      { method: 'POST', url: api(API.saveErrorLogger), headers: { 'content-type': 'application/json' }, payload: '{"type": ' },
      400,
      '请求参数错误',
    );
    await refused(
      { method: 'POST', url: api(API.saveErrorLogger), headers: { 'content-type': 'application/x-unknown' }, payload: 'x' },
      415,
      '不支持的请求内容类型',
    );
    await refused(
      {
        method: 'POST',
        url: api(API.saveErrorLogger),
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ mes: 'x'.repeat(2 * 1024 * 1024) }),
      },
      413,
      '请求内容过大',
    );
  });
});
