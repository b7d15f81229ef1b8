/**
 * Route schemas compiled on first use (src/server/lazy-schemas.ts, what `npm start` does) answer
 * exactly as schemas compiled at start: the same refusals of bad input (validators) and the same
 * bodies (serializers, which also drop what a response schema does not name), request by request.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazySchemas } from '../../src/server/lazy-schemas';
import { API } from '../../src/shared/contract';
import { api, makeApp, sessionOf, withSession, type TestApp } from './helpers';

/** Requests through validated and serialized routes; each answer is compared without ids and times. */
const REQUESTS: (InjectOptions & { url: string })[] = [
  { method: 'GET', url: api('/r/demo-notice/list'), query: { pageNo: '1', pageSize: '5' } },
  { method: 'GET', url: api('/r/demo-notice/list'), query: { pageSize: 'abc' } },
  { method: 'GET', url: api('/r/demo-notice/list'), query: { orderBy: 'title; drop table x' } },
  { method: 'POST', url: api('/r/demo-notice/save'), payload: { content: '没有标题' } },
  { method: 'POST', url: api('/r/demo-notice/save'), payload: { title: 'x'.repeat(500), content: '正文' } },
  { method: 'GET', url: api('/r/demo-notice/get/not-an-id') },
  { method: 'GET', url: api(API.userInfo) },
  { method: 'POST', url: api(API.updatePwd), payload: { oldPassword: 1 } },
];

/** An answer without what differs between two servers by nature (ids, times, tokens). */
function comparable(status: number, body: string): unknown {
  const masked = body.replace(/"[0-9a-f]{32}"/g, '"<id>"').replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z?/g, '<time>');
  return { status, body: masked };
}

async function answers(app: FastifyInstance): Promise<unknown[]> {
  const sid = await sessionOf(app, 'nbadmin');
  const out: unknown[] = [];
  for (const request of REQUESTS) {
    const res = await withSession(app, sid, request);
    out.push(comparable(res.statusCode, res.body));
  }
  return out;
}

describe('route schemas compiled on first use', () => {
  const built: Record<'lazy' | 'eager', TestApp | undefined> = { lazy: undefined, eager: undefined };
  const before = process.env.PORTAL_SCHEMAS;

  beforeAll(async () => {
    for (const mode of ['lazy', 'eager'] as const) {
      process.env.PORTAL_SCHEMAS = mode;
      expect(lazySchemas()).toBe(mode === 'lazy');
      built[mode] = await makeApp('pglite');
    }
  });
  afterAll(async () => {
    if (before === undefined) delete process.env.PORTAL_SCHEMAS;
    else process.env.PORTAL_SCHEMAS = before;
    await built.lazy?.close();
    await built.eager?.close();
  });

  it('refuses and answers exactly as schemas compiled at start', async () => {
    const lazy = await answers(built.lazy!.app);
    const eager = await answers(built.eager!.app);
    expect(lazy).toEqual(eager);
    // The requests reach both validators and serializers: some succeed, some are refused.
    const statuses = (lazy as { status: number; body: string }[]).map((a) => a.status);
    expect(statuses).toContain(200);
    expect(statuses).not.toContain(404);
    expect((lazy as { body: string }[]).some((a) => a.body.includes('"result":"false"'))).toBe(true);
    // A second round uses the functions compiled by the first.
    expect(await answers(built.lazy!.app)).toEqual(lazy);
  });

  it('is the default outside the test runner only', () => {
    delete process.env.PORTAL_SCHEMAS;
    expect(lazySchemas()).toBe(false); // VITEST is set here
    process.env.PORTAL_SCHEMAS = 'lazy';
    expect(lazySchemas()).toBe(true);
  });
});
