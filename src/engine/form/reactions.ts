/**
 * Screen reactions (`when`, `requiredWhen`, `disabledWhen`, `optionsFrom`, `compute`) as Formily function
 * reactions. Expressions are parsed once by the schema model's safe parser and evaluated over the
 * form's values plus the context variables ($mode, $roleType) that SchemaField hands in as scope.
 * Only the names an expression reads are read from the form, so a reaction re-runs exactly when
 * one of them changes.
 */
import type { Field, Form, GeneralField } from '@formily/core';
import { computedValue } from '../../schema/compute';
import { collectIdentifiers, evaluate, parseExpression, truthy, type Expr } from '../../schema/expr';
import { childCodes, type CodeItem } from '../model/codes';
import { formValues } from './values';

/** Context variables of expressions, provided through SchemaField's `scope`. */
export interface ExpressionContext {
  $mode?: string;
  $roleType?: string;
}

export type FieldReaction = (field: GeneralField, scope: ExpressionContext) => void;

/** A parsed condition that reads its variables from a form. */
export interface Condition {
  source: string;
  test(form: Form, context: ExpressionContext): boolean;
}

export function condition(source: string): Condition {
  const expr: Expr = parseExpression(source);
  const names = [...new Set(collectIdentifiers(expr).map((i) => i.name))];
  return {
    source,
    test(form, context) {
      const scope: Record<string, unknown> = {};
      for (const name of names) scope[name] = name.startsWith('$') ? context[name as keyof ExpressionContext] : formValues(form)[name];
      return truthy(evaluate(expr, scope));
    },
  };
}

/** Shown only while `when` holds (hidden fields are left out of the submitted values). */
export const visibleWhen =
  (c: Condition): FieldReaction =>
  (field, scope) => {
    field.display = c.test(field.form, scope ?? {}) ? 'visible' : 'none';
  };

/** Required only while the condition holds (keeps the required rule's message and trigger). */
export const requiredWhen =
  (c: Condition): FieldReaction =>
  (field, scope) => {
    (field as Field).required = c.test(field.form, scope ?? {});
  };

/**
 * The mark alone while the condition holds: a requirement checked only at some stages (requiredOn)
 * is validated at submit, but its mark (`text`, e.g. 提交时必填: FormItem.tsx) follows the form as
 * it is filled.
 */
export const markedWhen =
  (c: Condition, text: string): FieldReaction =>
  (field, scope) => {
    (field as Field).setDecoratorProps({ stagedMark: c.test(field.form, scope ?? {}) ? text : undefined });
  };

/** Disabled while the condition holds. */
export const disabledWhen =
  (c: Condition): FieldReaction =>
  (field, scope) => {
    const disabled = c.test(field.form, scope ?? {});
    if (field.pattern === 'editable' || field.pattern === 'disabled') field.pattern = disabled ? 'disabled' : 'editable';
  };

/** A computed field (`compute`) follows the fields it reads, as the server will compute it on save. */
export function computed(source: string): FieldReaction {
  const expr = parseExpression(source);
  const names = [...new Set(collectIdentifiers(expr).map((i) => i.name))];
  return (general) => {
    const scope: Record<string, unknown> = {};
    for (const name of names) scope[name] = formValues(general.form)[name];
    (general as Field).value = computedValue(expr, scope) ?? undefined;
  };
}

const valuesOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]);

/**
 * A dependent dictionary: the options are the children of the parent field's selected item; a
 * value the new options do not offer is cleared (province changed → city and district reset).
 */
export const optionsFrom =
  (parent: string, codes: readonly CodeItem[]): FieldReaction =>
  (general) => {
    const field = general as Field;
    const options = childCodes(codes, formValues(field.form)[parent]).map(({ value, label, disabled }) => ({ value, label, disabled }));
    field.dataSource = options;
    const offered = new Set(options.map((o) => o.value));
    const current = valuesOf(field.value);
    if (current.length > 0 && !current.every((v) => offered.has(v as string))) field.value = Array.isArray(field.value) ? [] : undefined;
  };
