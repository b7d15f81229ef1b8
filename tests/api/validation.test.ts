/**
 * The validator catalogue on the server: a route whose body schema uses `x-rules` answers exactly
 * what the direct function answers, for every vector and for random input.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { messages, ruleNames, rules, type RuleName } from '../../validators';
import { buildApp } from '../../src/server/app';
import { VECTORS } from '../unit/vectors/rules';

let app: FastifyInstance;

beforeAll(async () => {
  app = await buildApp({
    databaseUrl: null,
    dataDir: 'memory://',
    logLevel: 'silent',
    extraRoutes: async (scope) => {
      for (const name of ruleNames) {
        scope.post(`/test/rule/${name}`, {
          config: { public: true },
          schema: { body: { type: 'object', properties: { value: { 'x-rules': [name] } } } },
        }, async (_req, reply) => reply.ok(null));
      }
      scope.post('/test/override', {
        config: { public: true },
        schema: { body: { type: 'object', required: ['zip'], properties: { zip: { type: 'string', 'x-rules': [{ rule: 'postalCode', message: '请输入有效的邮政编码' }] } } } },
      }, async (_req, reply) => reply.ok(null));
    },
  });
  await app.ready();
});
afterAll(() => app.close());

async function viaServer(name: RuleName, value: unknown): Promise<string | undefined> {
  const res = await app.inject({ method: 'POST', url: `/espServer/test/rule/${name}`, payload: value === undefined ? {} : { value } });
  const body = res.json();
  if (res.statusCode === 200) return undefined;
  expect(res.statusCode).toBe(400);
  expect(body).toMatchObject({ result: 'false', success: false, isSuccess: false, code: 'VALIDATION_FAILED' });
  expect(body.data.field).toBe('value');
  expect(body.errorMsg).toBe(body.message);
  return body.message;
}

describe.each(ruleNames)('x-rules %s answers like the direct function', (name) => {
  const cases = [...VECTORS[name].ok, ...VECTORS[name].bad].filter((v) => v === null || typeof v !== 'number' || Number.isFinite(v));
  test.each(cases.map((v) => [JSON.stringify(v), v]))('%s', async (_l, value) => {
    expect(await viaServer(name, value)).toBe(rules[name](value as never));
  });
});

describe('x-rules on a real route', () => {
  test('a field may override the message, and the field name comes back', async () => {
    const res = await app.inject({ method: 'POST', url: '/espServer/test/override', payload: { zip: '012345' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: '请输入有效的邮政编码', data: { field: 'zip' } });
  });
  test('random strings get the same answer from the server as from the function', async () => {
    const names = ['mobile', 'idCard', 'amount', 'email', 'password', 'phoneOrLandline'] as const;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.oneof(fc.string({ maxLength: 24 }), fc.stringMatching(/^[0-9Xx.\-@]{0,20}$/)), async (name, value) => {
        expect(await viaServer(name, value)).toBe(rules[name](value));
      }),
      { numRuns: 150 },
    );
  });
  test('the mismatch message set is the catalogue', () => {
    expect(messages.mobile).toBe('请输入有效的手机号码');
  });
});
