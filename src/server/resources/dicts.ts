/** Reading dictionary items and their `data` (schemas/dicts) from server hooks and domain services. */
import type { DictItem } from '../../schema/types';
import type { HookContext } from './hooks';

/** The item with `code` (at any depth) of dictionary `dict`, and the items above it (outermost first). */
export function dictPath(dicts: HookContext['dicts'], dict: string, code: unknown): DictItem[] {
  if (typeof code !== 'string' || !code) return [];
  // One trail, copied only on a match (hooks of bulk loads call this for every row).
  const trail: DictItem[] = [];
  const search = (items: readonly DictItem[]): DictItem[] | undefined => {
    for (const item of items) {
      if (item.value === code) return [...trail, item];
      if (!item.children?.length) continue;
      trail.push(item);
      const found = search(item.children);
      trail.pop();
      if (found) return found;
    }
    return undefined;
  };
  return search(dicts.get(dict) ?? []) ?? [];
}

/** `data[key]` of the first of `codes` that has it in dictionary `dict`. */
export function dictData<T extends string | number | boolean>(
  dicts: HookContext['dicts'],
  dict: string,
  codes: readonly unknown[],
  key: string,
): T | undefined {
  for (const code of codes) {
    const item = dictPath(dicts, dict, code).at(-1);
    const value = item?.data?.[key];
    if (value !== undefined) return value as T;
  }
  return undefined;
}
