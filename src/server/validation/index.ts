/**
 * The validation catalogue on the server: an ajv keyword `x-rules` that runs the same functions as
 * the browser, so a request that bypasses the form gets exactly the same Chinese message.
 *
 *   { "type": "string", "x-rules": ["mobile", { "rule": "postalCode", "message": "请输入有效的邮政编码" }] }
 *
 * Works with any ajv 8 instance, including Fastify's (`ajv: { plugins: [ajvRulesPlugin] }`) and
 * its `coerceTypes`: type coercion runs before the keyword, so a number coerced to a string is
 * checked as that string — which is also how the rules read a number (validators/values.ts).
 */
import Ajv, { type ErrorObject, type FuncKeywordDefinition } from 'ajv';
import { assertRuleRef, firstFailure, toRuleValue, type RuleName, type RuleRef } from '../../../validators';
import type { Envelope } from '../../shared/contract';
import { failEnvelope } from '../envelope';
import { AppError } from '../errors';
import { BOUNDED_DATE_FORMATS, withNumberBounds } from './bounds';

export const RULES_KEYWORD = 'x-rules';

/** What a compiled keyword returns (ajv does not export the name `DataValidateFunction` from its root). */
type KeywordCheck = ReturnType<NonNullable<FuncKeywordDefinition['compile']>>;

/** The `params` of an `x-rules` ajv error: which catalogue rule failed. */
export interface RuleErrorParams {
  rule: RuleName;
}

const ruleRefSchema = {
  anyOf: [
    { type: 'string' },
    { type: 'object', required: ['rule'], properties: { rule: { type: 'string' }, message: { type: 'string' } }, additionalProperties: false },
  ],
};

const keyword: FuncKeywordDefinition = {
  keyword: RULES_KEYWORD,
  schemaType: 'array',
  errors: true,
  metaSchema: { type: 'array', items: ruleRefSchema },
  compile(refs: unknown[]) {
    // An unknown rule name is a schema error: fail when the route schema compiles, not per request.
    refs.forEach(assertRuleRef);
    const checked = refs as RuleRef[];
    const check: KeywordCheck = (value: unknown) => {
      const failure = firstFailure(checked, toRuleValue(value));
      if (failure === undefined) {
        check.errors = undefined;
        return true;
      }
      // instancePath and schemaPath are left to ajv, which fills them in for keyword errors.
      const params: RuleErrorParams = { rule: failure.rule };
      check.errors = [{ keyword: RULES_KEYWORD, params, message: failure.message }];
      return false;
    };
    return check;
  },
};

/** Registers `x-rules` on an ajv instance (idempotent) and returns it. */
export function addRuleKeywords(ajv: Ajv): Ajv {
  if (!ajv.getKeyword(RULES_KEYWORD)) ajv.addKeyword(keyword);
  return ajv;
}

/** An ajv plugin for Fastify: `Fastify({ ajv: { plugins: [ajvRulesPlugin] } })`. */
export function ajvRulesPlugin(ajv: Ajv): Ajv {
  return addRuleKeywords(ajv);
}

/**
 * The server's one ajv: Fastify compiles every route schema with it (app.ts setValidatorCompiler)
 * and the resource engine its request checks, so both read the same keywords, formats and options.
 * Fastify's own defaults are kept (`coerceTypes: 'array'` — form-encoded legacy bodies and query
 * strings arrive as strings —, `useDefaults`, `removeAdditional` where a schema says
 * `additionalProperties: false`), with strict schemas and the date formats of the resources
 * (years 1900–2100), and every number bounded (bounds.ts).
 */
function createServerAjv(): Ajv {
  // strictNumbers off: ajv's strict number checks skip `minimum`/`maximum` for Infinity, which a
  // query string coerces to ("1e309"); with every number bounded (bounds.ts) the bound refuses it.
  const ajv = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: true,
    strictTypes: false,
    strictNumbers: false,
    allowUnionTypes: true,
  });
  for (const [name, format] of Object.entries(BOUNDED_DATE_FORMATS)) ajv.addFormat(name, format);
  // Every schema it compiles bounds its numbers (validation/bounds.ts); one copy per schema object.
  const compile = ajv.compile.bind(ajv);
  const bounded = new WeakMap<object, object>();
  ajv.compile = ((schema: object, meta?: boolean) => {
    let copy = bounded.get(schema);
    if (!copy) bounded.set(schema, (copy = withNumberBounds(schema)));
    return compile(copy, meta);
  }) as Ajv['compile'];
  return addRuleKeywords(ajv);
}

let serverAjvInstance: Ajv | undefined;
export const serverAjv = (): Ajv => (serverAjvInstance ??= createServerAjv());

// ---------------------------------------------------------------------------------------------
// From ajv errors to the client

/** The field an ajv error points at: the missing property, or the last segment of its path. */
export function fieldOf(err: ErrorObject): string {
  if (err.keyword === 'required') return String((err.params as { missingProperty?: string }).missingProperty ?? '');
  const path = err.instancePath.split('/').filter(Boolean);
  return path[path.length - 1] ?? '';
}

/** One failed catalogue rule: the field, its Chinese message, and the full JSON pointer. */
export interface RuleError {
  field: string;
  message: string;
  path: string;
}

/** The catalogue failures among ajv errors (other keywords are left to the caller). */
export function ruleErrors(errors: readonly ErrorObject[] | null | undefined): RuleError[] {
  return (errors ?? []).filter((e) => e.keyword === RULES_KEYWORD).map((e) => ({ field: fieldOf(e), message: e.message ?? '', path: e.instancePath }));
}

/** The ajv errors carried by a thrown error: Fastify's `err.validation` or ajv's `err.errors`. */
function ajvErrorsOf(err: unknown): readonly ErrorObject[] | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { validation, errors } = err as { validation?: unknown; errors?: unknown };
  const list = Array.isArray(validation) ? validation : Array.isArray(errors) ? errors : undefined;
  return list as ErrorObject[] | undefined;
}

/** The first catalogue failure of a thrown validation error, or undefined if it has none. */
export function errorFromValidation(err: unknown): RuleError | undefined {
  return ruleErrors(ajvErrorsOf(err))[0];
}

/**
 * The first catalogue failure among ajv errors as a typed error: HTTP 400 VALIDATION_FAILED,
 * exactly the catalogue's Chinese message (what the browser shows), and `data.field`.
 */
export function ruleFailure(errors: readonly ErrorObject[] | null | undefined): AppError | undefined {
  const [first] = ruleErrors(errors);
  return first ? new AppError('VALIDATION_FAILED', first.message, { field: first.field }) : undefined;
}

/**
 * The reply to a request that failed a catalogue rule, or undefined when `err` is not such a
 * failure: `{ status: 400, envelope: {result:"false", success:false, isSuccess:false, message,
 * errorMsg, code:"VALIDATION_FAILED", data:{field}} }`.
 */
export function validationEnvelope(err: unknown): { status: number; envelope: Envelope<unknown> } | undefined {
  const failure = ruleFailure(ajvErrorsOf(err));
  return failure && { status: failure.statusCode, envelope: failEnvelope(failure.code, failure.message, failure.data) };
}
