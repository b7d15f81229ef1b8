/**
 * What a resource field requires beyond its type, decided in one place for both sides: the browser
 * (a form marks the field required, hides it, refuses a date) and the server (a save or an action
 * is refused with the same Chinese message). Read from the resource JSON:
 *
 *   when: "<expr>"          the field is relevant only while this holds over the record's values;
 *                           otherwise the form hides it and the server stores nothing (null)
 *   required: true          required at every save
 *   requiredWhen: "<expr>"  required at every save while this holds
 *   requiredOn: ["commit"]  required only when the record takes these actions (a draft may be
 *                           incomplete; its commit may not); with requiredWhen: while it holds.
 *                           A sub-table is "required" when it has at least one row.
 *   notBefore / notAfter    date bounds, inclusive: "today", "today+30d", "today-1y", a date
 *                           "2000-01-01", or another date field's name ("startDate")
 *
 * Expressions are the schema expression language (expr.ts) over the record's field values.
 */
import { isEmpty } from '../../validators/values';
import { isRelativeDate, resolveRelativeDate, todayIn } from '../shared/dates';
import { collectIdentifiers, holds, parseExpression, type Expr } from './expr';
import type { Field, Resource } from './types';
import { fieldKind } from './kinds';

/** The stage a record is written at: 'save' (every save, drafts included) or the workflow action it takes ('commit', …). */
export type Stage = string;

export const SAVE_STAGE = 'save';

type Values = Readonly<Record<string, unknown>>;
type Fields = Resource['fields'];

const parsed = new Map<string, Expr>();
/** A parsed expression, cached (schemas are few, expressions evaluated often). */
function expression(source: string): Expr {
  let expr = parsed.get(source);
  if (!expr) parsed.set(source, (expr = parseExpression(source)));
  return expr;
}

/** The field names an expression reads (for reactions that re-run when one of them changes). */
export const namesRead = (source: string): string[] => [...new Set(collectIdentifiers(expression(source)).map((i) => i.name))];

/** Whether the field is relevant for these values (its `when` holds, or it has none). */
export function isRelevant(field: Field, values: Values): boolean {
  return !field.when || holds(expression(field.when), values);
}

/** Whether the field has a requirement that `requiredOn` limits to some stages (so a draft save skips it). */
export const stagedRequirement = (field: Field): boolean => Array.isArray(field.requiredOn) && field.requiredOn.length > 0;

/** The stages a field's requirement applies at: its `requiredOn`, else every save. */
export const requirementStages = (field: Field): readonly Stage[] => (stagedRequirement(field) ? field.requiredOn! : [SAVE_STAGE]);

/** Whether the field has any requirement (required, requiredWhen or requiredOn). */
export const hasRequirement = (field: Field): boolean => field.required === true || !!field.requiredWhen || stagedRequirement(field);

/** Whether the field is required for these values at one of `stages` (a relevant field only). */
export function isRequired(field: Field, values: Values, stages: readonly Stage[]): boolean {
  if (!hasRequirement(field) || !isRelevant(field, values)) return false;
  if (!requirementStages(field).some((s) => stages.includes(s))) return false;
  return !field.requiredWhen || holds(expression(field.requiredWhen), values);
}

/** Empty for a requirement: blank text, no selection, no file, no sub-table row. */
export const isBlank = (value: unknown): boolean => isEmpty(value) || (Array.isArray(value) && value.length === 0);

/** The message of a missing required value. */
export function requiredMessage(field: Field): string {
  if (field.requiredMessage) return field.requiredMessage;
  return `${fieldKind(field.type).requiredPrefix}${field.label}`;
}

/** A date bound resolved for `today`: the date and how a message names it; undefined when the bound names an empty field. */
function bound(fields: Fields, token: string, values: Values, today: string): { date: string; name: string } | undefined {
  if (isRelativeDate(token)) return { date: resolveRelativeDate(token, today), name: token === 'today' ? '今天' : resolveRelativeDate(token, today) };
  if (/^\d{4}-\d{2}-\d{2}$/.test(token)) return { date: token, name: token };
  const other = values[token];
  if (typeof other !== 'string' || !other) return undefined;
  return { date: other.slice(0, 10), name: fields[token]?.label ?? token };
}

/** Whether a bound token names another field (rather than a date). */
export const boundField = (token: string | undefined): string | undefined =>
  token && !isRelativeDate(token) && !/^\d{4}-\d{2}-\d{2}$/.test(token) ? token : undefined;

/** The message when a date field's value breaks its bounds (`notBefore`, `notAfter`), else undefined. */
export function dateBoundFailure(fields: Fields, field: Field, value: unknown, values: Values, today = todayIn()): string | undefined {
  if (typeof value !== 'string' || !value) return undefined;
  const date = value.slice(0, 10);
  const low = field.notBefore ? bound(fields, field.notBefore, values, today) : undefined;
  if (low && date < low.date) return `${field.label}不能早于${low.name}`;
  const high = field.notAfter ? bound(fields, field.notAfter, values, today) : undefined;
  if (high && date > high.date) return `${field.label}不能晚于${high.name}`;
  return undefined;
}

export interface RequirementFailure {
  field: string;
  message: string;
}

export interface CheckOptions {
  /** The stages of this write: ['save'], ['save', 'commit'] for a save that commits, [action] for an action. */
  stages: readonly Stage[];
  /** Fields whose date bounds are checked (default all); a save checks only the values it changes, so an old date does not block an edit of other fields. */
  dateFields?: ReadonlySet<string>;
  today?: string;
}

/**
 * The first requirement the values break: a missing required value, or a date out of bounds. The
 * values are the whole record (stored merged with the body, sub-table rows included).
 */
export function firstFailure(resource: Resource, values: Values, { stages, dateFields, today = todayIn() }: CheckOptions): RequirementFailure | undefined {
  for (const [name, field] of Object.entries(resource.fields)) {
    if (!field || !isRelevant(field, values)) continue;
    if (isRequired(field, values, stages) && isBlank(values[name])) return { field: name, message: requiredMessage(field) };
    if ((field.notBefore || field.notAfter) && (!dateFields || dateFields.has(name))) {
      const message = dateBoundFailure(resource.fields, field, values[name], values, today);
      if (message) return { field: name, message };
    }
  }
  return undefined;
}

/** The writable fields that are not relevant for these values (their `when` does not hold): stored as null. */
export function irrelevantFields(resource: Resource, values: Values): string[] {
  return Object.entries(resource.fields)
    .filter(([, field]) => field && field.when && !field.readonly && field.type !== 'children' && !isRelevant(field, values))
    .map(([name]) => name);
}
