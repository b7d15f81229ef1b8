/**
 * The validation catalogue of SPEC.md §5: one implementation for the browser (Formily reactions)
 * and the server (an ajv keyword). Pure TypeScript, no runtime dependencies.
 *
 * Conventions shared by every rule:
 * - Empty values (undefined, null, '', whitespace only) are valid: "required" is a separate concern.
 * - A number is validated as its decimal string form (`12` behaves like `'12'`).
 * - Surrounding whitespace is ignored (inputs are trimmed before checking); inner whitespace is not.
 * - Only ASCII digits count as digits: full-width digits (０-９) are rejected, because the server
 *   stores and the registry exchanges ASCII codes.
 */

export type RuleValue = string | number | null | undefined;
export type RuleFn = (value: RuleValue) => string | undefined;

/** Default message of every rule, exactly as SPEC.md §5 gives it. */
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
} as const;

export type RuleName = keyof typeof messages;

/** The second postal-code message of SPEC.md §5, for fields that override the default. */
export const POSTAL_CODE_LONG_MESSAGE = '请输入有效的邮政编码';

/** Message for a required field that is empty (a field may give its own). */
export const REQUIRED_MESSAGE = '此项为必填项';

/** Guidance shown beside new-password fields (SPEC.md §5, change-password form). */
export const PASSWORD_GUIDANCE = '密码长度为8-14位，至少包含一个数字、一个字母和一个特殊字符（! @ # $ % ^ & * ? ( )）';

/** SPEC.md §5 / §9: each check is deferred this long after the last change. */
export const VALIDATION_DELAY_MS = 500;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 14;
/** A password scoring below this is "simple" (SPEC.md §4, §9). */
export const SIMPLE_PASSWORD_THRESHOLD = 3;

/** True for undefined, null, '' and whitespace-only strings. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

/** The checked text of a value: numbers in decimal form, strings trimmed. */
function text(value: RuleValue): string {
  return typeof value === 'number' ? String(value) : String(value ?? '').trim();
}

/** Builds a rule from a predicate over the trimmed text; empty values always pass. */
function rule(name: RuleName, test: (s: string) => boolean): RuleFn {
  return (value) => {
    if (isEmpty(value)) return undefined;
    if (typeof value === 'number' && !Number.isFinite(value)) return messages[name];
    return test(text(value)) ? undefined : messages[name];
  };
}

const RE = {
  email: /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*@[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/,
  url: /^(https?|ftp):\/\/(([A-Za-z0-9-]+\.)+[A-Za-z]{2,}|localhost|\d{1,3}(\.\d{1,3}){3})(:\d{1,5})?([/?#][^\s]*)?$/,
  digits: /^[0-9]+$/,
  number: /^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)$/,
  positiveInteger: /^[1-9][0-9]*$/,
  amount: /^(0|[1-9][0-9]*)(\.[0-9]{1,2})?$/,
  mobile: /^1[3-9][0-9]{9}$/,
  postalCode: /^[1-9][0-9]{5}$/,
  landline: /^(0[0-9]{2,3}-)?[0-9]{7,8}$/,
  alnum: /^[A-Za-z0-9]+$/,
  registrationCode: /^[0-9]{20}$/,
  lowercase: /[a-z]/,
};

function validIp(s: string): boolean {
  const m = /^(?:[a-z]+:\/\/)(\d{1,3}(?:\.\d{1,3}){3})(?=[:/?#]|$)/i.exec(s);
  return !m || m[1].split('.').every((part) => Number(part) <= 255);
}

// ---------------------------------------------------------------------------------------------
// Identity card (GB 11643)

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** True when YYYYMMDD is a real calendar date not after `today`. */
export function isRealPastDate(yyyymmdd: string, today: Date = new Date()): boolean {
  if (!/^[0-9]{8}$/.test(yyyymmdd)) return false;
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  if (y < 1800 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  const todayUtc = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return date.getTime() <= todayUtc;
}

/** The GB 11643 check character of the first 17 digits. */
export function idCardCheckChar(first17: string): string {
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK[sum % 11];
}

function validIdCard(s: string): boolean {
  if (!/^[0-9]{17}[0-9Xx]$/.test(s)) return false;
  if (!isRealPastDate(s.slice(6, 14))) return false;
  return idCardCheckChar(s.slice(0, 17)) === s[17].toUpperCase();
}

/** The stored form of an identity-card number: trimmed, check character `X` upper-case. */
export function normalizeIdCard(value: string): string {
  return value.trim().toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// Unified social credit code (GB 32100) and organisation code (GB 11714)

const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The GB 32100 check character of the first 17 characters, or undefined if one is not allowed. */
export function unifiedCreditCodeCheckChar(first17: string): string | undefined {
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = USCC_CHARS.indexOf(first17[i]);
    if (v < 0) return undefined;
    sum += v * USCC_WEIGHTS[i];
  }
  return USCC_CHARS[(31 - (sum % 31)) % 31];
}

/** Completes 17 characters with their check character. */
export function makeUnifiedCreditCode(first17: string): string {
  const check = unifiedCreditCodeCheckChar(first17);
  if (first17.length !== 17 || check === undefined) throw new Error(`not a credit-code prefix: ${first17}`);
  return first17 + check;
}

function validUnifiedCreditCode(s: string): boolean {
  return s.length === 18 && unifiedCreditCodeCheckChar(s.slice(0, 17)) === s[17];
}

const ORG_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

/** The GB 11714 check character of the first 8 characters, or undefined if one is not allowed. */
export function orgCodeCheckChar(first8: string): string | undefined {
  let sum = 0;
  for (let i = 0; i < 8; i++) {
    const v = ORG_CHARS.indexOf(first8[i]);
    if (v < 0) return undefined;
    sum += v * ORG_WEIGHTS[i];
  }
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

function validOrgCode(s: string): boolean {
  const m = /^([0-9A-Z]{8})-?([0-9X])$/.exec(s);
  return !!m && orgCodeCheckChar(m[1]) === m[2];
}

// ---------------------------------------------------------------------------------------------
// Password strength (SPEC.md §5)

/** 0 if shorter than 8 characters, otherwise the number of classes present (lower, upper, digit, other). */
export function passwordStrength(pw: string): number {
  if (typeof pw !== 'string' || pw.length < PASSWORD_MIN_LENGTH) return 0;
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/];
  return classes.filter((re) => re.test(pw)).length;
}

/** A password rated below 3 is simple: the session gets the simple-password flag. */
export function isSimplePassword(pw: string): boolean {
  return passwordStrength(pw) < SIMPLE_PASSWORD_THRESHOLD;
}

function validPassword(raw: RuleValue): boolean {
  // Passwords are not trimmed: a space is a character of the password.
  const pw = String(raw);
  return pw.length <= PASSWORD_MAX_LENGTH && passwordStrength(pw) >= SIMPLE_PASSWORD_THRESHOLD;
}

// ---------------------------------------------------------------------------------------------
// The catalogue

export const rules: Record<RuleName, RuleFn> = {
  email: rule('email', (s) => RE.email.test(s)),
  url: rule('url', (s) => RE.url.test(s) && validIp(s)),
  nonNegativeInteger: rule('nonNegativeInteger', (s) => RE.digits.test(s)),
  number: rule('number', (s) => RE.number.test(s)),
  positiveInteger: rule('positiveInteger', (s) => RE.positiveInteger.test(s)),
  amount: rule('amount', (s) => RE.amount.test(s)),
  mobile: rule('mobile', (s) => RE.mobile.test(s)),
  postalCode: rule('postalCode', (s) => RE.postalCode.test(s)),
  phoneOrLandline: rule('phoneOrLandline', (s) => RE.mobile.test(s) || RE.landline.test(s)),
  fixedAssets: rule('fixedAssets', (s) => RE.positiveInteger.test(s)),
  deviceCode: rule('deviceCode', (s) => RE.alnum.test(s)),
  registrationCode: rule('registrationCode', (s) => RE.registrationCode.test(s)),
  idCard: rule('idCard', validIdCard),
  noLowercase: rule('noLowercase', (s) => !RE.lowercase.test(s)),
  password: (value) => (isEmpty(value) || validPassword(value) ? undefined : messages.password),
  unifiedCreditCode: rule('unifiedCreditCode', validUnifiedCreditCode),
  orgCode: rule('orgCode', validOrgCode),
};

/** The fifteen rules of SPEC.md §5 (the catalogue also holds the two unit-code checks). */
export const SPEC_RULES: readonly RuleName[] = [
  'email', 'url', 'nonNegativeInteger', 'number', 'positiveInteger', 'amount', 'mobile', 'postalCode',
  'phoneOrLandline', 'fixedAssets', 'deviceCode', 'registrationCode', 'idCard', 'noLowercase', 'password',
];

export const ruleNames = Object.keys(rules) as RuleName[];

/** A rule reference as schemas write it: a name, or a name with the field's own message. */
export type RuleRef = RuleName | { rule: RuleName; message?: string };

export function isRuleName(x: unknown): x is RuleName {
  return typeof x === 'string' && Object.prototype.hasOwnProperty.call(rules, x);
}

export function ruleNameOf(ref: RuleRef): RuleName {
  return typeof ref === 'string' ? ref : ref.rule;
}

/** Runs one rule reference: undefined when valid, otherwise the (possibly overridden) message. */
export function validate(ref: RuleRef, value: RuleValue): string | undefined {
  const name = ruleNameOf(ref);
  if (!isRuleName(name)) throw new Error(`unknown validation rule: ${String(name)}`);
  const failed = rules[name](value);
  if (failed === undefined) return undefined;
  return typeof ref === 'object' && ref.message ? ref.message : failed;
}

/** Runs a list of rule references and returns the first message, if any. */
export function validateAll(refs: readonly RuleRef[], value: RuleValue): string | undefined {
  for (const ref of refs) {
    const message = validate(ref, value);
    if (message !== undefined) return message;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Change-password form (SPEC.md §5)

export const changePasswordMessages = {
  oldPasswordRequired: '请输入当前密码',
  newPasswordRequired: '请输入新密码',
  confirmRequired: '请确认新密码',
  mismatchTitle: '提示',
  mismatch: '两次输入的新密码不一致',
} as const;

export function passwordsMatch(a: string | null | undefined, b: string | null | undefined): boolean {
  return (a ?? '') === (b ?? '');
}

/** GB 32100 check of a unit's unified social credit code (请输入有效的统一社会信用代码). */
export const unifiedCreditCode: RuleFn = rules.unifiedCreditCode;
/** GB 11714 check of an older organisation code (请输入有效的组织机构代码). */
export const orgCode: RuleFn = rules.orgCode;
