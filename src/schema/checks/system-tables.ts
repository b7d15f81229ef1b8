/**
 * Read-only resources over the server's own tables (`systemTable`) and resources of the oversight
 * role types (`oversightOnly`): what they may declare, and that no screen offers a write on them;
 * and what a resource served by a party (`party`) must declare.
 * The server enforces the same (src/server/resources/system-table.ts); the lint says it at the
 * line an analyst wrote.
 */
import type { LintContext } from '../context';
import type { SchemaFile } from '../types';

type ResourceFile = SchemaFile<'resource'>;

/** The column a field reads by default, as the server names it (src/server/resources/naming.ts columnOf). */
const snakeCase = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** Resource keywords that write, number, log or index rows: a system table's rows are the server's own. */
const WRITING_KEYWORDS = ['workflow', 'derive', 'onDelete', 'readMarks', 'publicStates', 'document', 'api'] as const;
/** Field keywords that only make sense where the engine writes the row or makes the table. */
const WRITING_FIELD_KEYWORDS = ['unique', 'index', 'serial', 'compute', 'session', 'default', 'required'] as const;
/** Field types a system table cannot hold (sub-tables and files are rows of other tables). */
const NO_COLUMN_TYPES = new Set(['children', 'attachment']);

function checkResource(ctx: LintContext, file: ResourceFile): void {
  const resource = file.value;
  const fields = Object.entries(resource.fields).filter((e): e is [string, NonNullable<(typeof e)[1]>] => e[1] !== undefined);
  if (!resource.systemTable) {
    for (const [name, field] of fields) {
      if (field.column !== undefined)
        ctx.report(
          file,
          ['fields', name, 'column'],
          'system-table',
          `'column' names a stored column of a system table: only a resource with systemTable takes it`,
          'key',
        );
    }
  } else {
    if (resource.readOnly !== true) ctx.report(file, ['systemTable'], 'system-table', 'a system table is only read: add "readOnly": true', 'key');
    for (const keyword of WRITING_KEYWORDS) {
      if (resource[keyword] !== undefined)
        ctx.report(file, [keyword], 'system-table', `'${keyword}' does not apply to a system table: its rows are written by the server alone`, 'key');
    }
    const columns = new Map<string, string>();
    for (const [name, field] of fields) {
      if (NO_COLUMN_TYPES.has(field.type)) ctx.report(file, ['fields', name, 'type'], 'system-table', `a system table has no ${field.type} fields`);
      for (const keyword of WRITING_FIELD_KEYWORDS) {
        if (field[keyword] !== undefined)
          ctx.report(
            file,
            ['fields', name, keyword],
            'system-table',
            `'${keyword}' does not apply to a field of a system table (its migration makes the table; the server writes the rows)`,
            'key',
          );
      }
      const column = field.column ?? snakeCase(name);
      const clash = columns.get(column);
      if (clash) ctx.report(file, ['fields', name], 'system-table', `fields '${clash}' and '${name}' both read column '${column}'`, 'key');
      columns.set(column, name);
    }
  }
  if (resource.oversightOnly) {
    if (resource.scope !== 'area')
      ctx.report(file, ['oversightOnly'], 'system-table', 'oversightOnly reads the rows by their area: set "scope": "area"', 'key');
    if (resource.workflow !== undefined)
      ctx.report(
        file,
        ['oversightOnly'],
        'system-table',
        'oversightOnly resources have no workflow: the oversight roles read them, nobody acts on them',
        'key',
      );
  }
  if (resource.oversightRead && resource.scope === undefined)
    ctx.report(file, ['oversightRead'], 'system-table', 'oversightRead reads the rows of an area by their owner: set "scope"', 'key');
  if (resource.party) checkParty(ctx, file);
}

/** What a resource served by a party must declare (scope.ts, record-save.ts and model.ts enforce the same at start). */
function checkParty(ctx: LintContext, file: ResourceFile): void {
  const resource = file.value;
  const party = resource.party!;
  const { field, roleType, through } = party;
  const report = (path: (string | number)[], message: string, at: 'key' | 'value' = 'value') => ctx.report(file, ['party', ...path], 'party', message, at);
  if (resource.scope === undefined) report([], 'party serves rows that have an owner: set "scope"', 'key');
  if (through) {
    if (field !== undefined || party.via !== undefined || party.states !== undefined || party.ownStates !== undefined)
      report(['through'], 'through reads the rows another resource lists: it takes no field, via, states or ownStates', 'key');
    const parent = ctx.resources.get(through.resource)?.file.value;
    if (!parent) return report(['through', 'resource'], `resource '${through.resource}' does not exist`);
    if (parent.party?.roleType !== roleType || parent.party.field === undefined)
      return report(['through', 'resource'], `'${through.resource}' is not served by role type '${roleType}' through a party field`);
    const sub = parent.fields[through.subTable];
    if (sub?.type !== 'children') return report(['through', 'subTable'], `'${through.subTable}' is not a sub-table of '${through.resource}'`);
    const ref = ctx.resources.get(sub.resource ?? '')?.file.value.fields[through.ref];
    if (ref?.type !== 'ref' || ref.ref !== resource.name)
      report(['through', 'ref'], `'${through.ref}' is not a ref to '${resource.name}' in the sub-table's rows`);
    const states = new Set(parent.workflow?.states.map((s) => s.code) ?? []);
    for (const [i, state] of through.states.entries())
      if (!states.has(state)) report(['through', 'states', i], `'${through.resource}' has no state '${state}'`);
    return;
  }
  if (field === undefined) return report([], 'party needs "field" (the serving unit\'s id) or "through"', 'key');
  const type = resource.fields[field]?.type;
  if (type !== 'string' && type !== 'ref')
    report(['field'], `party field '${field}' must be a text or ref field of the resource holding the serving unit's id`);
  if (!Object.values(resource.workflow?.actions ?? {}).some((a) => a?.roles?.includes(roleType)))
    report(['roleType'], `no workflow action names role type '${roleType}': the party would read nothing`);
  const states = new Set(resource.workflow?.states.map((s) => s.code) ?? []);
  for (const [i, state] of (party.states ?? []).entries()) if (!states.has(state)) report(['states', i], `the workflow has no state '${state}'`);
  for (const [i, state] of (party.ownStates ?? []).entries()) if (!states.has(state)) report(['ownStates', i], `the workflow has no state '${state}'`);
  if (party.ownStates && party.via === undefined) report(['ownStates'], 'ownStates keeps the rows the party files to itself: it needs "via"', 'key');
  if (party.via !== undefined) {
    if (resource.fields[party.via]?.type !== 'ref') report(['via'], `via '${party.via}' must be a ref field of the resource`);
    if (!resource.workflow?.actions.save?.roles?.includes(roleType))
      report(['via'], `via files rows for the party: the workflow's save must name role type '${roleType}'`);
  }
}

/** The screen actions that only read. */
const READ_ONLY_ACTIONS = new Set(['view', 'back', 'export']);
const actionName = (ref: string | { action: string }) => (typeof ref === 'string' ? ref : ref.action);

function checkScreens(ctx: LintContext): void {
  for (const { file, valid } of ctx.screens.values()) {
    if (!valid) continue;
    const screen = file.value as {
      kind: string;
      resource?: string;
      toolbar?: (string | { action: string })[];
      rowActions?: (string | { action: string })[];
      batchActions?: (string | { action: string })[];
      actions?: (string | { action: string })[];
      form?: string;
    };
    const target = screen.resource === undefined ? undefined : ctx.resources.get(screen.resource);
    if (!target?.valid || !target.file.value.systemTable) continue;
    if (screen.kind === 'form' || screen.kind === 'wizard')
      ctx.report(file, ['kind'], 'system-table', `resource '${screen.resource}' is a system table: it has no ${screen.kind} screen`);
    if (screen.form !== undefined) ctx.report(file, ['form'], 'system-table', `resource '${screen.resource}' is a system table: nothing edits its rows`, 'key');
    for (const key of ['toolbar', 'rowActions', 'batchActions', 'actions'] as const) {
      screen[key]?.forEach((ref, i) => {
        const name = actionName(ref);
        if (!READ_ONLY_ACTIONS.has(name))
          ctx.report(file, [key, i], 'system-table', `'${name}' writes: resource '${screen.resource}' is a system table, read only (view, export, back)`);
      });
    }
  }
}

export function checkSystemTables(ctx: LintContext): void {
  for (const { file, valid } of ctx.resources.values()) if (valid) checkResource(ctx, file);
  checkScreens(ctx);
}
