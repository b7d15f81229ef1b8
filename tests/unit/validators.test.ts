import { describe, expect, test } from 'vitest';
import {
  isSimplePassword, makeUnifiedCreditCode, messages, normalizeIdCard, passwordStrength, POSTAL_CODE_LONG_MESSAGE,
  ruleNames, rules, SPEC_RULES, validate, validateAll, type RuleName,
} from '../../validators';
import { EMPTY_VALUES, VECTORS } from './vectors/rules';

describe('the catalogue holds every rule of SPEC.md §5 with its exact message', () => {
  test('fifteen rules and their messages', () => {
    expect(SPEC_RULES).toHaveLength(15);
    for (const name of SPEC_RULES) expect(typeof rules[name]).toBe('function');
    expect(messages).toMatchObject({
      email: '请输入正确邮箱格式', url: '请输入正确URL格式', nonNegativeInteger: '请输入正整数', number: '请输入数字',
      positiveInteger: '请输入正整数', amount: '请输入有效的两位小数', mobile: '请输入有效的手机号码', postalCode: '请输入有效的邮编',
      phoneOrLandline: '请输入有效的手机号或者座机号', fixedAssets: '请输入有效的固定资产', deviceCode: '设备代码只能是字母和数字',
      registrationCode: '请输入有效的20位注册代码', idCard: '请输入有效的身份证号', noLowercase: '不能输入小写字母',
      password: '请输入8-14位含字母、数字和特殊符号的密码',
    });
  });
  test('every rule has vectors', () => expect(Object.keys(VECTORS).sort()).toEqual([...ruleNames].sort()));
});

describe.each(ruleNames)('rule %s', (name: RuleName) => {
  const { ok, bad } = VECTORS[name];
  test('has at least 12 vectors when it is a SPEC rule', () => {
    if (SPEC_RULES.includes(name)) expect(ok.length + bad.length + EMPTY_VALUES.length).toBeGreaterThanOrEqual(12);
  });
  test.each(EMPTY_VALUES.map((v) => [JSON.stringify(v) ?? 'undefined', v]))('empty value %s passes', (_l, v) => {
    expect(rules[name](v)).toBeUndefined();
  });
  test.each(ok.map((v) => [JSON.stringify(v), v]))('accepts %s', (_l, v) => expect(rules[name](v)).toBeUndefined());
  test.each(bad.map((v) => [JSON.stringify(v), v]))('rejects %s', (_l, v) => expect(rules[name](v)).toBe(messages[name]));
});

describe('validate() with schema rule references', () => {
  test('a field may override the message (the second postal-code message)', () => {
    expect(validate('postalCode', '01234')).toBe('请输入有效的邮编');
    expect(validate({ rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE }, '01234')).toBe('请输入有效的邮政编码');
    expect(validate({ rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE }, '315000')).toBeUndefined();
  });
  test('validateAll returns the first failing message', () => {
    expect(validateAll(['number', 'positiveInteger'], '1.5')).toBe('请输入正整数');
    expect(validateAll(['number', 'positiveInteger'], 'x')).toBe('请输入数字');
  });
  test('an unknown rule is a programming error', () => {
    expect(() => validate('nope' as RuleName, 'x')).toThrow(/unknown validation rule/);
  });
});

describe('password strength (SPEC.md §5)', () => {
  test.each([
    ['', 0], ['Ab1!', 0], ['abcdefgh', 1], ['ABCDEFGH', 1], ['12345678', 1], ['abcd1234', 2], ['Abcdefgh', 2],
    ['Abcd1234', 3], ['abc123!@', 3], ['Admin@2026', 4], ['        ', 1],
  ])('%j scores %i', (pw, score) => expect(passwordStrength(pw)).toBe(score));
  test('below 3 is simple', () => {
    expect(isSimplePassword('12345678')).toBe(true);
    expect(isSimplePassword('Abcd1234')).toBe(false);
  });
});

describe('identifiers', () => {
  test('identity card: leap days, future dates, lower-case x is stored upper-case', () => {
    expect(rules.idCard('110101200002290018')).toBeUndefined(); // 2000-02-29 exists
    expect(rules.idCard('110101190002290011')).toBe(messages.idCard); // 1900-02-29 does not
    expect(normalizeIdCard(' 11010519491231002x ')).toBe('11010519491231002X');
  });
  test('unified social credit code: computed check characters validate', () => {
    const code = makeUnifiedCreditCode('91330212MA2CL8F54');
    expect(code).toBe('91330212MA2CL8F54L');
    expect(rules.unifiedCreditCode(code)).toBeUndefined();
    expect(() => makeUnifiedCreditCode('91330212MA2CL8FI4')).toThrow();
  });
});
