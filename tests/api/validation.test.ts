/**
 * The validator catalogue in a real Fastify 5 instance, standalone (not the portal's app): the
 * ajv plugin registered as Fastify documents it, a route whose body schema uses `x-rules`, and an
 * error handler that answers with `validationEnvelope`. Every shared vector gets the same answer
 * over HTTP as from the direct function, a failing request never reaches the handler, and the
 * reply is the JeeSite envelope with HTTP 400, the field and the Chinese message.
 */
import formbody from '@fastify/formbody';
import fc from 'fast-check';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { messages, POSTAL_CODE_LONG_MESSAGE, ruleNames, rules, type RuleName } from '../../validators';
import { ajvRulesPlugin, RULES_KEYWORD, validationEnvelope } from '../../src/server/validation';
import { jsonSafe, labelledCases } from '../unit/vectors/rules';
import type { Envelope } from '../../src/shared/contract';

let app: FastifyInstance;
let handled = 0;

async function standaloneApp(): Promise<FastifyInstance> {
  const instance = Fastify({ ajv: { plugins: [ajvRulesPlugin] } });
  await instance.register(formbody);
  instance.setErrorHandler((err: FastifyError, _request, reply) => {
    const failure = validationEnvelope(err);
    if (failure) return reply.code(failure.status).send(failure.envelope);
    return reply.code(err.statusCode ?? 500).send({ result: 'false', success: false, isSuccess: false, message: err.message, code: err.code });
  });
  const ok = async () => {
    handled++;
    return { result: 'true' };
  };
  for (const name of ruleNames) {
    instance.post(`/rule/${name}`, { schema: { body: { type: 'object', properties: { value: { [RULES_KEYWORD]: [name] } } } } }, ok);
    instance.post(`/typed/${name}`, { schema: { body: { type: 'object', properties: { value: { type: 'string', [RULES_KEYWORD]: [name] } } } } }, ok);
  }
  instance.post(
    '/unit',
    {
      schema: {
        body: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1 },
            zip: { type: 'string', [RULES_KEYWORD]: [{ rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE }] },
            contact: { type: 'object', properties: { mobile: { type: 'string', [RULES_KEYWORD]: ['mobile'] } } },
            assets: { type: 'integer', [RULES_KEYWORD]: ['fixedAssets'] },
          },
        },
      },
    },
    ok,
  );
  await instance.ready();
  return instance;
}

beforeAll(async () => {
  app = await standaloneApp();
});
afterAll(() => app.close());

/** Posts one value and returns the message of the reply (undefined for success), checking the envelope. */
async function viaHttp(route: 'rule' | 'typed', name: RuleName, value: unknown): Promise<string | undefined> {
  const before = handled;
  const res = await app.inject({ method: 'POST', url: `/${route}/${name}`, payload: value === undefined ? {} : { value } });
  if (res.statusCode === 200) {
    expect(handled).toBe(before + 1);
    return undefined;
  }
  const body = res.json<Envelope>();
  expect(res.statusCode).toBe(400);
  expect(handled).toBe(before); // a rejected request never reaches the handler
  expect(body).toEqual({
    result: 'false',
    success: false,
    isSuccess: false,
    message: body.message,
    errorMsg: body.message,
    code: 'VALIDATION_FAILED',
    data: { field: 'value' },
  });
  return body.message;
}

describe.each(ruleNames)('x-rules %s over HTTP answers like the direct function', (name: RuleName) => {
  const cases = labelledCases(name).filter(([, c]) => jsonSafe(c.value));
  test.each(cases)('%s', async (_l, { value, valid }) => {
    const expected = valid ? undefined : messages[name];
    expect(await viaHttp('rule', name, value)).toBe(expected);
    expect(await viaHttp('typed', name, value)).toBe(expected);
  });
});

describe('a route schema with x-rules', () => {
  test('a field may override the message, and the field name comes back', async () => {
    const res = await app.inject({ method: 'POST', url: '/unit', payload: { name: '甲', zip: '012345' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: 'false', message: '请输入有效的邮政编码', errorMsg: '请输入有效的邮政编码', data: { field: 'zip' } });
  });

  test('nested fields are reported by their own name', async () => {
    const res = await app.inject({ method: 'POST', url: '/unit', payload: { name: '甲', contact: { mobile: '12345' } } });
    expect(res.json()).toMatchObject({ message: '请输入有效的手机号码', data: { field: 'mobile' } });
  });

  test('form-encoded bodies are coerced by type first, then checked like JSON', async () => {
    const post = (payload: string) => app.inject({ method: 'POST', url: '/unit', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload });
    expect((await post('name=%E7%94%B2&zip=315000&assets=12')).statusCode).toBe(200);
    expect((await post('name=%E7%94%B2&zip=31500')).json()).toMatchObject({ message: '请输入有效的邮政编码', data: { field: 'zip' } });
    expect((await post('name=%E7%94%B2&assets=0')).json()).toMatchObject({ message: '请输入有效的固定资产', data: { field: 'assets' } });
  });

  test('other schema failures are not catalogue failures', async () => {
    const res = await app.inject({ method: 'POST', url: '/unit', payload: { zip: '315000' } });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ code?: string }>().code).toBe('FST_ERR_VALIDATION');
    expect(validationEnvelope(new Error('boom'))).toBeUndefined();
  });

  test('an unknown rule in a route schema stops the server from starting', async () => {
    const broken = Fastify({ ajv: { plugins: [ajvRulesPlugin] } });
    broken.post('/x', { schema: { body: { type: 'object', properties: { v: { [RULES_KEYWORD]: ['nope'] } } } } }, async () => ({}));
    await expect(broken.ready()).rejects.toThrow(/unknown validation rule/);
    await broken.close();
  });

  test('random input gets the same answer from the server as from the function', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 24 }),
      fc.string({ unit: fc.constantFrom(...'0123456789Xx.-@ :/aA'), maxLength: 21 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ruleNames), value, async (name, v) => {
        const expected = rules[name](v);
        expect(await viaHttp('rule', name, v)).toBe(expected);
        expect(await viaHttp('typed', name, v)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
