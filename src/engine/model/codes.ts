/**
 * Code lists: a dictionary's items, or a workflow's states for the status field. Lists, filters,
 * forms and details all read labels and options through here, so a code is labelled one way.
 */
import { isCoded, isDictType } from '../../schema/model';
import type { Dict, DictItem, Field, Resource } from '../../schema/types';

export interface CodeItem {
  value: string;
  label: string;
  color?: string;
  disabled?: boolean;
  children?: CodeItem[];
}

const fromDict = (items: readonly DictItem[]): CodeItem[] =>
  items.map((i) => ({ value: i.value, label: i.label, color: i.color, disabled: i.disabled, children: i.children ? fromDict(i.children) : undefined }));

const cache = new WeakMap<object, Map<string, CodeItem[]>>();

/** The codes of a field (empty when it has none or its dictionary is missing). */
export function codesOf(resource: Resource, name: string, field: Field, dicts: ReadonlyMap<string, Dict>): CodeItem[] {
  if (!isCoded(resource, name, field)) return [];
  let perResource = cache.get(resource);
  if (!perResource) cache.set(resource, (perResource = new Map<string, CodeItem[]>()));
  const key = isDictType(field.type) ? `dict:${field.dict}` : 'status';
  let codes = perResource.get(key);
  if (!codes) {
    if (isDictType(field.type)) {
      const dict = field.dict ? dicts.get(field.dict) : undefined;
      codes = dict ? fromDict(dict.items) : [];
    } else {
      codes = (resource.workflow?.states ?? []).map((s) => ({ value: s.code, label: s.label, color: s.color }));
    }
    perResource.set(key, codes);
  }
  return codes;
}

/** The item with `value` anywhere in the tree. */
export function findCode(codes: readonly CodeItem[], value: unknown): CodeItem | undefined {
  // A code sent as a number (an endpoint's 0 / 1) is the dictionary's string code.
  const code = typeof value === 'number' ? String(value) : value;
  for (const item of codes) {
    if (item.value === code) return item;
    const inner = item.children && findCode(item.children, value);
    if (inner) return inner;
  }
  return undefined;
}

/** The path of items from the root down to `value` (for cascaders and area labels). */
export function codePath(codes: readonly CodeItem[], value: unknown): CodeItem[] {
  for (const item of codes) {
    if (item.value === value) return [item];
    const inner = item.children ? codePath(item.children, value) : [];
    if (inner.length) return [item, ...inner];
  }
  return [];
}

/** The label of a code, or the code itself when the list does not know it. */
export function codeLabel(codes: readonly CodeItem[], value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  return findCode(codes, value)?.label ?? String(value);
}

/** Options of a dependent field: the children of the parent's selected item. */
export function childCodes(codes: readonly CodeItem[], parentValue: unknown): CodeItem[] {
  if (parentValue === undefined || parentValue === null || parentValue === '') return [];
  return findCode(codes, parentValue)?.children ?? [];
}

/** Only the top level of a tree (a flat select over a nested dictionary). */
export const topLevel = (codes: readonly CodeItem[]): CodeItem[] => codes.map(({ children: _children, ...item }) => item);
