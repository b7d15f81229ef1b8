/**
 * What the schema files mean beyond their shape: the fields every table has, the standard
 * actions, which field properties belong to which types. Shared by the lint and the runtimes so
 * that they agree; nothing here knows the product's domain.
 */
import type { Field, FieldType, Resource } from './types';
import { fieldKind } from './kinds';

/** Columns the server engine keeps on every table; screens and expressions may read them. */
const COMMON_SYSTEM_FIELDS: Readonly<Record<string, Field>> = {
  id: { type: 'string', label: '编号', readonly: true },
  createBy: { type: 'string', label: '创建人', readonly: true },
  createDate: { type: 'datetime', label: '创建时间', readonly: true },
  updateBy: { type: 'string', label: '更新人', readonly: true },
  updateDate: { type: 'datetime', label: '更新时间', readonly: true },
};
/** The workflow state of a row (resources with a workflow). */
const STATUS_FIELD: Field = { type: 'string', label: '状态', readonly: true };
/** The owner of a row, by the resource's scope. */
const SCOPE_FIELDS: Readonly<Record<NonNullable<Resource['scope']>, [string, Field]>> = {
  unit: ['unitId', { type: 'string', label: '所属单位', readonly: true }],
  area: ['areaCode', { type: 'string', label: '所属区域', readonly: true }],
};

/**
 * The fields that name a record where others refer to it (a reference's label on screens and in
 * exports): the resource's `display`, else its first string field, else its id.
 */
export function labelFieldsOf(resource: Pick<Resource, 'display' | 'fields'>): string[] {
  return resource.display ?? [Object.entries(resource.fields).find(([, f]) => f?.type === 'string')?.[0] ?? 'id'];
}

/** How the parts of a record's label are joined. */
export const LABEL_SEPARATOR = ' · ';

/** Names no resource may declare as a field, whatever its workflow and scope. */
export const RESERVED_FIELD_NAMES: ReadonlySet<string> = new Set([...Object.keys(COMMON_SYSTEM_FIELDS), 'status', 'unitId', 'areaCode']);

/** The system fields of one resource. */
export function systemFields(resource: Resource): Record<string, Field> {
  // A system table (its migration's columns) has the id and its owner column, no audit columns.
  const fields: Record<string, Field> = resource.systemTable ? { id: COMMON_SYSTEM_FIELDS.id } : { ...COMMON_SYSTEM_FIELDS };
  if (resource.workflow) fields.status = STATUS_FIELD;
  if (resource.scope) {
    const [name, field] = SCOPE_FIELDS[resource.scope];
    fields[name] = field;
  }
  return fields;
}

const fieldMaps = new WeakMap<Resource, ReadonlyMap<string, Field>>();

/** Declared fields followed by the system fields, by name. */
export function resourceFields(resource: Resource): ReadonlyMap<string, Field> {
  let map = fieldMaps.get(resource);
  if (!map) {
    const declared = Object.entries(resource.fields).filter((entry): entry is [string, Field] => entry[1] !== undefined);
    map = new Map([...declared, ...Object.entries(systemFields(resource))]);
    fieldMaps.set(resource, map);
  }
  return map;
}

/**
 * What a ref field's `copy` copies, as `[field beside the reference, field of the chosen record]`
 * pairs: a list copies same-named fields, a map names the chosen record's field per field here.
 */
export function copyPairs(field: Pick<Field, 'copy'>): [here: string, there: string][] {
  const { copy } = field;
  if (!copy) return [];
  if (Array.isArray(copy)) return copy.map((name) => [name, name]);
  return Object.entries(copy).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** The list parameter of a resource with `readMarks`: `true` keeps the rows the user has not opened. */
export const UNREAD_PARAM = 'unread';

/** Types a list can show as a column, filter or sort on. */
export const isListable = (type: FieldType): boolean => fieldKind(type).listable;
/** A list can sort by it: listable, and not a type whose order means nothing (attachments). */
export const isSortable = (type: FieldType): boolean => fieldKind(type).listable && fieldKind(type).sortable !== false;

/** Types whose options come from a dictionary (and may depend on a parent field's choice). */
export const isDictType = (type: FieldType): boolean => fieldKind(type).coded;

/** Whether a field's values are codes with labels: a dictionary field, or the workflow state. */
export function isCoded(resource: Resource, name: string, field: Field): boolean {
  return isDictType(field.type) || (name === 'status' && resource.workflow !== undefined);
}

/** Whether counts can be grouped by a field: a dictionary (a row of several codes counts under each), an area, a boolean or the workflow state. */
export function isGroupable(resource: Pick<Resource, 'workflow'>, name: string, field: Field): boolean {
  return fieldKind(field.type).groupable || (name === 'status' && resource.workflow !== undefined);
}

/** A list filter parameter: the field it filters on and whether it is a bound of a range. */
export interface FilterParam {
  field: string;
  bound?: 'gte' | 'lte';
}

/**
 * The parameters the list endpoint filters by (src/server/resources/filters.ts): `<name>` for every
 * listable field (codes, text, equality; an attachment: true / false, whether any file is uploaded),
 * `<name>_gte` / `<name>_lte` for numbers and dates.
 */
export function filterParamsOf(resource: Resource): ReadonlyMap<string, FilterParam> {
  const params = new Map<string, FilterParam>();
  for (const [name, field] of resourceFields(resource)) {
    if (!isListable(field.type)) continue;
    params.set(name, { field: name });
    if (fieldKind(field.type).range) {
      params.set(`${name}_gte`, { field: name, bound: 'gte' });
      params.set(`${name}_lte`, { field: name, bound: 'lte' });
    }
  }
  return params;
}

/** The standard record actions of the original portal with their default button text. */
export const STANDARD_ACTIONS: Readonly<Record<string, string>> = {
  save: '保存',
  commit: '提交',
  revoke: '撤回',
  cancel: '作废',
  delete: '删除',
  'audit-agree': '审核通过',
  'audit-disagree': '审核不通过',
};

/** Actions of a resource without a workflow: plain create/update and delete. */
export const PLAIN_ACTIONS: readonly string[] = ['save', 'delete'];

/** Screen actions handled by the client alone (navigation), available on every resource. */
export const SCREEN_ACTIONS: Readonly<Record<string, string>> = { view: '查看', edit: '编辑', back: '返回' };

/** Read endpoints a legacy path may alias besides the record actions (`attachments` only where a field is an attachment). */
export const READ_ACTIONS: readonly string[] = ['list', 'get', 'flowLog', 'auditLog', 'attachments', 'export', 'import', 'import-template', 'print'];

/** Record actions a resource offers: its workflow's, or the plain ones. */
export function recordActions(resource: Resource): string[] {
  // An `internal` action is run by the server only: no button or legacy path may name it.
  return resource.workflow
    ? Object.entries(resource.workflow.actions)
        .filter(([, a]) => !a?.internal)
        .map(([name]) => name)
    : [...PLAIN_ACTIONS];
}

/**
 * Whether rows of a resource may be imported (list toolbar `import`): imports insert through the
 * save path, so the resource must be writable and a new row must be saveable in its initial state
 * (no workflow, or a `save` action that is not internal and starts from the initial state; without
 * an explicit `save` a row is editable in the initial state only).
 */
export function acceptsImport(resource: Pick<Resource, 'readOnly' | 'workflow'>): boolean {
  if (resource.readOnly) return false;
  const workflow = resource.workflow;
  if (!workflow) return true;
  const save = workflow.actions.save;
  return !save || (!save.internal && save.from.includes(workflow.initial));
}

/** Button text of an action: its own label, else the standard one. */
export function actionLabel(name: string, label?: string): string | undefined {
  return label ?? STANDARD_ACTIONS[name] ?? SCREEN_ACTIONS[name];
}

/** Variables the runtime provides to expressions besides the fields. */
export const CONTEXT_VARIABLES: Readonly<Record<string, string>> = {
  $mode: 'edit mode of the screen: add, edit or view',
  $roleType: "the current role's type",
};
