/** How empty values read (pure: the form compiler uses it without React). */
import { fieldKind } from '../../schema/kinds';
import type { Field } from '../../schema/types';

export const EMPTY_TEXT = '—';
/** A number the server computes (a readonly number field) that it has not computed yet. */
export const PENDING_TEXT = '待计算';

/** What an empty value reads as: 待计算 for a number only the server sets, else —. */
export function emptyTextOf(field: Field): string {
  const { value } = fieldKind(field.type);
  return field.readonly && (value === 'number' || value === 'integer') ? PENDING_TEXT : EMPTY_TEXT;
}
