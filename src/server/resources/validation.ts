/**
 * Request bodies checked against the schemas generated from the resource (schemas.ts), with the
 * server's one ajv instance and one compiled validator per resource, made on first use. A failure becomes
 * VALIDATION_FAILED (HTTP 400) whose message names the field by its label in Chinese; a
 * validator-catalogue rule (`x-rules`) answers with the catalogue's own message.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { AppError } from '../errors';
import { requiredMessage } from '../../schema/requirements';
import type { Field } from '../../schema/types';
import type { ResourceModel } from './model';
import { fieldOf, ruleFailure, serverAjv } from '../validation/index';

/** A compiled check; its `schema` is the object the routes document (operations.ts). */
export type Validator = ValidateFunction;

/**
 * Compiled by the server's one ajv, the one Fastify's routes use — on its first use, not at start:
 * compiling every resource's save, list and action schemas was half of a start's CPU (measured by npm run bench:restart);
 * most are never used by a given process. `schema` is there at once (routes document it).
 */
export function compileValidator(schema: object): Validator {
  let compiled: ValidateFunction | undefined;
  const validate = function (this: unknown, data: unknown) {
    compiled ??= serverAjv().compile(schema);
    const valid = compiled.call(this, data);
    validate.errors = compiled.errors;
    return valid;
  } as Validator;
  validate.schema = schema;
  validate.errors = null;
  return validate;
}

/** Messages of the structural checks; `{label}` and `{limit}` are filled in. */
const MESSAGES: Record<string, string> = {
  required: '请填写{label}',
  minLength: '请填写{label}',
  minItems: '请选择{label}',
  maxLength: '{label}不能超过{limit}个字符',
  maxItems: '{label}最多{limit}项',
  minimum: '{label}不能小于{limit}',
  maximum: '{label}不能大于{limit}',
  enum: '{label}的值不在可选范围内',
  uniqueItems: '{label}有重复的选项',
};
const FALLBACK = '{label}格式不正确';
const MISSING_KEYWORDS = new Set(['required', 'minLength', 'minItems']);

/** Labels of the list parameters that are not fields. */
const PARAM_LABELS: Readonly<Record<string, string>> = { pageNo: '页码', pageSize: '每页条数', orderBy: '排序', q: '关键字', version: '版本' };

/** The model and field an ajv error points at (sub-table rows included). */
function locate(model: ResourceModel, error: ErrorObject): { label: string; field?: Field } {
  const segments = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') segments.push((error.params as { missingProperty: string }).missingProperty);
  let current = model;
  let label = (segments.length === 1 && PARAM_LABELS[segments[0]]) || current.title;
  let found: Field | undefined;
  for (const segment of segments) {
    const child = current.children.find((c) => c.name === segment);
    if (child) {
      found = current.resource.fields[segment];
      current = child.model;
      label = child.label;
      continue;
    }
    const field = current.byName.get(segment.replace(/_(gte|lte)$/, ''));
    if (field) {
      label = field.label;
      found = field.field;
    }
  }
  return { label, field: found };
}

function limitOf(error: ErrorObject): string {
  const params = error.params as { limit?: number };
  return params.limit === undefined ? '' : String(params.limit);
}

/**
 * The typed error of a failed body: a catalogue rule answers with its own message (the one the
 * browser shows); structural checks name the field by its Chinese label. Both carry `data.field`.
 */
export function validationError(model: ResourceModel, errors: readonly ErrorObject[]): AppError {
  const rule = ruleFailure(errors);
  if (rule) return rule;
  const [error] = errors;
  const { label, field } = locate(model, error);
  // A missing value is asked for as the form asks (请填写… / 请选择… / 请上传…, or the field's requiredMessage).
  const missing = MISSING_KEYWORDS.has(error.keyword) && field;
  const message = missing ? requiredMessage(field) : (MESSAGES[error.keyword] ?? FALLBACK).replace('{label}', label).replace('{limit}', limitOf(error));
  return new AppError('VALIDATION_FAILED', message, { field: fieldOf(error) });
}

/** Empty strings of non-text fields mean "no value" (form posts send them for blank inputs). */
function blanksToNull(model: ResourceModel, body: Record<string, unknown>): void {
  for (const f of model.writable) {
    if (f.kind !== 'string' && body[f.name] === '') body[f.name] = null;
  }
}

/** Drops blank list parameters (query forms send every input, filled or not). */
export function dropBlanks(params: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(params)) if (value === '' || value === null) delete params[key];
  return params;
}

/** Validates (and coerces) a body or list parameters in place; throws VALIDATION_FAILED. */
export function assertValid(model: ResourceModel, validate: Validator, body: unknown): asserts body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('BAD_REQUEST');
  blanksToNull(model, body as Record<string, unknown>);
  if (!validate(body)) throw validationError(model, validate.errors ?? []);
}
