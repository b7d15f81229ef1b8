/** Dictionaries: a value identifies one item in the whole tree, so labels can be looked up by value. */
import type { LintContext } from '../context';
import type { JsonPath } from '../json-source';
import type { DictItem } from '../types';

export function checkDicts(ctx: LintContext): void {
  for (const { file, valid } of ctx.dicts.values()) {
    if (!valid) continue;
    const seen = new Set<string>();
    const visit = (items: readonly DictItem[], path: JsonPath) =>
      items.forEach((item, i) => {
        if (seen.has(item.value)) ctx.report(file, [...path, i, 'value'], 'dict-value', `duplicate value '${item.value}' in dictionary '${file.value.name}'`);
        seen.add(item.value);
        if (item.children) visit(item.children, [...path, i, 'children']);
      });
    visit(file.value.items, ['items']);
  }
}

/** Every value of a dictionary, nested ones included. */
export function dictValues(items: readonly DictItem[]): Set<string> {
  const values = new Set<string>();
  const visit = (list: readonly DictItem[]) =>
    list.forEach((item) => {
      values.add(item.value);
      if (item.children) visit(item.children);
    });
  visit(items);
  return values;
}
