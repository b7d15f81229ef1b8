/**
 * The validation catalogue on the server: an ajv keyword `x-rules` that runs the same functions as
 * the browser, so a request that bypasses the form gets exactly the same Chinese message.
 *
 *   { "type": "string", "x-rules": ["mobile", { "rule": "postalCode", "message": "请输入有效的邮政编码" }] }
 */
import type { Ajv, ErrorObject, FuncKeywordDefinition } from 'ajv';
import { isRuleName, REQUIRED_MESSAGE, validateAll, type RuleRef, type RuleValue } from '../../../validators';
import { failEnvelope } from '../envelope';

export const RULES_KEYWORD = 'x-rules';

interface RulesError extends ErrorObject {
  keyword: typeof RULES_KEYWORD;
  message: string;
}

const keyword: FuncKeywordDefinition = {
  keyword: RULES_KEYWORD,
  schemaType: 'array',
  errors: true,
  metaSchema: {
    type: 'array',
    items: {
      anyOf: [
        { type: 'string' },
        { type: 'object', required: ['rule'], properties: { rule: { type: 'string' }, message: { type: 'string' } }, additionalProperties: false },
      ],
    },
  },
  compile(refs: RuleRef[]) {
    for (const ref of refs) {
      const name = typeof ref === 'string' ? ref : ref.rule;
      if (!isRuleName(name)) throw new Error(`${RULES_KEYWORD}: unknown rule "${name}"`);
    }
    const check = (value: unknown, ctx?: { instancePath?: string }): boolean => {
      const v = typeof value === 'string' || typeof value === 'number' || value == null ? (value as RuleValue) : String(value);
      const message = validateAll(refs, v);
      if (message === undefined) return true;
      check.errors = [{ keyword: RULES_KEYWORD, instancePath: ctx?.instancePath ?? '', schemaPath: '', params: {}, message } as ErrorObject];
      return false;
    };
    check.errors = [] as ErrorObject[];
    return check;
  },
};

/** Registers `x-rules` on an ajv instance (idempotent). */
export function addRuleKeywords(ajv: Ajv): Ajv {
  if (!ajv.getKeyword(RULES_KEYWORD)) ajv.addKeyword(keyword);
  return ajv;
}

/** For Fastify: `Fastify({ ajv: { plugins: [ajvRulesPlugin] } })`. */
export function ajvRulesPlugin(ajv: Ajv): Ajv {
  return addRuleKeywords(ajv);
}

export interface FieldError {
  /** The field name (last segment of the instance path, or the missing property). */
  field: string;
  message: string;
}

function fieldOf(err: ErrorObject): string {
  if (err.keyword === 'required') return String((err.params as { missingProperty?: string }).missingProperty ?? '');
  const path = err.instancePath.split('/').filter(Boolean);
  return path[path.length - 1] ?? '';
}

/**
 * ajv errors as field errors, catalogue messages first. Errors of other keywords (type, maxLength,
 * required ...) get a short Chinese message so the client never sees ajv's English.
 */
export function ruleErrors(errors: readonly ErrorObject[] | null | undefined): FieldError[] {
  const out: FieldError[] = [];
  for (const err of errors ?? []) {
    const field = fieldOf(err);
    let message: string;
    switch (err.keyword) {
      case RULES_KEYWORD: message = (err as RulesError).message; break;
      case 'required': message = REQUIRED_MESSAGE; break;
      case 'maxLength': message = `长度不能超过${(err.params as { limit: number }).limit}个字符`; break;
      case 'minLength': message = REQUIRED_MESSAGE; break;
      case 'maximum': message = `不能大于${(err.params as { limit: number }).limit}`; break;
      case 'minimum': message = `不能小于${(err.params as { limit: number }).limit}`; break;
      case 'enum': message = '请选择有效的选项'; break;
      case 'type': message = '格式不正确'; break;
      case 'format': message = '格式不正确'; break;
      case 'additionalProperties': continue;
      default: message = '格式不正确';
    }
    out.push({ field, message });
  }
  // Catalogue messages are the most specific: put them first.
  return out.sort((a, b) => Number(isCatalogue(b, errors)) - Number(isCatalogue(a, errors)));
}

function isCatalogue(e: FieldError, errors: readonly ErrorObject[] | null | undefined): boolean {
  return !!errors?.some((err) => err.keyword === RULES_KEYWORD && (err as RulesError).message === e.message);
}

/**
 * The failure of a Fastify/ajv validation as the envelope: HTTP 400, code VALIDATION_FAILED when a
 * catalogue rule failed (its Chinese message, as the browser shows it), the field in `data.field`.
 */
export function validationEnvelope(errors: readonly ErrorObject[] | null | undefined) {
  const list = ruleErrors(errors);
  const first = list[0];
  const message = first?.message ?? '请求参数错误';
  return { ...failEnvelope('VALIDATION_FAILED', message), data: { field: first?.field ?? null, errors: list } };
}

/** True when a catalogue rule (not only a structural keyword) failed. */
export function hasRuleError(errors: readonly ErrorObject[] | null | undefined): boolean {
  return !!errors?.some((e) => e.keyword === RULES_KEYWORD);
}
