/**
 * The validation catalogue called directly: every field rule of the original portal with its exact message, the
 * shared vectors, rule references with overridden messages, password strength and identifiers.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  changePasswordMessages,
  extraRules,
  idCardCheckChar,
  isRealPastDate,
  isRuleName,
  isSimplePassword,
  makeUnifiedCreditCode,
  messages,
  normalizeIdCard,
  orgCode,
  orgCodeCheckChar,
  PASSWORD_GUIDANCE,
  passwordsMatch,
  passwordStrength,
  POSTAL_CODE_LONG_MESSAGE,
  ruleNames,
  rules,
  SPEC_RULES,
  toRuleValue,
  unifiedCreditCode,
  validate,
  validateAll,
  type RuleName,
} from '../../validators';
import { EMPTY_VALUES, label, labelledCases, VECTORS, VECTORS_TODAY, withIdCheckChar } from './vectors/rules';
import { addToDate } from '../../src/shared/dates';
import { chinaInstants, clockPinnedAt, middayInChina } from '../support/clock';

// The date-relative vectors (born today / tomorrow) hold for the day they were made.
clockPinnedAt(middayInChina(VECTORS_TODAY));

describe('the catalogue holds every field rule of the original portal with its exact message', () => {
  test('fifteen rules, keyed as the schemas name them, with the original portal’s messages', () => {
    expect(messages).toEqual({
      email: '请输入正确邮箱格式',
      url: '请输入正确URL格式',
      nonNegativeInteger: '请输入正整数',
      number: '请输入数字',
      positiveInteger: '请输入正整数',
      amount: '请输入有效的两位小数',
      mobile: '请输入有效的手机号码',
      postalCode: '请输入有效的邮编',
      phoneOrLandline: '请输入有效的手机号或者座机号',
      fixedAssets: '请输入有效的固定资产',
      deviceCode: '设备代码只能是字母和数字',
      registrationCode: '请输入有效的20位注册代码',
      idCard: '请输入有效的身份证号',
      noLowercase: '不能输入小写字母',
      password: '请输入8-14位含字母、数字和特殊符号的密码',
      unifiedCreditCode: '请输入有效的统一社会信用代码',
      orgCode: '请输入有效的组织机构代码',
      loginName: '登录账号为4-30位字母、数字或 _ . @ -',
    });
    expect(SPEC_RULES).toHaveLength(15);
    expect([...ruleNames].sort()).toEqual([...SPEC_RULES, 'unifiedCreditCode', 'orgCode', 'loginName'].sort());
    for (const name of ruleNames) expect(typeof rules[name]).toBe('function');
  });

  test('the unit-code checks are exported on their own and as extra rules', () => {
    expect(extraRules).toEqual({ unifiedCreditCode, orgCode, loginName: rules.loginName });
    expect(unifiedCreditCode('91330212MA2CL8F54A')).toBe('请输入有效的统一社会信用代码');
    expect(orgCode('D21435691')).toBe('请输入有效的组织机构代码');
  });

  test('every rule has at least 12 vectors, valid and invalid', () => {
    expect(Object.keys(VECTORS).sort()).toEqual([...ruleNames].sort());
    for (const name of ruleNames) {
      expect(VECTORS[name].length, name).toBeGreaterThanOrEqual(12);
      expect(
        VECTORS[name].some((c) => c.valid),
        name,
      ).toBe(true);
      expect(
        VECTORS[name].some((c) => !c.valid),
        name,
      ).toBe(true);
    }
  });
});

describe.each(ruleNames)('rule %s', (name: RuleName) => {
  test.each(EMPTY_VALUES.map((v) => [label(v), v]))('passes the empty value %s', (_l, value) => {
    expect(rules[name](value)).toBeUndefined();
  });
  test.each(labelledCases(name))('%s', (_l, { value, valid }) => {
    expect(rules[name](value)).toBe(valid ? undefined : messages[name]);
  });
});

describe('rule references as schemas write them', () => {
  test('a field may override the message (the second postal-code message)', () => {
    const ref = { rule: 'postalCode', message: POSTAL_CODE_LONG_MESSAGE } as const;
    expect(POSTAL_CODE_LONG_MESSAGE).toBe('请输入有效的邮政编码');
    expect(validate('postalCode', '01234')).toBe('请输入有效的邮编');
    expect(validate(ref, '01234')).toBe('请输入有效的邮政编码');
    expect(validate(ref, '315000')).toBeUndefined();
    expect(validate({ rule: 'postalCode' }, '01234')).toBe('请输入有效的邮编');
  });
  test('validateAll answers the first failing rule', () => {
    expect(validateAll(['number', 'positiveInteger'], '1.5')).toBe('请输入正整数');
    expect(validateAll(['number', 'positiveInteger'], 'x')).toBe('请输入数字');
    expect(validateAll(['number', 'positiveInteger'], '15')).toBeUndefined();
    expect(validateAll([], 'anything')).toBeUndefined();
  });
  test('the extra rules are references too', () => {
    expect(validate('unifiedCreditCode', 'x')).toBe('请输入有效的统一社会信用代码');
    expect(validate({ rule: 'orgCode', message: '代码有误' }, 'x')).toBe('代码有误');
  });
  test('an unknown rule is a programming error', () => {
    expect(isRuleName('mobile')).toBe(true);
    expect(isRuleName('toString')).toBe(false);
    expect(() => validate('nope' as RuleName, 'x')).toThrow(/unknown validation rule: "nope"/);
    expect(() => validate({ rule: 'nope' } as never, 'x')).toThrow(/unknown validation rule/);
  });
  test('values that are neither text nor numbers are read as text', () => {
    expect(toRuleValue(true)).toBe('true');
    expect(toRuleValue(12n)).toBe('12');
    expect(toRuleValue(12)).toBe(12);
    expect(toRuleValue(null)).toBeNull();
    expect(rules.positiveInteger(12n as never)).toBeUndefined();
  });
});

describe('password strength (the original portal’s field rules)', () => {
  test.each([
    ['', 0],
    ['Ab1!', 0],
    ['Ab1!xyz', 0],
    ['abcdefgh', 1],
    ['ABCDEFGH', 1],
    ['12345678', 1],
    ['        ', 1],
    ['abcd1234', 2],
    ['Abcdefgh', 2],
    ['Abcd1234', 3],
    ['abc123!@', 3],
    ['Admin@2026', 4],
    ['Aa1!Aa1!Aa1!Aa1!', 4],
  ] as const)('%j scores %i', (pw, score) => expect(passwordStrength(pw)).toBe(score));
  test('a score below 3 is simple', () => {
    expect(isSimplePassword('12345678')).toBe(true);
    expect(isSimplePassword('Abcdefgh')).toBe(true);
    expect(isSimplePassword('Abcd1234')).toBe(false);
  });
  test('the change-password form texts', () => {
    expect(PASSWORD_GUIDANCE).toBe('密码长度为8-14位，至少包含一个数字、一个字母和一个特殊字符（! @ # $ % ^ & * ? ( )）');
    expect(changePasswordMessages).toMatchObject({
      oldPasswordRequired: '请输入当前密码',
      confirmRequired: '请确认新密码',
      mismatchTitle: '提示',
      mismatch: '两次输入的新密码不一致',
    });
    expect(passwordsMatch('Admin@2026', 'Admin@2026')).toBe(true);
    expect(passwordsMatch('Admin@2026', 'Admin@2027')).toBe(false);
    expect(passwordsMatch(undefined, '')).toBe(true);
  });
});

describe('national identifiers', () => {
  test('identity card: the check character and the stored form', () => {
    expect(idCardCheckChar('11010519491231002')).toBe('X');
    expect(idCardCheckChar('11010120000229001')).toBe('8');
    expect(() => idCardCheckChar('1101051949123100')).toThrow();
    expect(normalizeIdCard(' 11010519491231002x ')).toBe('11010519491231002X');
  });
  test('birth dates: real calendar days, not after today', () => {
    const today = new Date('2024-02-29T12:00:00+08:00');
    expect(isRealPastDate('20240229', today)).toBe(true);
    expect(isRealPastDate('20240301', today)).toBe(false);
    expect(isRealPastDate('20000229', today)).toBe(true);
    expect(isRealPastDate('19000229', today)).toBe(false);
    expect(isRealPastDate('20230229', today)).toBe(false);
    expect(isRealPastDate('20231131', today)).toBe(false);
    expect(isRealPastDate('2023111', today)).toBe(false);
  });
  test('unified social credit code: computed check characters validate', () => {
    const code = makeUnifiedCreditCode('91330212MA2CL8F54');
    expect(code).toBe('91330212MA2CL8F54L');
    expect(unifiedCreditCode(code)).toBeUndefined();
    expect(() => makeUnifiedCreditCode('91330212MA2CL8FI4')).toThrow(/credit-code prefix/);
    expect(() => makeUnifiedCreditCode('91330212')).toThrow(/credit-code prefix/);
  });
  test('organisation code: 10 is X and 11 is 0', () => {
    expect(orgCodeCheckChar('D2143569')).toBe('X');
    expect(orgCodeCheckChar('00000000')).toBe('0');
    expect(orgCodeCheckChar('d2143569')).toBeUndefined();
    expect(orgCodeCheckChar('D214356')).toBeUndefined();
  });
});

describe.each(chinaInstants())("a birth date is checked against China's date, at the %s", (_name, instant, today) => {
  const card = (date: string) => withIdCheckChar(`330212${date.replaceAll('-', '')}001`);
  beforeEach(() => vi.setSystemTime(instant));
  afterEach(() => vi.setSystemTime(middayInChina(VECTORS_TODAY)));

  test("born on China's today is valid, born on China's tomorrow is not, whatever the machine's zone", () => {
    expect(isRealPastDate(today.replaceAll('-', ''), instant)).toBe(true);
    expect(isRealPastDate(addToDate(today, 1, 'd').replaceAll('-', ''), instant)).toBe(false);
    // The catalogue's rule reads the (pinned) clock itself.
    expect(rules.idCard(card(today))).toBeUndefined();
    expect(rules.idCard(card(addToDate(today, -1, 'd')))).toBeUndefined();
    expect(rules.idCard(card(addToDate(today, 1, 'd')))).toBe(messages.idCard);
  });
});
