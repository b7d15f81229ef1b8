/**
 * The ways a value reaches the catalogue, as functions with one signature so tests can require
 * that they all answer the same: the direct call, an ajv instance set up like Fastify's (with
 * `coerceTypes`), and a Formily form. The HTTP path lives in tests/api/validation.test.ts.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { createForm } from '@formily/core';
import { validateAll, type RuleRef, type RuleValue } from '../../../validators';
import { fieldValidators } from '../../../src/engine/form/rules';
import { ajvRulesPlugin, ruleErrors } from '../../../src/server/validation';

export type Path = (refs: readonly RuleRef[], value: unknown) => Promise<string | undefined>;

export const viaDirect: Path = async (refs, value) => validateAll(refs, value as RuleValue);

/** Fastify 5's ajv defaults (@fastify/ajv-compiler) plus the catalogue plugin. */
export function fastifyLikeAjv(): Ajv {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false });
  return ajvRulesPlugin(ajv);
}

/**
 * An ajv path. `typed` declares the property `type: "string"`, so ajv coerces numbers (and null)
 * to strings before the keyword runs; untyped, the keyword sees the raw value.
 */
export function viaAjv(typed: boolean): Path {
  const ajv = fastifyLikeAjv();
  const compiled = new Map<string, ValidateFunction>();
  return async (refs, value) => {
    const key = JSON.stringify(refs);
    let validate = compiled.get(key);
    if (!validate) {
      const property = typed ? { type: 'string', 'x-rules': refs } : { 'x-rules': refs };
      validate = ajv.compile({ type: 'object', properties: { value: property } });
      compiled.set(key, validate);
    }
    if (validate(value === undefined ? {} : { value })) return undefined;
    const [error] = ruleErrors(validate.errors);
    if (!error) throw new Error(`not an x-rules failure: ${JSON.stringify(validate.errors)}`);
    if (error.field !== 'value' || error.path !== '/value') throw new Error(`wrong field: ${JSON.stringify(error)}`);
    return error.message;
  };
}

/** A Formily form with one field carrying the rules; `form.validate()` runs them as a submit does. */
export const viaFormily: Path = async (refs, value) => {
  const form = createForm();
  const field = form.createField({ name: 'f', validator: fieldValidators({ rules: refs }) });
  form.setValuesIn('f', value);
  await Promise.resolve(form.validate()).catch(() => undefined);
  const first: unknown = field.selfErrors[0];
  return typeof first === 'string' ? first : undefined;
};
