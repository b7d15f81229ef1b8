/**
 * The validation catalogue on the server: an ajv keyword `x-rules` that runs the same functions as
 * the browser, so a request that bypasses the form gets exactly the same Chinese message.
 *
 *   { "type": "string", "x-rules": ["mobile", { "rule": "postalCode", "message": "请输入有效的邮政编码" }] }
 */
import type { Ajv, ErrorObject, FuncKeywordDefinition } from 'ajv';
import { isRuleName, validateAll, type RuleRef, type RuleValue } from '../../../validators';
import { AppError } from '../errors';

export const RULES_KEYWORD = 'x-rules';

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

/** The field an ajv error points at: the missing property, or the last segment of its path. */
export function fieldOf(err: ErrorObject): string {
  if (err.keyword === 'required') return String((err.params as { missingProperty?: string }).missingProperty ?? '');
  const path = err.instancePath.split('/').filter(Boolean);
  return path[path.length - 1] ?? '';
}

/**
 * The first validator-catalogue failure among ajv errors, as a typed error: HTTP 400
 * VALIDATION_FAILED, exactly the catalogue's Chinese message (what the browser shows), and the
 * field in `data.field`. Undefined when no catalogue rule failed.
 */
export function ruleFailure(errors: readonly ErrorObject[] | null | undefined): AppError | undefined {
  const err = errors?.find((e) => e.keyword === RULES_KEYWORD);
  return err ? new AppError('VALIDATION_FAILED', err.message, { field: fieldOf(err) }) : undefined;
}
