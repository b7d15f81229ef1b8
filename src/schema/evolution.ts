/**
 * How a resource changes once its table holds data. Pure: the schema lint, `npm run lint:schemas
 * -- --base <ref>`, the schema history page and the server's start (src/server/resources/evolve.ts)
 * read the same declarations:
 *
 * - field `renamedFrom: "old"`: the column is renamed, values kept;
 * - field `convert: {"from": "string"}`: a text column becomes int/decimal/money/date, every value converted;
 * - field `convert: {"map": {"old": "new"}}`: the stored codes of a dict field are replaced;
 * - field `retired: true`: the column and its data stay, the field is gone from every screen and answer;
 * - resource `evolution.drop: ["field"]`: a removed field whose column is dropped on purpose.
 */
import { fieldKind } from './kinds';
import type { Field, Resource } from './types';

/** additive: applied at start as is; needs-data-step: a declared step changes stored data; destructive: data would be lost. */
export type ChangeClass = 'additive' | 'needs-data-step' | 'destructive';

export interface SchemaChange {
  resource: string;
  /** Absent for a change of the whole resource. */
  field?: string;
  class: ChangeClass;
  what: string;
  /** A destructive change the resource declares (`evolution.drop`): accepted. */
  declared?: boolean;
}

/** The field types a text column converts to (`convert.from: "string"`). */
export const CONVERTIBLE_TYPES = ['int', 'decimal', 'money', 'date'] as const;

/** The column type of a field (undefined: no column, e.g. a sub-table). */
export function columnTypeOf(field: Field): string | undefined {
  return fieldKind(field.type).sql?.(field);
}

const isText = (sqlType: string | undefined) => sqlType !== undefined && /^(text|varchar(\(\d+\))?)$/.test(sqlType);

const varcharLength = (sqlType: string | undefined): number | undefined => {
  const match = /^varchar\((\d+)\)$/.exec(sqlType ?? '');
  return match ? Number(match[1]) : undefined;
};

/**
 * Whether a column of type `from` becomes `to` at start without any step, every stored value
 * fitting (ddl.ts planSchema): text stays text, a varchar becomes text, an unbounded varchar or a
 * longer one.
 */
export function widens(from: string | undefined, to: string | undefined): boolean {
  if (from === to) return true;
  if (!isText(from)) return false;
  if (to === 'text' || to === 'varchar') return from !== 'text';
  const before = varcharLength(from);
  const after = varcharLength(to);
  return before !== undefined && after !== undefined && after >= before;
}

/** The resource as screens and answers see it: its retired fields left out. */
export function liveResource<R extends Resource>(resource: R): R {
  const entries = Object.entries(resource.fields);
  if (!entries.some(([, f]) => f?.retired)) return resource;
  return { ...resource, fields: Object.fromEntries(entries.filter(([, f]) => !f?.retired)) };
}

/** The names of a resource's retired fields. */
export const retiredFields = (resource: Resource): string[] => Object.entries(resource.fields).flatMap(([name, f]) => (f?.retired ? [name] : []));

/** What a property change of a field does to the rows (not its type). */
function ruleChanges(before: Field, after: Field): string[] {
  const out: string[] = [];
  if (before.required && !after.required) out.push('no longer required');
  if (!before.required && after.required) out.push('now required (stored rows are not checked)');
  if (before.type === after.type && (before.maxLength ?? Infinity) < (after.maxLength ?? Infinity))
    out.push(`longer (maxLength ${before.maxLength} → ${after.maxLength ?? 'none'})`);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of ['required', 'maxLength', 'renamedFrom', 'convert', 'retired', 'type', 'label']) keys.delete(key);
  const other = [...keys].filter((k) => JSON.stringify(before[k as keyof Field]) !== JSON.stringify(after[k as keyof Field])).sort();
  if (other.length > 0) out.push(`changed ${other.join(', ')}`);
  return out;
}

function compareField(resource: string, name: string, before: Field, after: Field, from: string): SchemaChange[] {
  const change = (cls: ChangeClass, what: string): SchemaChange => ({ resource, field: name, class: cls, what });
  const out: SchemaChange[] = [];
  if (from !== name) out.push(change('needs-data-step', `renamed from ${from} (column renamed, values kept)`));
  const oldType = columnTypeOf(before);
  const newType = columnTypeOf(after);
  if (before.type !== after.type || !widens(oldType, newType)) {
    if (widens(oldType, newType)) out.push(change('additive', `type ${before.type} → ${after.type} (same column)`));
    else if (after.convert?.from === 'string' && isText(oldType))
      out.push(change('needs-data-step', `converted ${before.type} → ${after.type} (convert.from)`));
    else
      out.push(
        change('destructive', `type ${before.type} (${oldType ?? 'no column'}) → ${after.type} (${newType ?? 'no column'}) without a declared conversion`),
      );
  } else if (oldType !== newType) out.push(change('additive', `column widened ${oldType} → ${newType}`));
  if (after.convert?.map && JSON.stringify(after.convert.map) !== JSON.stringify(before.convert?.map))
    out.push(
      change(
        'needs-data-step',
        `codes remapped (${Object.entries(after.convert.map)
          .map(([a, b]) => `${a}→${b}`)
          .join(', ')})`,
      ),
    );
  if (after.retired && !before.retired) out.push(change('needs-data-step', 'retired (column and data kept, hidden from screens and answers)'));
  if (before.retired && !after.retired) out.push(change('additive', 'back in use (no longer retired)'));
  for (const what of ruleChanges(before, after)) out.push(change('additive', what));
  return out;
}

/** The changes from `before` to `after` of one resource (either may be absent: added or removed). */
export function compareResource(name: string, before: Resource | undefined, after: Resource | undefined): SchemaChange[] {
  if (!before && !after) return [];
  if (!before) return [{ resource: name, class: 'additive', what: 'new resource' }];
  if (!after)
    return [{ resource: name, class: 'destructive', what: `resource removed (table ${before.table} no longer reachable; drop it with a numbered migration)` }];
  const out: SchemaChange[] = [];
  if (before.table !== after.table)
    out.push({ resource: name, class: 'destructive', what: `table ${before.table} → ${after.table} (a new empty table; the old rows stay behind)` });
  const dropped = new Set(after.evolution?.drop ?? []);
  const renamedAway = new Set<string>();
  for (const [field, spec] of Object.entries(after.fields)) {
    if (!spec) continue;
    const from = spec.renamedFrom !== undefined && !before.fields[field] && before.fields[spec.renamedFrom] ? spec.renamedFrom : field;
    const old = before.fields[from];
    if (from !== field) renamedAway.add(from);
    if (!old) {
      out.push({ resource: name, field, class: 'additive', what: spec.retired ? 'new field (retired)' : 'new field' });
      continue;
    }
    out.push(...compareField(name, field, old, spec, from));
  }
  for (const field of Object.keys(before.fields)) {
    if (after.fields[field] || renamedAway.has(field)) continue;
    if (dropped.has(field))
      out.push({ resource: name, field, class: 'destructive', what: 'removed, column and data dropped (declared in evolution.drop)', declared: true });
    else out.push({ resource: name, field, class: 'destructive', what: 'removed without being retired (retire it, or list it in evolution.drop)' });
  }
  return out;
}

/** Every change between two sets of resources by name (`base`: the resources at the git ref). */
export function classifyChanges(base: ReadonlyMap<string, Resource>, head: ReadonlyMap<string, Resource>): SchemaChange[] {
  const names = [...new Set([...base.keys(), ...head.keys()])].sort();
  return names.flatMap((n) => compareResource(n, base.get(n), head.get(n)));
}

/** `resource field class what`, one change a line. */
export const formatChange = (c: SchemaChange): string => `${c.resource}\t${c.field ?? '-'}\t${c.class}${c.declared ? ' (declared)' : ''}\t${c.what}`;

/** The declared evolution of a resource, as the schema history page lists it. */
export interface DeclaredEvolution {
  renames: { field: string; from: string }[];
  conversions: { field: string; what: string }[];
  retired: string[];
  dropped: string[];
}

export function declaredEvolution(resource: Resource): DeclaredEvolution {
  const out: DeclaredEvolution = { renames: [], conversions: [], retired: [], dropped: [...(resource.evolution?.drop ?? [])] };
  for (const [field, spec] of Object.entries(resource.fields)) {
    if (!spec) continue;
    if (spec.renamedFrom !== undefined) out.renames.push({ field, from: spec.renamedFrom });
    if (spec.convert?.from) out.conversions.push({ field, what: `${spec.convert.from} → ${spec.type}` });
    if (spec.convert?.map)
      out.conversions.push({
        field,
        what: `codes ${Object.entries(spec.convert.map)
          .map(([a, b]) => `${a} → ${b}`)
          .join(', ')}`,
      });
    if (spec.retired) out.retired.push(field);
  }
  return out;
}
