/**
 * One implementation, several consumers: the server's `x-rules` ajv keyword (with and without
 * Fastify's type coercion) answers every shared vector exactly like the direct function, and on
 * random input the direct function, both ajv paths and the Formily binding agree.
 */
import Ajv from 'ajv';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { messages, POSTAL_CODE_LONG_MESSAGE, ruleNames, type RuleName, type RuleRef } from '../../validators';
import { addRuleKeywords, errorFromValidation, RULES_KEYWORD, ruleErrors } from '../../src/server/validation';
import { fastifyLikeAjv, viaAjv, viaDirect, viaFormily } from './vectors/paths';
import { EMPTY_VALUES, label, labelledCases, VECTORS_TODAY } from './vectors/rules';
import { clockPinnedAt, middayInChina } from '../support/clock';

// The date-relative vectors (born today / tomorrow) hold for the day they were made.
clockPinnedAt(middayInChina(VECTORS_TODAY));

const untyped = viaAjv(false);
const typed = viaAjv(true);

describe.each(ruleNames)('x-rules %s through ajv', (name: RuleName) => {
  test.each(labelledCases(name))('%s', async (_l, { value, valid }) => {
    const expected = valid ? undefined : messages[name];
    expect(await untyped([name], value)).toBe(expected);
    expect(await typed([name], value)).toBe(expected);
  });
  test('passes empty values', async () => {
    for (const value of EMPTY_VALUES) expect(await untyped([name], value), label(value)).toBeUndefined();
  });
});

describe('the x-rules keyword', () => {
  test('a field may override the message', async () => {
    const refs: RuleRef[] = ['number', { rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE }];
    expect(await untyped(refs, '01234')).toBe('请输入有效的邮政编码');
    expect(await untyped(refs, '0x')).toBe('请输入数字');
    expect(await untyped(refs, 315000)).toBeUndefined();
  });

  test('an unknown rule or a malformed list fails when the schema compiles', () => {
    const ajv = fastifyLikeAjv();
    expect(() => ajv.compile({ type: 'string', [RULES_KEYWORD]: ['nope'] })).toThrow(/unknown validation rule: "nope"/);
    expect(() => ajv.compile({ type: 'string', [RULES_KEYWORD]: [{ rule: 'nope' }] })).toThrow(/unknown validation rule/);
    expect(() => ajv.compile({ type: 'string', [RULES_KEYWORD]: 'mobile' })).toThrow();
    expect(() => ajv.compile({ type: 'string', [RULES_KEYWORD]: [{ rule: 'mobile', extra: 1 }] })).toThrow();
  });

  test('registering twice is harmless, and strict ajv accepts the keyword', () => {
    const ajv = addRuleKeywords(addRuleKeywords(new Ajv({ strict: true })));
    expect(ajv.validate({ type: 'string', [RULES_KEYWORD]: ['mobile'] }, '13812345678')).toBe(true);
  });

  test('errors carry the field, its JSON pointer and the message; other keywords are left alone', () => {
    const ajv = addRuleKeywords(new Ajv({ allErrors: true }));
    const validate = ajv.compile({
      type: 'object',
      required: ['name'],
      properties: {
        contact: { type: 'object', properties: { mobile: { type: 'string', [RULES_KEYWORD]: ['mobile'] } } },
        rows: { type: 'array', items: { type: 'object', properties: { zip: { [RULES_KEYWORD]: ['postalCode'] } } } },
      },
    });
    expect(validate({ contact: { mobile: '123' }, rows: [{ zip: '315000' }, { zip: '01' }] })).toBe(false);
    expect(validate.errors?.map((e) => e.keyword).sort()).toEqual(['required', RULES_KEYWORD, RULES_KEYWORD]);
    expect(ruleErrors(validate.errors)).toEqual([
      { field: 'mobile', message: '请输入有效的手机号码', path: '/contact/mobile' },
      { field: 'zip', message: '请输入有效的邮编', path: '/rows/1/zip' },
    ]);
    expect(validate.errors?.find((e) => e.keyword === RULES_KEYWORD)).toMatchObject({
      schemaPath: `#/properties/contact/properties/mobile/${RULES_KEYWORD}`,
      params: { rule: 'mobile' },
    });
  });

  test('errorFromValidation reads Fastify validation errors and ajv errors alike', () => {
    const validate = fastifyLikeAjv().compile({ type: 'object', properties: { zip: { [RULES_KEYWORD]: ['postalCode'] } } });
    validate({ zip: 'x' });
    const expected = { field: 'zip', message: '请输入有效的邮编', path: '/zip' };
    expect(errorFromValidation({ validation: validate.errors, validationContext: 'body' })).toEqual(expected);
    expect(errorFromValidation(new Ajv.ValidationError(validate.errors ?? []))).toEqual(expected);
    expect(errorFromValidation(new Error('boom'))).toBeUndefined();
    expect(errorFromValidation({ validation: [{ keyword: 'type', instancePath: '/zip', schemaPath: '', params: {} }] })).toBeUndefined();
    expect(errorFromValidation(null)).toBeUndefined();
  });
});

describe('random input: the direct function, ajv and Formily agree', () => {
  // Finite numbers only: NaN and Infinity never arrive in JSON, and ajv coerces them to the text 'NaN'.
  const anyValue = fc.oneof(
    fc.string({ maxLength: 24 }),
    fc.string({ unit: fc.constantFrom(...'0123456789Xx.-+@ :/abcAZ１'), maxLength: 22 }),
    fc.integer(),
    fc.bigInt({ min: 10n ** 10n, max: 10n ** 20n }).map(String),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(null, undefined, '', ' '),
  );
  const anyRefs = fc.array(fc.oneof(fc.constantFrom(...ruleNames), fc.record({ rule: fc.constantFrom(...ruleNames), message: fc.constant('自定义提示') })), {
    minLength: 1,
    maxLength: 3,
  }) as fc.Arbitrary<RuleRef[]>;

  test('on any value and any list of rules', async () => {
    await fc.assert(
      fc.asyncProperty(anyRefs, anyValue, async (refs, value) => {
        const expected = await viaDirect(refs, value);
        expect(await untyped(refs, value)).toBe(expected);
        expect(await typed(refs, value)).toBe(expected);
        expect(await viaFormily(refs, value)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
    // 1,000 runs through four paths take seconds on a busy two-core machine (the unit project's testTimeout).
  });
});
