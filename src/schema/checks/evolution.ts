/**
 * The declared evolution of resources (src/schema/evolution.ts): `renamedFrom` names a field the
 * resource no longer has, and no two fields claim the same old name; `convert` fits the field's
 * type (`from` for int, decimal, money and date; `map` for dict fields, onto codes of its
 * dictionary); `evolution.drop` names fields that are gone. Then every resource is registered
 * without its retired fields, so a screen, `search` or `display` naming one is an unknown field.
 */
import type { LintContext } from '../context';
import { CONVERTIBLE_TYPES, liveResource } from '../evolution';
import type { SchemaFile } from '../types';
import { dictValues } from './dicts';

export function checkEvolution(ctx: LintContext): void {
  for (const entry of ctx.resources.values()) {
    if (!entry.valid) continue;
    checkResourceEvolution(ctx, entry.file);
    entry.file = { ...entry.file, value: liveResource(entry.file.value) };
  }
}

function checkResourceEvolution(ctx: LintContext, file: SchemaFile<'resource'>): void {
  const { fields, evolution } = file.value;
  const claimed = new Map<string, string>();
  for (const [name, field] of Object.entries(fields)) {
    if (!field) continue;
    const at = ['fields', name];
    const from = field.renamedFrom;
    if (from !== undefined) {
      if (from === name) ctx.report(file, [...at, 'renamedFrom'], 'evolution', `'${name}' cannot be renamed from itself`);
      else if (fields[from])
        ctx.report(file, [...at, 'renamedFrom'], 'evolution', `renamedFrom '${from}' names a field the resource still has; remove or rename that field`);
      else if (claimed.has(from)) ctx.report(file, [...at, 'renamedFrom'], 'evolution', `'${from}' is already renamed to '${claimed.get(from)}'`);
      else if (evolution?.drop?.includes(from)) ctx.report(file, [...at, 'renamedFrom'], 'evolution', `'${from}' is also listed in evolution.drop`);
      claimed.set(from, name);
      if (field.type === 'children') ctx.report(file, [...at, 'renamedFrom'], 'evolution', 'a sub-table has no column to rename');
    }
    if (field.convert?.from !== undefined && !(CONVERTIBLE_TYPES as readonly string[]).includes(field.type))
      ctx.report(file, [...at, 'convert', 'from'], 'evolution', `text converts only to ${CONVERTIBLE_TYPES.join(', ')}, not to ${field.type}`);
    if (field.convert?.map !== undefined) checkCodeMap(ctx, file, name, field.type, field.dict, field.convert.map);
    if (field.retired && field.required) ctx.report(file, [...at, 'retired'], 'evolution', `'${name}' is retired: it cannot be required`);
  }
  evolution?.drop?.forEach((name, i) => {
    if (fields[name])
      ctx.report(file, ['evolution', 'drop', i], 'evolution', `'${name}' is still a field of the resource; retire it or remove it before dropping its column`);
  });
  if (file.value.systemTable && (evolution || Object.values(fields).some((f) => f?.renamedFrom || f?.convert || f?.retired)))
    ctx.report(file, ['systemTable'], 'evolution', 'a system table changes by numbered migrations only (no renamedFrom, convert, retired or evolution)', 'key');
}

function checkCodeMap(
  ctx: LintContext,
  file: SchemaFile<'resource'>,
  name: string,
  type: string,
  dict: string | undefined,
  map: Record<string, string | undefined>,
): void {
  const at = ['fields', name, 'convert', 'map'];
  if (type !== 'dict') {
    ctx.report(file, at, 'evolution', `a code map applies to dict fields, not to ${type}`, 'key');
    return;
  }
  const entry = dict === undefined ? undefined : ctx.dicts.get(dict);
  if (!entry?.valid) return;
  const codes = dictValues(entry.file.value.items);
  for (const [from, to] of Object.entries(map))
    if (to !== undefined && !codes.has(to)) ctx.report(file, [...at, from], 'evolution', `'${to}' is not a code of dictionary '${dict}'`);
}
