/**
 * What differs between two versions of a record, field by field, in words a user reads: labels,
 * codes as their dictionary labels (an area as its path), money with two decimals, blanks as 空.
 * Hooks use it to record a change ("联系手机：138… → 139…") and the history that shows it. Fields
 * with a `mask` are compared whole and recorded masked (masking.ts).
 */
import type { Field } from '../../schema/types';
import { dictPath } from './dicts';
import { shownText } from './mask-patterns';
import type { HookContext } from './hooks';
import type { ResourceModel } from './model';

export interface FieldChange {
  field: string;
  label: string;
  from: string;
  to: string;
}

const BLANK = '空';

/** A field's value as text (blank: ''). */
export function valueText(field: Field, value: unknown, dicts: HookContext['dicts']): string {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return '';
  if ((field.type === 'dict' || field.type === 'multiDict' || field.type === 'area') && field.dict) {
    const codes = Array.isArray(value) ? value : [value];
    const labelOf = (code: unknown) => {
      const path = dictPath(dicts, field.dict!, code);
      return path.length ? (field.type === 'area' ? path.map((i) => i.label).join('') : path.at(-1)!.label) : String(code);
    };
    return codes.map(labelOf).join('、');
  }
  if (field.type === 'money' || field.type === 'decimal') {
    const n = Number(value);
    return Number.isFinite(n) ? (field.type === 'money' ? n.toFixed(2) : String(n)) : String(value);
  }
  if (field.type === 'bool') return value === true || value === 'true' ? '是' : '否';
  return String(value);
}

/** The fields among `names` whose text differs between `before` and `after`, in `names` order. */
export function changesOf(
  model: ResourceModel,
  names: readonly string[],
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  dicts: HookContext['dicts'],
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const name of names) {
    const field = model.byName.get(name)?.field;
    if (!field) throw new Error(`changesOf: unknown field '${name}' of resource '${model.name}'`);
    const from = valueText(field, before[name], dicts);
    const to = valueText(field, after[name], dicts);
    if (from !== to) changes.push({ field: name, label: field.label, from: shownText(field, from), to: shownText(field, to) });
  }
  return changes;
}

/** One line per change: `联系手机：13805740001 → 13905740002`. */
export function changesText(changes: readonly FieldChange[]): string {
  return changes.map((c) => `${c.label}：${c.from || BLANK} → ${c.to || BLANK}`).join('\n');
}
