/**
 * The generic record operations: list, get, save (insert or update, optionally committing) and the
 * workflow actions. Each write runs in one transaction that locks the row (SELECT ... FOR UPDATE)
 * and checks its state there, so a refused action changes nothing and two concurrent actions on a
 * row are serialised. Every state change is written to the flow log in the same transaction.
 */
import { sql, type RawBuilder } from 'kysely';
import type { WorkflowAction } from '../../schema/types';
import { computeRow } from '../../schema/compute';
import { copyPairs } from '../../schema/model';
import { firstFailure, hasRequirement, irrelevantFields, requirementStages, SAVE_STAGE, type Stage } from '../../schema/requirements';
import { actionOf as workflowActionOf, allowedInState, editableStates } from '../../schema/workflow-rules';
import { resolveRelativeDate } from '../../shared/dates';
import { isId } from '../db/ids';
import { inTransaction } from '../db/index';
import { pageOffset } from '../db/sql';
import { okPageJson } from '../envelope';
import { AppError } from '../errors';
import { filterConditions, orderClause, pageOf, type ListParams, type ListPlan } from './filters';
import { appendAudit, auditEntry, readAudit, writeAudit, type AuditAppend } from './audit';
import { readFlowLog, writeFlowLog, type FlowLogEntry } from './flow-log';
import type { AuditEntry } from '../../shared/contract';
import { linkToRecord } from '../services/attachments';
import { maskedValues, restoreMasked } from './masking';
import { sanitizeRichTextFields } from './rich-text';
import { columnsOf, type HookRuntime } from './hooks';
import type { ResourceModel } from './model';
import { attachChildren, deleteRow, findRow, listPage, updateRow, type AnyDb, type Row } from './repository';
import { assertMayActOn, assertRoleAllowed, ownerValue, visibleByOwnerOnly, visibleRows, type Actor } from './scope';
import { assertValid, dropBlanks, type Validator } from './validation';
import { fillSessionFields, insertRecord, recordInput, runHooks, withDerived, writeChildren } from './writer';

export interface ActionInput {
  opinion?: string | null;
  version?: number | null;
  /** The whole request input, for effects that take parameters. */
  extra?: Readonly<Record<string, unknown>>;
  /** Checked values of the fields the action asks for (workflow action `input`); set by runAction. */
  fields?: Record<string, unknown>;
  /** A save's audit row when the save commits at once: written just before the action's own, last. */
  auditFirst?: AuditAppend | null;
}

/** A resource with what its requests need, compiled once at start. */
export interface CompiledResource {
  model: ResourceModel;
  listPlan: ListPlan;
  validateInsert: Validator;
  validateUpdate: Validator;
  validateParams: Validator;
  /** Per workflow action with `input`: the check of the fields it asks for. */
  validateInputs?: ReadonlyMap<string, Validator>;
  /** The server hooks, dictionaries and models that `derive` and `effects` hooks run with. */
  runtime: HookRuntime;
}

/** The workflow action `name` of a resource (src/schema/workflow-rules.ts), or undefined when it has none. */
export function actionOf(model: ResourceModel, name: string): WorkflowAction | undefined {
  return workflowActionOf(model.workflow, name);
}

const requireId = (id: unknown): string => {
  if (!isId(id)) throw new AppError('RECORD_NOT_FOUND');
  return id;
};

/** What a list request selects: its checked parameters, the visible-and-filtered conditions and the order. */
export interface ListCriteria {
  params: ListParams;
  conditions: RawBuilder<boolean>[];
  order: string;
  /** The order is the default one, which an index of every resource table serves (model.ts indexesOf). */
  orderIndexed: boolean;
  /** No condition but the owner equality of visibleRows: the list statement's best plan is the same whatever the values (repository.ts listPage). */
  planStable: boolean;
  /** The owner equality's value when it is the only condition (repository.ts listPage: the count's cap). */
  owner: string | undefined;
}

/** The list parameters of `input` (query string and/or body), checked, as conditions and order. List and export share them. */
export function listCriteria({ model, listPlan, validateParams }: CompiledResource, actor: Actor, input: Record<string, unknown>): ListCriteria {
  const params = dropBlanks({ ...input }) as ListParams;
  assertValid(model, validateParams, params);
  const visible = visibleRows(model, actor);
  const unread = model.resource.readMarks && (params.unread === true || params.unread === 'true') ? [unreadBy(model, actor)] : [];
  const filters = filterConditions(listPlan, params);
  const order = orderClause(listPlan, params.orderBy);
  const unfiltered = filters.length === 0 && unread.length === 0;
  return {
    params,
    conditions: [...(visible ? [visible] : []), ...filters, ...unread],
    order,
    orderIndexed: order === listPlan.defaultOrder,
    planStable: unfiltered && visibleByOwnerOnly(model, actor),
    owner: unfiltered ? ownerValue(model, actor) : undefined,
  };
}

/**
 * Rows of a `readMarks` resource the actor has not opened. With `publicStates` only rows in those
 * states count as unread, for every role (a writer's drafts are not news to anyone).
 */
const unreadBy = (model: ResourceModel, actor: Actor) => {
  const notOpened = sql<boolean>`NOT EXISTS (SELECT 1 FROM sys_read_mark m WHERE m.user_id = ${actor.userId} AND m.resource = ${model.name} AND m.record_id = id)`;
  const states = model.resource.publicStates;
  return states?.length ? sql<boolean>`(status IN (${sql.join(states)}) AND ${notOpened})` : notOpened;
};

/** Marks a record of a `readMarks` resource read by the actor (once; later reads change nothing). */
export async function markRead(db: AnyDb, model: ResourceModel, actor: Actor, id: string): Promise<void> {
  if (!model.resource.readMarks) return;
  await sql`INSERT INTO sys_read_mark (user_id, resource, record_id) VALUES (${actor.userId}, ${model.name}, ${id}) ON CONFLICT DO NOTHING`.execute(db);
}

/**
 * A page of the visible rows matching `input` (query string and/or body parameters), as the JSON
 * text of the success envelope (the list as JSON text: repository.ts listPage).
 */
export async function listRecordsJson(db: AnyDb, compiled: CompiledResource, actor: Actor, input: Record<string, unknown>): Promise<string> {
  const { params, conditions, order, orderIndexed, planStable, owner } = listCriteria(compiled, actor, input);
  const { pageNo, pageSize } = pageOf(params);
  const { listJson, count, capped } = await listPage(db, compiled.model, conditions, order, pageSize, pageOffset(pageNo, pageSize), { orderIndexed, planStable, owner });
  return okPageJson(listJson, count, pageNo, pageSize, capped);
}

export async function getRecord(db: AnyDb, model: ResourceModel, actor: Actor, id: unknown): Promise<Row> {
  const row = await findRow(db, model, requireId(id), visibleRows(model, actor));
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return attachChildren(db, model, row);
}

/** The audit log of a record the actor may see, newest first. */
export async function getAuditLog(db: AnyDb, model: ResourceModel, actor: Actor, id: unknown): Promise<AuditEntry[]> {
  const row = await findRow(db, model, requireId(id), visibleRows(model, actor));
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return readAudit(db, model.name, row.id as string);
}

export async function getFlowLog(db: AnyDb, model: ResourceModel, actor: Actor, id: unknown): Promise<FlowLogEntry[]> {
  const row = await findRow(db, model, requireId(id), visibleRows(model, actor));
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return readFlowLog(db, model.name, row.id as string);
}

function assertOpinion(action: WorkflowAction, input: ActionInput): void {
  if (action.opinion === 'required' && !input.opinion?.trim()) throw new AppError('OPINION_REQUIRED');
}

/**
 * The values of the fields an action asks for (`input`), taken from the request and checked like a
 * save body (each required); undefined for an action that asks for none.
 */
function actionFields(compiled: CompiledResource, name: string, action: WorkflowAction, input: ActionInput): Record<string, unknown> | undefined {
  if (!action.input?.length) return undefined;
  const validate = compiled.validateInputs?.get(name);
  if (!validate) throw new Error(`resource '${compiled.model.name}': action '${name}' has no compiled input check`);
  const values: Record<string, unknown> = {};
  for (const field of action.input) {
    const value = input.extra?.[field];
    if (value !== undefined && value !== null && value !== '') values[field] = value;
  }
  sanitizeRichTextFields(compiled.model, values);
  assertValid(compiled.model, validate, values);
  return values;
}

/** Runs `work` in a transaction: the caller's when `db` already is one (a service acting on several records at once), else a new one. */

function assertVersion(row: Row, version: number | null | undefined): void {
  if (version !== undefined && version !== null && row.version !== version) throw new AppError('STALE_VERSION');
}

async function lockRow(trx: AnyDb, model: ResourceModel, actor: Actor, id: string): Promise<Row> {
  const row = await findRow(trx, model, id, visibleRows(model, actor), true);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row;
}

/** Whether a field's requirement applies at one of `stages` (so the check needs the whole record). */
const requiredAt = (model: ResourceModel, stages: readonly Stage[]) =>
  Object.values(model.resource.fields).some((f) => f && hasRequirement(f) && requirementStages(f).some((s) => stages.includes(s)));

/** The stored row with its sub-table rows when a sub-table requirement needs them and the body does not carry them. */
async function storedForCheck(trx: AnyDb, model: ResourceModel, row: Row | undefined, body: Record<string, unknown>): Promise<Row | undefined> {
  if (!row) return row;
  const needsChildren = model.children.some((c) => !Array.isArray(body[c.name]) && hasRequirement(model.resource.fields[c.name]!));
  return needsChildren ? attachChildren(trx, model, { ...row }) : row;
}

/**
 * The field requirements of a save (src/schema/requirements.ts), on the record as it will be
 * (computed fields computed):
 * fields whose `when` does not hold are written as null; a missing required value or a changed date
 * out of bounds is refused with the field's message (VALIDATION_FAILED, data.field), as the form does.
 */
async function checkSave(trx: AnyDb, model: ResourceModel, body: Record<string, unknown>, before: Row | undefined): Promise<void> {
  const { resource } = model;
  const record: Record<string, unknown> = { ...(await storedForCheck(trx, model, before, body)), ...body };
  // Computed fields are the server's (a request's values for them are ignored); requirements may read them.
  Object.assign(record, computeRow(resource, record));
  for (const name of irrelevantFields(resource, record)) body[name] = record[name] = null;
  const changed = new Set(Object.keys(body).filter((name) => !before || String(before[name] ?? '') !== String(body[name] ?? '')));
  const failure = firstFailure(resource, record, { stages: [SAVE_STAGE], dateFields: changed });
  if (failure) throw new AppError('VALIDATION_FAILED', failure.message, { field: failure.field });
}

/** The requirements of the fields required when a record takes `action` (`requiredOn`), on the stored record. */
async function checkAction(trx: AnyDb, model: ResourceModel, action: string, row: Row, inputs: readonly string[] = []): Promise<void> {
  if (!requiredAt(model, [action]) && inputs.length === 0) return;
  const record = await attachChildren(trx, model, { ...row });
  // The dates the action writes (its input) keep their bounds, as a save's changed dates do.
  const failure = firstFailure(model.resource, record, { stages: [action], dateFields: new Set(inputs) });
  if (failure) throw new AppError('VALIDATION_FAILED', failure.message, { field: failure.field });
}

/**
 * Moves a locked row along `action` (or removes it: delete without a target state), then runs the
 * action's effects on the row as it now is and writes what they return.
 */
async function transition(trx: AnyDb, compiled: CompiledResource, actor: Actor, name: string, action: WorkflowAction, row: Row, input: ActionInput): Promise<void> {
  const { model } = compiled;
  assertMayActOn(model, actor, row, action);
  assertVersion(row, input.version);
  const from = (row.status as string | undefined) ?? null;
  if (!allowedInState(action.from, from)) throw new AppError('WRONG_STATE');
  // The values the action asks for (its `input`) count for its requirements: they are what it writes.
  await checkAction(trx, model, name, input.fields ? { ...row, ...input.fields } : row, Object.keys(input.fields ?? {}));
  const id = row.id as string;
  const before = model.children.length ? await attachChildren(trx, model, { ...row }) : row;
  const removes = name === 'delete' && action.to === undefined;
  if (removes) await deleteRow(trx, model, id);
  else await updateRow(trx, model, id, { status: action.to ?? from, ...(input.fields ? columnsOf(model, input.fields) : {}), updated_by: actor.userId });
  // Files the action asked for (a report) become the record's, visible to its unit.
  if (!removes && input.fields) await linkAttachments(trx, model, actor, id, input.fields, row.unitId);
  if (model.workflow) await writeFlowLog(trx, actor, { resource: model.name, recordId: id, action: name, from, to: removes ? null : (action.to ?? from), opinion: input.opinion });
  const current = async () => attachChildren(trx, model, (await findRow(trx, model, id, undefined))!);
  if (removes && model.onDelete.length) await runHooks(compiled.runtime, model.onDelete, { trx, actor, model, row: before, before, action: name, input: input.extra ?? {} });
  if (!removes && action.effects?.length) {
    const values = await runHooks(compiled.runtime, action.effects, { trx, actor, model, row: await current(), before: row, action: name, opinion: input.opinion, input: input.extra ?? {} });
    if (Object.keys(values).length > 0) await updateRow(trx, model, id, { ...columnsOf(model, values), updated_by: actor.userId });
  }
  if (input.auditFirst) await appendAudit(trx, input.auditFirst);
  await writeAudit(trx, actor, model, compiled.runtime, name, id, before, removes ? undefined : await current());
}

/**
 * Runs a workflow action (or delete); returns the row after it, or null once deleted. An
 * `internal` action is refused unless the server itself runs it (`internal: true`, e.g. a provider's
 * notification), with an actor standing for the server. The fields the action asks for (`input`)
 * are checked and written with the state change. Given a transaction as `db`, the action joins it
 * (a service that changes its own tables too commits or rolls back both at once).
 */
export async function runAction(db: AnyDb, compiled: CompiledResource, actor: Actor, name: string, id: unknown, input: ActionInput, internal = false): Promise<Row | null> {
  const { model } = compiled;
  const action = actionOf(model, name);
  if (!action || (action.internal && !internal)) throw new AppError('NOT_FOUND');
  if (!internal) assertRoleAllowed(action, actor);
  assertOpinion(action, input);
  const rowId = requireId(id);
  const fields = actionFields(compiled, name, action, input);
  return inTransaction(db, async (trx) => {
    const row = internal ? await findRow(trx, model, rowId, undefined, true) : await lockRow(trx, model, actor, rowId);
    if (!row) throw new AppError('RECORD_NOT_FOUND');
    await transition(trx, compiled, internal ? { ...actor, unitId: row.unitId as string } : actor, name, action, row, { ...input, fields });
    const after = await findRow(trx, model, rowId, undefined);
    return after ? attachChildren(trx, model, after) : null;
  });
}

/**
 * A reference names a record the actor may see: a ref field (of the record or of a sub-table row)
 * pointing at another unit's row, or at none, is refused like a missing record, naming the field.
 */
async function checkRefs(trx: AnyDb, compiled: CompiledResource, model: ResourceModel, actor: Actor, body: Record<string, unknown>): Promise<void> {
  for (const f of model.writable) {
    const id = body[f.name];
    if (f.type !== 'ref' || typeof id !== 'string' || id === '') continue;
    const target = compiled.runtime.models.get(f.field.ref ?? '');
    if (!target) continue;
    if (!(await findRow(trx, target, id, visibleRows(target, actor)))) throw new AppError('VALIDATION_FAILED', `${f.label}不存在或不属于本单位`, { field: f.name });
  }
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows)) for (const row of rows) if (row && typeof row === 'object') await checkRefs(trx, compiled, link.model, actor, row as Record<string, unknown>);
  }
}

/**
 * The `copy` fields of a reference that the save sets or changes and the body leaves out, taken
 * from the chosen record (when the actor may see it; checkRefs refuses it otherwise): a client that
 * sends only the id (an import, a legacy client) keeps the snapshot the form would have copied,
 * while values the body carries stand. `stored` reads the row being updated (undefined: a new row),
 * so an unchanged reference copies nothing. Sub-table rows are written anew on every save: each
 * one is new. Runs before validation, so the copied values are checked like sent ones.
 */
async function fillCopies(db: AnyDb, compiled: CompiledResource, model: ResourceModel, actor: Actor, body: Record<string, unknown>, stored: () => Promise<Row | undefined>): Promise<void> {
  for (const f of model.writable) {
    const id = body[f.name];
    if (f.type !== 'ref' || typeof id !== 'string' || !isId(id)) continue;
    const target = compiled.runtime.models.get(f.field.ref ?? '');
    const pairs = copyPairs(f.field).filter(([here]) => model.byName.get(here)?.writable);
    const missing = pairs.filter(([here]) => body[here] === undefined);
    // A masked value copied from a list row (the chosen record's field has a `mask`) is the chosen record's real value.
    const masked = pairs.filter(([here, there]) => typeof body[here] === 'string' && (body[here] as string).includes('*') && target?.byName.get(there)?.mask);
    if ((missing.length === 0 && masked.length === 0) || !target) continue;
    if (missing.length > 0 && masked.length === 0 && (await stored())?.[f.name] === id) continue;
    const chosen = await findRow(db, target, id, visibleRows(target, actor));
    if (!chosen) continue;
    if ((await stored())?.[f.name] !== id) for (const [here, there] of missing) body[here] = chosen[there] ?? null;
    const shown = masked.length > 0 ? await maskedValues(db, target, id) : undefined;
    for (const [here, there] of masked) if (shown?.[there] === body[here]) body[here] = chosen[there] ?? null;
  }
  for (const link of model.children) {
    const rows = body[link.name];
    if (!Array.isArray(rows)) continue;
    for (const row of rows) if (row && typeof row === 'object' && !Array.isArray(row)) await fillCopies(db, compiled, link.model, actor, row as Record<string, unknown>, async () => undefined);
  }
}

/** The row an update names, read once and only when asked (undefined for a new row or an id the actor cannot see). */
function storedRow(db: AnyDb, model: ResourceModel, actor: Actor, id: unknown): () => Promise<Row | undefined> {
  let read: Promise<Row | undefined> | undefined;
  return () => (read ??= isId(id) ? findRow(db, model, id, visibleRows(model, actor)) : Promise.resolve(undefined));
}

/** Fills the defaults of absent fields of a new row and of every sub-table row (before validation). */
function applyDefaults(model: ResourceModel, body: Record<string, unknown>, insert: boolean): void {
  if (insert) for (const f of model.writable) if (body[f.name] === undefined && f.field.default !== undefined) body[f.name] = resolveRelativeDate(f.field.default);
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows)) for (const row of rows) if (row && typeof row === 'object') applyDefaults(link.model, row as Record<string, unknown>, true);
  }
}

/** Ids of the uploaded files in the attachment fields of `values`. */
function attachmentIds(model: ResourceModel, values: Record<string, unknown>): string[] {
  return model.fields
    .filter((f) => f.type === 'attachment' && Array.isArray(values[f.name]))
    .flatMap((f) => (values[f.name] as { id?: unknown }[]).map((file) => file?.id))
    .filter((id): id is string => typeof id === 'string');
}

/** Links the files named by the attachment fields of `values` to the record (and its owner unit, when not the actor's). */
async function linkAttachments(trx: AnyDb, model: ResourceModel, actor: Actor, id: string, values: Record<string, unknown>, recordUnitId: unknown): Promise<void> {
  const ids = attachmentIds(model, values);
  if (ids.length > 0) await linkToRecord(trx, actor, id, ids, typeof recordUnitId === 'string' ? recordUnitId : null);
}

const isTrue = (flag: unknown) => flag === true || flag === 'true' || flag === '1';

/**
 * Inserts (no id) or updates (id) a record from a request body; with `isCommit` it is committed
 * in the same transaction. Returns the saved row.
 */
export async function saveRecord(db: AnyDb, compiled: CompiledResource, actor: Actor, body: unknown): Promise<Row> {
  const { model, validateInsert, validateUpdate } = compiled;
  const insert = !(body as { id?: unknown } | null)?.id;
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    applyDefaults(model, body as Record<string, unknown>, insert);
    sanitizeRichTextFields(model, body as Record<string, unknown>);
    // Blank `session` fields take the user's values before validation, so a requirement sees them.
    if (insert) await fillSessionFields(db, model, actor, body as Record<string, unknown>);
    const stored = insert ? async () => undefined : storedRow(db, model, actor, (body as { id?: unknown }).id);
    await fillCopies(db, compiled, model, actor, body as Record<string, unknown>, stored);
    // Masked values sent back unchanged keep the stored ones (before validation: a mask fails the field's rules).
    if (!insert && model.masked.length > 0) await restoreMasked(db, model, body as Record<string, unknown>, await stored());
  }
  assertValid(model, insert ? validateInsert : validateUpdate, body);
  const workflow = model.workflow;
  const save = workflow?.actions.save;
  assertRoleAllowed(save, actor);
  const commit = isTrue(body.isCommit) ? workflow?.actions.commit : undefined;
  if (isTrue(body.isCommit) && !commit) throw new AppError('WRONG_STATE');
  if (commit) assertRoleAllowed(commit, actor);
  const existingId = body.id ? requireId(body.id) : undefined;

  return inTransaction(db, async (trx) => {
    let id: string;
    let before: Row | undefined;
    if (existingId) {
      id = existingId;
      const row = await lockRow(trx, model, actor, id);
      before = model.children.length ? await attachChildren(trx, model, { ...row }) : row;
      assertMayActOn(model, actor, row, save);
      assertVersion(row, body.version as number | null | undefined);
      // Without an explicit save action a row is editable only in the initial state.
      if (!allowedInState(editableStates(workflow), row.status)) throw new AppError('WRONG_STATE');
      await checkSave(trx, model, body, row);
      await checkRefs(trx, compiled, model, actor, body);
      const input = await withDerived(trx, compiled, actor, body, recordInput(model, body), row);
      await updateRow(trx, model, id, { ...input.values, updated_by: actor.userId });
      await writeChildren(trx, input, id);
    } else {
      // Readonly ones again: validation drops them from the body.
      await fillSessionFields(trx, model, actor, body);
      await checkSave(trx, model, body, undefined);
      await checkRefs(trx, compiled, model, actor, body);
      id = await insertRecord(trx, compiled, actor, body);
    }
    await linkAttachments(trx, model, actor, id, body, actor.unitId);
    // The audit row goes last (it takes the log's lock until commit): after the commit's effects.
    const savedAudit = auditEntry(actor, model, compiled.runtime, existingId ? 'update' : 'insert', id, before, await attachChildren(trx, model, (await findRow(trx, model, id, undefined))!));
    if (commit) await transition(trx, compiled, actor, 'commit', commit, await lockRow(trx, model, actor, id), { extra: body, auditFirst: savedAudit });
    else if (savedAudit) await appendAudit(trx, savedAudit);
    const saved = await findRow(trx, model, id, undefined);
    return attachChildren(trx, model, saved!);
  });
}
