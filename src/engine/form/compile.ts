/**
 * The form compiler: a form or wizard screen plus its resource (and dictionaries) → one Formily
 * ISchema. Pure and memoised per screen; rendering (SchemaForm.tsx) only hands the result to
 * @formily/react with the component registry.
 *
 *   section  → void `FormSection` (title, `when`) > void `FormGrid` (columns; layout.tsx: CSS grid, fields mounted when reached)
 *   field    → FIELD_TYPES[type] + FormItem (label, description, span) + validators + reactions
 *   children → ArrayTable with one column per sub-table field (a column's server value per row)
 *   wizard   → one void `WizardStep` per step around its sections
 *   `x-formily` (screen or field) is merged on top; `component` replaces the field's component.
 */
import { resolveRelativeDate } from '../../shared/dates';
import type { ISchema } from '@formily/react';
import { codesOf } from '../model/codes';
import { resolveField, type ResolvedField } from '../model/fields';
import type { ScreenBundle } from '../registry/registry';
import { resourceFields } from '../../schema/model';
import type { Field, FormScreen, Resource, Section, ServerValue, WizardScreen } from '../../schema/types';
import { FIELD_TYPES } from './field-types';
import { computed, condition, disabledWhen, markedWhen, optionsFrom, requiredWhen, visibleWhen, type FieldReaction } from './reactions';
import { refusedDays, requirementValidators, stagedMark } from './requirements';
import { serverValue } from './server-value';
import { requiredMessage, stagedRequirement } from '../../schema/requirements';
// Rule names are checked against the catalogue by the schema lint, hence the narrowing cast above.
import { fieldValidators } from './rules';
import { openItemSchema } from '../open/item-schema';

export type FormLikeScreen = FormScreen | WizardScreen;
type Sources = Pick<ScreenBundle, 'resources' | 'dicts'>;

const ARRAY_INDEX_COLUMN = '__index';
/** Sub-table column widths by field type (px), so a long reference label does not squeeze its neighbours. */
const COLUMN_WIDTHS: Partial<Record<string, number>> = {
  ref: 320,
  text: 240,
  dict: 150,
  area: 200,
  date: 150,
  datetime: 200,
  bool: 90,
  int: 120,
  decimal: 130,
  money: 140,
};
const ARRAY_OPERATIONS_COLUMN = '__operations';

/** Key of the void node of a wizard step (the wizard shows one at a time). */
export const stepKey = (index: number) => `step_${index}`;

type Plain = Record<string, unknown>;
const isPlain = (v: unknown): v is Plain => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `patch` deep-merged over `base` (objects merge, anything else replaces). */
export function mergeSchema<T extends Plain>(base: T, patch: Plain | undefined): T {
  if (!patch) return base;
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(patch)) out[key] = isPlain(value) && isPlain(out[key]) ? mergeSchema(out[key], value) : value;
  return out as T;
}

const dropUndefined = (props: Plain): Plain => Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));

/** The required rule of a field: on for `required`, toggled by `requiredWhen`; deferred like the catalogue rules. */
const requiredRule = (required: boolean, field: Field) => ({ required, message: requiredMessage(field), triggerType: 'onBlur' as const });

/** Both conditions (the resource's relevance and the screen's layout), or the one given. */
const both = (a: string | undefined, b: string | undefined): string | undefined => (a && b ? `(${a}) && (${b})` : (a ?? b));

/** A `requiredWhen` the form toggles as it is filled (a staged one is checked at submit: requirements.ts). */
const toggledRequirement = (field: ResolvedField['field']): string | undefined =>
  field.requiredWhen && !stagedRequirement(field) ? field.requiredWhen : undefined;

function reactionsOf(resource: Resource, sources: Sources, { name, field, item }: ResolvedField, rowValue?: ServerValue): FieldReaction[] {
  const reactions: FieldReaction[] = [];
  const when = both(field.when, item.when);
  if (when) reactions.push(visibleWhen(condition(when)));
  const toggled = toggledRequirement(field);
  if (toggled) reactions.push(requiredWhen(condition(toggled)));
  // A staged requirement with a condition: checked at submit (requirements.ts), marked while the condition holds.
  else if (field.requiredWhen && stagedRequirement(field)) reactions.push(markedWhen(condition(field.requiredWhen), stagedMark(resource, field)!));
  if (item.disabledWhen) reactions.push(disabledWhen(condition(item.disabledWhen)));
  if (item.optionsFrom) reactions.push(optionsFrom(item.optionsFrom, codesOf(resource, name, field, sources.dicts)));
  if (field.compute) reactions.push(computed(field.compute));
  if (item.serverValue) reactions.push(serverValue(item.serverValue));
  if (rowValue) reactions.push(serverValue(rowValue, true));
  return reactions;
}

/** One field of `resource` as a Formily field node. */
function fieldNode(resource: Resource, sources: Sources, resolved: ResolvedField, decorated = true, rowValue?: ServerValue): ISchema {
  const { name, field, item, label } = resolved;
  // A sub-table's requirement (at least one row) and staged ones are requirements.ts validators.
  const required = field.required === true && field.type !== 'children';
  const base: ISchema =
    field.type === 'children'
      ? subTable(resolved, sources)
      : FIELD_TYPES[field.type]({ field, codes: codesOf(resource, name, field, sources.dicts), placeholder: item.placeholder ?? field.placeholder });
  const validators = [
    ...(required || toggledRequirement(field) ? [requiredRule(required, field)] : []),
    ...requirementValidators(resource, field, !decorated),
    ...fieldValidators({ rules: field.rules }),
  ];
  // Required at every save: the red asterisk (the required rule's, a sub-table's here). Required only
  // at some actions: the grey mark (FormItem.tsx); a conditional one's is markedWhen's.
  const asterisk = field.type === 'children' && field.required === true && !stagedRequirement(field);
  const staged = field.requiredWhen ? undefined : stagedMark(resource, field);
  const bounded = refusedDays(resource, field, !decorated);
  const reactions = [...reactionsOf(resource, sources, resolved, rowValue), ...(bounded ? [bounded] : [])];
  const node: ISchema = {
    ...base,
    // The accessible name of the input: FormItem's label is not tied to it with `for`.
    ...(field.type === 'children' ? {} : { 'x-component-props': { ...(base['x-component-props'] as object | undefined), 'aria-label': label } }),
    title: label,
    description: item.help ?? field.help,
    ...(decorated
      ? { 'x-decorator': 'FormItem', 'x-decorator-props': dropUndefined({ gridSpan: item.span, asterisk: asterisk || undefined, stagedMark: staged }) }
      : {}),
    ...(validators.length ? { 'x-validator': validators } : {}),
    ...(reactions.length ? { 'x-reactions': reactions } : {}),
    ...(item.readonly || field.readonly ? { 'x-pattern': 'readPretty' } : {}),
    ...(item.component ? { 'x-component': item.component } : {}),
    ...(item.optionTree ? { type: 'array', 'x-component': 'OptionTree', 'x-component-props': { path: item.optionTree, 'aria-label': label } } : {}),
  };
  return mergeSchema(mergeSchema(node as Plain, openItemSchema(item, node)), item['x-formily']);
}

/** The editable fields of a child resource, in declaration order (its default sub-table columns). */
const childColumns = (child: Resource): string[] =>
  Object.entries(child.fields)
    .filter(([, f]) => f && !f.readonly && f.type !== 'children')
    .map(([n]) => n);

function subTable({ name, field, item }: ResolvedField, sources: Sources): ISchema {
  const child = field.resource ? sources.resources.get(field.resource) : undefined;
  if (!child) throw new Error(`sub-table '${name}' needs the resource '${field.resource}'`);
  const columns: Record<string, ISchema> = {
    [ARRAY_INDEX_COLUMN]: {
      type: 'void',
      'x-component': 'ArrayTable.Column',
      'x-component-props': { title: '序号', width: 64, align: 'center' },
      properties: { index: { type: 'void', 'x-component': 'ArrayTable.Index' } },
    },
  };
  for (const column of item.fields ?? childColumns(child)) {
    const resolved = resolveField(child, column);
    columns[`column_${column}`] = {
      type: 'void',
      'x-component': 'ArrayTable.Column',
      'x-component-props': { title: resolved.label, width: COLUMN_WIDTHS[resolved.field.type] ?? 160 },
      properties: {
        [column]: { ...fieldNode(child, sources, resolved, false, item.columnServerValues?.[column]), 'x-decorator': 'FormItem', title: undefined },
      },
    };
  }
  columns[ARRAY_OPERATIONS_COLUMN] = {
    type: 'void',
    'x-component': 'ArrayTable.Column',
    'x-component-props': { title: '操作', width: 80, align: 'center' },
    properties: { remove: { type: 'void', 'x-component': 'ArrayTable.Remove' } },
  };
  return {
    type: 'array',
    'x-component': 'ArrayTable',
    'x-component-props': { pagination: false, scroll: { x: 'max-content' } },
    items: { type: 'object', properties: columns },
    properties: { add: { type: 'void', title: '添加一行', 'x-component': 'ArrayTable.Addition' } },
  };
}

function sectionNode(resource: Resource, sources: Sources, section: Section): ISchema {
  const columns = section.columns ?? 2;
  const fields: Record<string, ISchema> = {};
  for (const ref of section.fields) {
    const resolved = resolveField(resource, ref);
    fields[resolved.name] = fieldNode(resource, sources, resolved);
  }
  return {
    type: 'void',
    'x-component': 'FormSection',
    'x-component-props': dropUndefined({ title: section.title }),
    ...(section.when ? { 'x-reactions': [visibleWhen(condition(section.when))] } : {}),
    properties: {
      grid: { type: 'void', 'x-component': 'FormGrid', 'x-component-props': { maxColumns: columns, minColumns: 1, columnGap: 24 }, properties: fields },
    },
  };
}

const sectionsNode = (resource: Resource, sources: Sources, sections: readonly Section[]): Record<string, ISchema> =>
  Object.fromEntries(sections.map((s, i) => [`section_${i}`, sectionNode(resource, sources, s)]));

/** Compiles without the cache (tests, the playground). */
export function compileFormUncached(screen: FormLikeScreen, bundle: Pick<ScreenBundle, 'resource' | 'resources' | 'dicts'>): ISchema {
  const { resource } = bundle;
  const properties =
    screen.kind === 'wizard'
      ? Object.fromEntries(
          screen.steps.map((step, i) => [
            stepKey(i),
            {
              type: 'void',
              'x-component': 'WizardStep',
              'x-component-props': { title: step.title, index: i },
              properties: sectionsNode(resource, bundle, step.sections),
            },
          ]),
        )
      : sectionsNode(resource, bundle, screen.sections);
  return mergeSchema({ type: 'object', properties }, screen['x-formily']);
}

const compiled = new Map<string, { screen: FormLikeScreen; schema: ISchema }>();

/** The Formily schema of a form or wizard screen, compiled once per screen id (and recompiled if the screen object changes). */
export function compileForm(screen: FormLikeScreen, bundle: Pick<ScreenBundle, 'resource' | 'resources' | 'dicts'>): ISchema {
  const hit = compiled.get(screen.id);
  if (hit?.screen === screen) return hit.schema;
  const schema = compileFormUncached(screen, bundle);
  compiled.set(screen.id, { screen, schema });
  return schema;
}

/** Initial values of a new record: the declared defaults of the resource's fields. */
export function defaultValues(resource: Resource, sessionValues: Readonly<Record<string, unknown>> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of resourceFields(resource)) {
    if (field.default !== undefined) values[name] = Array.isArray(field.default) ? [...field.default] : resolveRelativeDate(field.default);
    // The user's own unit or user value (`session`); the server fills it the same way.
    if (field.session && sessionValues[field.session] != null) values[name] = sessionValues[field.session];
  }
  return values;
}
