/**
 * Resources: fields use only the properties of their type and name dictionaries, resources and
 * rules that exist; defaults fit; tables and legacy paths are unique; access ids are in the menu;
 * the workflow is a sound graph and every custom action has a label.
 */
import { isRelativeDate } from '../../shared/dates';
import type { LintContext } from '../context';
import type { JsonPath } from '../json-source';
import { RESERVED_FIELD_NAMES, READ_ACTIONS, STANDARD_ACTIONS, copyPairs, filterParamsOf, recordActions } from '../model';
import { analyzeWorkflow } from '../workflow';
import type { Field, SchemaFile } from '../types';
import { TYPE_SPECIFIC_PROPERTIES, fieldKind } from '../kinds';
import { dictValues } from './dicts';

type ResourceFile = SchemaFile<'resource'>;

export function checkResources(ctx: LintContext): void {
  const tables = new Map<string, ResourceFile>();
  const apiPaths = new Map<string, ResourceFile>();
  for (const { file, valid } of ctx.resources.values()) {
    if (!valid) continue;
    const resource = file.value;
    const sameTable = tables.get(resource.table);
    if (sameTable) ctx.report(file, ['table'], 'duplicate-table', `table '${resource.table}' is already used by ${sameTable.path}`);
    else tables.set(resource.table, file);

    for (const [name, field] of Object.entries(resource.fields))
      if (field) {
        checkField(ctx, file, name, field);
        checkPersonalData(ctx, file, name, field);
      }
    checkWorkflow(ctx, file);
    checkHooks(ctx, file);
    checkFieldLists(ctx, file);
    checkApi(ctx, file, apiPaths);
    checkLegacyNames(ctx, file);
    resource.access?.forEach((id, i) => {
      if (ctx.accessIds && !ctx.accessIds.has(id)) ctx.report(file, ['access', i], 'unknown-access', `access id '${id}' is not used by any route of the menu`);
    });
  }
}

/** `rowsOfSource`: the fields of a list's `source` rows, which the engine does not keep: a system field's name (status, createDate) is theirs to use. */
export function checkField(ctx: LintContext, file: ResourceFile, name: string, field: Field, { rowsOfSource = false } = {}): void {
  const at = ['fields', name];
  if (RESERVED_FIELD_NAMES.has(name) && !rowsOfSource)
    ctx.report(file, at, 'reserved-field', `'${name}' is a system field kept by the engine; choose another name`, 'key');

  for (const [property, types] of Object.entries(TYPE_SPECIFIC_PROPERTIES)) {
    if (property in field && !types.includes(field.type)) {
      ctx.report(file, [...at, property], 'field-type', `'${property}' does not apply to type ${field.type} (only ${types.join(', ')})`, 'key');
    }
  }
  if (field.compute !== undefined && !field.readonly)
    ctx.report(file, [...at, 'compute'], 'field-type', `'${name}' is computed (compute): make it readonly`, 'key');
  if (field.serial !== undefined && !field.readonly)
    ctx.report(file, [...at, 'serial'], 'field-type', `'${name}' is numbered by the server (serial): make it readonly`, 'key');
  if (field.owner !== undefined) checkOwnerField(ctx, file, name, field);
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
    ctx.report(file, [...at, 'min'], 'field-type', `min ${field.min} is greater than max ${field.max}`);
  }

  if (field.type === 'ref') checkRefField(ctx, file, at, field);
  if (field.dict !== undefined && !ctx.dicts.has(field.dict))
    ctx.report(file, [...at, 'dict'], 'unknown-dict', `no dictionary '${field.dict}' (schemas/dicts/${field.dict}.json)`);
  for (const property of ['ref', 'resource'] as const) {
    const target = field[property];
    if (target !== undefined && !ctx.resources.has(target))
      ctx.report(file, [...at, property], 'unknown-resource', `no resource '${target}' (schemas/resources/${target}.json)`);
  }
  field.rules?.forEach((rule, i) => {
    const ruleName = typeof rule === 'string' ? rule : rule.rule;
    if (!ctx.ruleNames.has(ruleName)) {
      ctx.report(
        file,
        typeof rule === 'string' ? [...at, 'rules', i] : [...at, 'rules', i, 'rule'],
        'unknown-rule',
        `no validation rule '${ruleName}' in the catalogue`,
      );
    }
  });
  if (field.default !== undefined) checkDefault(ctx, file, name, field);
}

/** Keywords that store, write or index a value: a field read from the owning unit (`owner`) has no column to give them. */
const STORING_KEYWORDS = ['unique', 'index', 'serial', 'compute', 'session', 'default', 'required', 'requiredWhen', 'mask', 'rules', 'column'] as const;

/** Field `owner`: readonly, on a resource whose rows have an owning unit, and nothing that stores a value. */
function checkOwnerField(ctx: LintContext, file: ResourceFile, name: string, field: Field): void {
  const at = ['fields', name];
  const resource = file.value;
  if (!field.readonly) ctx.report(file, [...at, 'owner'], 'field-type', `'${name}' is read from the owning unit (owner): make it readonly`, 'key');
  if (resource.scope !== 'unit' || resource.systemTable)
    ctx.report(file, [...at, 'owner'], 'field-type', `'${name}' reads the owning unit (owner): the resource needs "scope": "unit"`, 'key');
  for (const keyword of STORING_KEYWORDS) {
    if (keyword in field)
      ctx.report(file, [...at, keyword], 'field-type', `'${name}' is read from the owning unit (owner) and has no column: '${keyword}' does not apply`, 'key');
  }
  resource.search?.forEach((n, i) => {
    if (n === name)
      ctx.report(
        file,
        ['search', i],
        'field-type',
        `'${name}' is read from the owning unit (owner): search covers stored fields only (its list filter matches the unit's name)`,
      );
  });
  resource.display?.forEach((n, i) => {
    if (n === name) ctx.report(file, ['display', i], 'field-type', `'${name}' is read from the owning unit (owner): a record's label is made of stored fields`);
  });
}

/** A stored field holding an ID card or phone number declares its mask (a screen's own inputs are not stored: not checked). */
function checkPersonalData(ctx: LintContext, file: ResourceFile, name: string, field: Field): void {
  if (field.mask === undefined && holdsPersonalData(name, field)) {
    ctx.report(
      file,
      ['fields', name],
      'personal-data',
      `'${name}' holds an ID card or phone number: declare how it is masked ("mask": "idCard", "mobile" or "phone")`,
      'key',
    );
  }
}

/** Rules (and field names) that mark an ID card or phone number: such a field needs a `mask`. */
const PERSONAL_RULES: ReadonlySet<string> = new Set(['idCard', 'mobile', 'phoneOrLandline']);
const PERSONAL_NAME = /(^|[a-z])(idCard|IdCard|mobile|Mobile)$/;

/** Whether a text field holds personal data by its rules or its name (idCard, legalIdCard, mobile, contactMobile...). */
function holdsPersonalData(name: string, field: Field): boolean {
  if (field.type !== 'string') return false;
  return PERSONAL_NAME.test(name) || !!field.rules?.some((rule) => PERSONAL_RULES.has(typeof rule === 'string' ? rule : rule.rule));
}

function checkDefault(ctx: LintContext, file: ResourceFile, name: string, field: Field): void {
  const at = ['fields', name, 'default'];
  const expected = fieldKind(field.type).defaultType;
  const actual = Array.isArray(field.default) ? 'array' : typeof field.default;
  if (expected !== actual) {
    ctx.report(file, at, 'field-type', expected ? `the default of type ${field.type} must be a ${expected}` : `type ${field.type} takes no default`);
    return;
  }
  if ((field.type === 'date' || field.type === 'datetime') && !isRelativeDate(field.default) && Number.isNaN(Date.parse(String(field.default)))) {
    ctx.report(file, at, 'field-type', `the default of a ${field.type} is a date or a relative date ('today', 'today+30d'), not '${String(field.default)}'`);
  }
  const dict = field.dict === undefined ? undefined : ctx.dicts.get(field.dict);
  if (!dict?.valid) return;
  const values = dictValues(dict.file.value.items);
  const defaults: [string, JsonPath][] = Array.isArray(field.default) ? field.default.map((v, i) => [v, [...at, i]]) : [[String(field.default), at]];
  for (const [value, path] of defaults) {
    if (!values.has(value)) ctx.report(file, path, 'dict-value', `default '${value}' is not a value of dictionary '${field.dict}'`);
  }
}

function checkWorkflow(ctx: LintContext, file: ResourceFile): void {
  const workflow = file.value.workflow;
  if (!workflow) return;
  for (const issue of analyzeWorkflow(workflow)) ctx.report(file, ['workflow', ...issue.path], issue.code, issue.message, issue.target);
  for (const [name, action] of Object.entries(workflow.actions)) {
    if (action && action.label === undefined && !(name in STANDARD_ACTIONS)) {
      ctx.report(file, ['workflow', 'actions', name], 'label', `action '${name}' is not a standard action and needs a label`, 'key');
    }
    action?.input?.forEach((field, i) => {
      const declared = file.value.fields[field];
      if (!declared)
        ctx.report(
          file,
          ['workflow', 'actions', name, 'input', i],
          'unknown-field',
          `action '${name}' asks for '${field}', which is not a field of this resource`,
        );
      else if (declared.type === 'children')
        ctx.report(file, ['workflow', 'actions', name, 'input', i], 'field-type', `action '${name}' cannot ask for the sub-table '${field}'`);
    });
    action?.stamp?.forEach((field, i) => {
      const declared = file.value.fields[field];
      if (!declared)
        ctx.report(
          file,
          ['workflow', 'actions', name, 'stamp', i],
          'unknown-field',
          `action '${name}' stamps '${field}', which is not a field of this resource`,
        );
      else if (declared.type !== 'date' && declared.type !== 'datetime')
        ctx.report(
          file,
          ['workflow', 'actions', name, 'stamp', i],
          'field-type',
          `action '${name}' stamps '${field}': only a date or datetime field takes the action's moment`,
        );
    });
  }
}

function checkApi(ctx: LintContext, file: ResourceFile, seen: Map<string, ResourceFile>): void {
  const allowed = new Set([...READ_ACTIONS, ...recordActions(file.value)]);
  for (const [action, path] of Object.entries(file.value.api ?? {})) {
    if (path === undefined) continue;
    if (!allowed.has(action))
      ctx.report(
        file,
        ['api', action],
        'unknown-action',
        `api alias for '${action}', which is neither a read (${READ_ACTIONS.join(', ')}) nor an action of this resource`,
        'key',
      );
    else if (action === 'attachments' && !Object.values(file.value.fields).some((f) => f?.type === 'attachment')) {
      ctx.report(file, ['api', action], 'unknown-action', `api alias for 'attachments', but no field of this resource is an attachment`, 'key');
    }
    const first = seen.get(path);
    if (first) ctx.report(file, ['api', action], 'duplicate-api', `legacy path '${path}' is already an alias in ${first.path}`);
    else seen.set(path, file);
  }
}

/**
 * `legacyNames` map an original client's parameter name onto a field of this resource (or `id`):
 * the target must exist, and a legacy name must not be a field of its own (it would shadow it).
 */
function checkLegacyNames(ctx: LintContext, file: ResourceFile): void {
  const { fields } = file.value;
  for (const [legacy, target] of Object.entries(file.value.legacyNames ?? {})) {
    if (target === undefined) continue;
    if (target !== 'id' && !fields[target])
      ctx.report(
        file,
        ['legacyNames', legacy],
        'unknown-field',
        `legacy name '${legacy}' stands for '${target}', which is neither 'id' nor a field of this resource`,
      );
    if (fields[legacy] || RESERVED_FIELD_NAMES.has(legacy))
      ctx.report(file, ['legacyNames', legacy], 'duplicate-field', `legacy name '${legacy}' is already a field of this resource`, 'key');
  }
}

/** `derive`, `onDelete` and workflow `effects` name registered server hooks (when the lint knows them). */
function checkHooks(ctx: LintContext, file: ResourceFile): void {
  const known = ctx.hookNames;
  const check = (name: string, path: JsonPath) => {
    if (known && !known.has(name)) ctx.report(file, path, 'unknown-hook', `no server hook '${name}' (register it in a feature's hooks (src/server/domain))`);
  };
  file.value.derive?.forEach((name, i) => check(name, ['derive', i]));
  file.value.onDelete?.forEach((name, i) => check(name, ['onDelete', i]));
  for (const [action, def] of Object.entries(file.value.workflow?.actions ?? {}))
    def?.effects?.forEach((name, i) => check(name, ['workflow', 'actions', action, 'effects', i]));
}

/** `display` and `search` name fields of the resource (search: text fields). */
function checkFieldLists(ctx: LintContext, file: ResourceFile): void {
  const { fields } = file.value;
  file.value.display?.forEach((name, i) => {
    if (!fields[name]) ctx.report(file, ['display', i], 'unknown-field', `no field '${name}' in this resource`);
  });
  file.value.search?.forEach((name, i) => {
    const type = fields[name]?.type;
    if (type !== 'string' && type !== 'text')
      ctx.report(file, ['search', i], 'unknown-field', `'${name}' is not a text field of this resource (search needs string or text fields)`);
  });
}

/** A ref's `copy` names fields both here and in the referenced resource; `refWhere` names its list parameters. */
function checkRefField(ctx: LintContext, file: ResourceFile, at: JsonPath, field: Field): void {
  const target = field.ref ? ctx.resources.get(field.ref) : undefined;
  if (!target?.valid) return;
  const there = target.file.value;
  const { copy } = field;
  // A list names each field on both sides; a map names the field here by its key and the field there by its value.
  copyPairs(field).forEach(([here, from], i) => {
    const key = Array.isArray(copy) ? i : here;
    if (!file.value.fields[here])
      ctx.report(file, [...at, 'copy', key], 'unknown-field', `no field '${here}' beside this reference to copy into`, Array.isArray(copy) ? 'value' : 'key');
    else if (!there.fields[from]) ctx.report(file, [...at, 'copy', key], 'unknown-field', `resource '${there.name}' has no field '${from}' to copy`);
  });
  const params = filterParamsOf(there);
  for (const key of Object.keys(field.refWhere ?? {})) {
    if (!params.has(key)) ctx.report(file, [...at, 'refWhere', key], 'unknown-filter', `'${key}' is not a list parameter of resource '${there.name}'`, 'key');
  }
}
