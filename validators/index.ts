/**
 * The validation catalogue of the original portal's field rules: one implementation for the browser (the Formily binding
 * in src/engine/form/rules.ts) and the server (the ajv keyword in src/server/validation/).
 * Pure TypeScript, no runtime dependencies, no imports outside validators/.
 *
 * How values are read — empty values, surrounding whitespace, numbers, full-width digits — is
 * defined once in ./values.ts; the identifier check algorithms live in ./identifiers.ts and the
 * password strength in ./password.ts.
 */
import { isValidIdCard, isValidOrgCode, isValidUnifiedCreditCode } from './identifiers';
import { isValidPassword } from './password';
import { isEmpty, ruleText, toRuleValue, type RuleValue } from './values';

export * from './identifiers';
export * from './password';
export { isEmpty, toRuleValue, type RuleValue } from './values';

export type RuleFn = (value: RuleValue) => string | undefined;

/** Default message of every rule, exactly as the original portal gives it (plus the two unit-code checks). */
export const messages = {
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
} as const;

export type RuleName = keyof typeof messages;

/** The original portal's fifteen field rules. */
export const SPEC_RULES = [
  'email',
  'url',
  'nonNegativeInteger',
  'number',
  'positiveInteger',
  'amount',
  'mobile',
  'postalCode',
  'phoneOrLandline',
  'fixedAssets',
  'deviceCode',
  'registrationCode',
  'idCard',
  'noLowercase',
  'password',
] as const satisfies readonly RuleName[];

/** The original portal's second postal-code message, for fields that override the default. */
export const POSTAL_CODE_LONG_MESSAGE = '请输入有效的邮政编码';

/** Message for a required field that is empty (a field may give its own). */
export const REQUIRED_MESSAGE = '此项为必填项';

/** As in the original portal: while typing, each check is deferred this long after the last change. */
export const VALIDATION_DELAY_MS = 500;

// ---------------------------------------------------------------------------------------------
// Patterns. ASCII classes only: full-width digits and letters never match (see values.ts).

const EMAIL = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/;
/** Scheme, optional user info, host, optional port, optional path/query/fragment without spaces. */
const URL_PARTS = /^(?:https?|ftp):\/\/(?:[^\s/?#@]+@)?([^\s/?#:@]+)(?::([0-9]{1,5}))?(?:[/?#]\S*)?$/i;
const DOMAIN = /^([A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
const IPV4 = /^([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})\.([0-9]{1,3})$/;
const DIGITS = /^[0-9]+$/;
/** Optional sign, digits, optional fraction with at least one digit ('.5' and '5.' are not numbers). */
const NUMBER = /^[+-]?[0-9]+(\.[0-9]+)?$/;
const POSITIVE_INTEGER = /^[1-9][0-9]*$/;
const AMOUNT = /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/;
const MOBILE = /^1[3-9][0-9]{9}$/;
const POSTAL_CODE = /^[1-9][0-9]{5}$/;
/** Landline with area code (0 + 2–3 digits, a hyphen) or the bare 7–8 digit local number. */
const LANDLINE = /^(0[0-9]{2,3}-)?[0-9]{7,8}$/;
const ALPHANUMERIC = /^[A-Za-z0-9]+$/;
const REGISTRATION_CODE = /^[0-9]{20}$/;
const LOWERCASE = /[a-z]/;
/** A login name: 4–30 ASCII letters, digits or _ . @ - (what sign-in and account creation accept). */
const LOGIN_NAME = /^[A-Za-z0-9_.@-]{4,30}$/;

function isUrl(s: string): boolean {
  const m = URL_PARTS.exec(s);
  if (!m) return false;
  const [, host, port] = m;
  if (port !== undefined && Number(port) > 65535) return false;
  const ip = IPV4.exec(host);
  if (ip) return ip.slice(1).every((octet) => Number(octet) <= 255);
  return host.toLowerCase() === 'localhost' || DOMAIN.test(host);
}

// ---------------------------------------------------------------------------------------------
// The catalogue

/**
 * A rule from a predicate over the value's text: empty values pass, anything else is read by
 * `ruleText` (trimmed unless `trim` is false) and answers the rule's default message on failure.
 */
function rule(name: RuleName, test: (text: string) => boolean, trim = true): RuleFn {
  return (raw) => {
    const value = toRuleValue(raw);
    if (value === undefined || value === null || isEmpty(value)) return undefined;
    const text = ruleText(value, trim);
    return text !== undefined && test(text) ? undefined : messages[name];
  };
}

export const rules: Readonly<Record<RuleName, RuleFn>> = {
  email: rule('email', (s) => EMAIL.test(s)),
  url: rule('url', isUrl),
  nonNegativeInteger: rule('nonNegativeInteger', (s) => DIGITS.test(s)),
  number: rule('number', (s) => NUMBER.test(s)),
  positiveInteger: rule('positiveInteger', (s) => POSITIVE_INTEGER.test(s)),
  amount: rule('amount', (s) => AMOUNT.test(s)),
  mobile: rule('mobile', (s) => MOBILE.test(s)),
  postalCode: rule('postalCode', (s) => POSTAL_CODE.test(s)),
  phoneOrLandline: rule('phoneOrLandline', (s) => MOBILE.test(s) || LANDLINE.test(s)),
  fixedAssets: rule('fixedAssets', (s) => POSITIVE_INTEGER.test(s)),
  deviceCode: rule('deviceCode', (s) => ALPHANUMERIC.test(s)),
  registrationCode: rule('registrationCode', (s) => REGISTRATION_CODE.test(s)),
  idCard: rule('idCard', (s) => isValidIdCard(s)),
  noLowercase: rule('noLowercase', (s) => !LOWERCASE.test(s)),
  // Not trimmed: surrounding spaces are characters of the password.
  password: rule('password', isValidPassword, false),
  unifiedCreditCode: rule('unifiedCreditCode', isValidUnifiedCreditCode),
  orgCode: rule('orgCode', isValidOrgCode),
  loginName: rule('loginName', (s) => LOGIN_NAME.test(s)),
};

/** The unit-registration and account checks beyond the original portal's field rules; also part of `rules`, so `validate()` takes them. */
export const extraRules = { unifiedCreditCode: rules.unifiedCreditCode, orgCode: rules.orgCode, loginName: rules.loginName } as const;
/** GB 32100 check of a unit's unified social credit code (请输入有效的统一社会信用代码). */
export const unifiedCreditCode: RuleFn = rules.unifiedCreditCode;
/** GB 11714 check of an older organisation code (请输入有效的组织机构代码). */
export const orgCode: RuleFn = rules.orgCode;

/** Every rule name a schema may use. */
export const ruleNames = Object.keys(rules) as RuleName[];

// ---------------------------------------------------------------------------------------------
// Rule references, as schemas write them

/** A rule name, or a name with the field's own message (`{"rule":"postalCode","message":"请输入有效的邮政编码"}`). */
export type RuleRef = RuleName | { rule: RuleName; message?: string };

export function isRuleName(x: unknown): x is RuleName {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(rules, x);
}

export function ruleNameOf(ref: RuleRef): RuleName {
  return typeof ref === 'string' ? ref : ref.rule;
}

/** Throws for a reference to a rule the catalogue does not have (a schema error, found at compile time). */
export function assertRuleRef(ref: unknown): asserts ref is RuleRef {
  const name = typeof ref === 'object' && ref !== null ? (ref as { rule?: unknown }).rule : ref;
  if (!isRuleName(name)) throw new Error(`unknown validation rule: ${JSON.stringify(name)}`);
}

/** Runs one rule reference: undefined when valid, otherwise the (possibly overridden) message. */
export function validate(ref: RuleRef, value: RuleValue): string | undefined {
  assertRuleRef(ref);
  const failed = rules[ruleNameOf(ref)](value);
  if (failed === undefined) return undefined;
  return typeof ref === 'object' && ref.message ? ref.message : failed;
}

/** The first reference of a list that fails, with its message; undefined when all pass. */
export function firstFailure(refs: readonly RuleRef[], value: RuleValue): { rule: RuleName; message: string } | undefined {
  for (const ref of refs) {
    const message = validate(ref, value);
    if (message !== undefined) return { rule: ruleNameOf(ref), message };
  }
  return undefined;
}

/** Runs a list of rule references and returns the first message, if any. */
export function validateAll(refs: readonly RuleRef[], value: RuleValue): string | undefined {
  return firstFailure(refs, value)?.message;
}
