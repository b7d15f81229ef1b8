/**
 * The generic record operations, reading side: what a resource is compiled to for its requests
 * (CompiledResource), the list (its criteria shared with export and statistics), a record, its audit
 * and flow logs, and read marks. Writing is record-save.ts (insert or update) and
 * record-actions.ts (the workflow actions); the checks and copies of references, record-refs.ts.
 */
import { sql, type RawBuilder } from 'kysely';
import { isId } from '../db/ids';
import { pageOffset } from '../db/sql';
import { okPageJson } from '../envelope';
import { AppError } from '../errors';
import { filterConditions, orderClause, pageOf, type ListParams, type ListPlan } from './filters';
import { readAudit } from './audit';
import { readFlowLog, type FlowLogEntry } from './flow-log';
import { UNREAD_FLAG, type AuditEntry } from '../../shared/contract';
import type { HookRuntime } from './hooks';
import type { ResourceModel } from './model';
import { attachChildren, findRow, listPage, type AnyDb, type Row } from './repository';
import type { KeptCounts } from './kept-counts';
import { ownerValue, visibleByOwnerOnly, visibleRows, type Actor } from './scope';
import { assertValid, dropBlanks, type Validator } from './validation';

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
  /** Its kept counts (resource `keptCounts`), once the engine made them at start (kept-counts.ts). */
  kept?: KeptCounts;
}

export const requireId = (id: unknown): string => {
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
  /** The read-marks condition (`unread`) is among the conditions. */
  unread: boolean;
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
    unread: unread.length > 0,
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
  // A `readMarks` resource's rows say whether this user has opened them yet (`_unread`), for the list's mark.
  const extra = compiled.model.resource.readMarks ? sql`${unreadBy(compiled.model, actor)} AS ${sql.ref(UNREAD_FLAG)}` : undefined;
  const { listJson, count, capped } = await listPage(db, compiled.model, conditions, order, pageSize, pageOffset(pageNo, pageSize), {
    orderIndexed,
    planStable,
    owner,
    extra,
  });
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
