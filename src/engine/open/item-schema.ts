/**
 * What a screen item's open-form keywords add to its compiled Formily field: `sms` makes the field
 * an SMS code input that sends for the named fields, `password` a masked input (with the strength
 * meter), `sameAs` checks that it equals another field (a confirmation) and re-checks it when that
 * one changes. Pure data plus function reactions.
 */
import { isField, type GeneralField } from '@formily/core';
import type { ISchema } from '@formily/react';
import type { FieldItem } from '../../schema/types';
import { formValues } from '../form/values';

/** Message of a `sameAs` without its own. */
export const SAME_AS_MESSAGE = '两次输入的内容不一致';

/** The value a confirmation must match is set and differs from it (an empty confirmation of a set value differs too). */
export function differs(value: unknown, other: unknown): boolean {
  const filled = other !== undefined && other !== null && other !== '';
  return filled && (value ?? '') !== other;
}

/** The equality check of a confirmation field, as a Formily validator. */
export function sameAsValidator(sameAs: NonNullable<FieldItem['sameAs']>) {
  const message = sameAs.message ?? SAME_AS_MESSAGE;
  return {
    triggerType: 'onBlur' as const,
    validator: (value: unknown, _rule: unknown, ctx: { form?: { values?: Record<string, unknown> } }) =>
      differs(value, ctx.form?.values?.[sameAs.field]) ? message : '',
  };
}

/** Re-checks a confirmation the user has filled whenever the field it confirms changes. */
const recheckOnChange = (other: string) => (field: GeneralField) => {
  void formValues(field.form)[other];
  if (isField(field) && field.value !== undefined && field.value !== '') Promise.resolve(field.validate('onBlur')).catch(() => undefined);
};

/** A schema keyword that holds one entry or a list of them, as a list. */
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value.slice() : value ? [value] : []);

/** The parts of `node` an item's `sms` and `sameAs` replace or add (the caller merges them). */
export function openItemSchema(item: FieldItem, node: ISchema): ISchema | undefined {
  if (!item.sms && !item.sameAs && !item.password) return undefined;
  const validators = listOf(node['x-validator']);
  const reactions = [...(Array.isArray(node['x-reactions']) ? node['x-reactions'] : node['x-reactions'] ? [node['x-reactions']] : [])];
  if (item.sameAs) {
    validators.push(sameAsValidator(item.sameAs));
    reactions.push(recheckOnChange(item.sameAs.field));
  }
  const component = item.sms ? 'SmsCodeField' : item.password === 'strength' ? 'StrengthPassword' : item.password ? 'Password' : undefined;
  return {
    ...(component ? { 'x-component': component } : {}),
    ...(item.sms ? { 'x-component-props': { ...(node['x-component-props'] as object | undefined), send: item.sms.send, fields: item.sms.fields } } : {}),
    ...(validators.length ? { 'x-validator': validators } : {}),
    ...(reactions.length ? { 'x-reactions': reactions as ISchema['x-reactions'] } : {}),
  };
}
