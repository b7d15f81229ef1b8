/**
 * Computed fields (`compute`): an expression over the record's fields whose value the field holds.
 * The form evaluates it as the user types; the server evaluates it on every save, over the row as
 * it will be stored, so the stored value never comes from a request. Both use this module.
 */
import { evaluate, parseExpression, type Expr } from './expr';
import type { Resource } from './types';

export interface ComputedField {
  name: string;
  expr: Expr;
}

const cache = new WeakMap<Resource, readonly ComputedField[]>();

/** The resource's computed fields in field order (a later one may read an earlier one). */
export function computedFields(resource: Resource): readonly ComputedField[] {
  let fields = cache.get(resource);
  if (!fields) {
    fields = Object.entries(resource.fields).flatMap(([name, field]) => (field?.compute ? [{ name, expr: parseExpression(field.compute) }] : []));
    cache.set(resource, fields);
  }
  return fields;
}

/** A computed value as stored: a finite number, a string, a boolean, else null (an input missing). */
export function computedValue(expr: Expr, scope: Readonly<Record<string, unknown>>): string | number | boolean | null {
  const value = evaluate(expr, scope);
  if (typeof value === 'number') return Number.isFinite(value) ? Math.round(value * 1e6) / 1e6 : null;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'boolean') return value;
  return null;
}

/** The values of every computed field over `row` (each seeing those computed before it). */
export function computeRow(resource: Resource, row: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const fields = computedFields(resource);
  if (!fields.length) return {};
  const scope: Record<string, unknown> = { ...row };
  const values: Record<string, unknown> = {};
  for (const { name, expr } of fields) values[name] = scope[name] = computedValue(expr, scope);
  return values;
}
