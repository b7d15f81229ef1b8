/**
 * The workflow actions of a record (and delete). Each runs in one transaction that locks the row
 * (SELECT ... FOR UPDATE) and checks its state there, so a refused action changes nothing and two
 * concurrent actions on a row are serialised. Every state change is written to the flow log in the
 * same transaction. A save that commits (record-save.ts) ends with the commit's transition here.
 */
import type { WorkflowAction } from '../../schema/types';
import { todayIn } from '../../shared/dates';
import { firstFailure, hasRequirement, requirementStages, type Stage } from '../../schema/requirements';
import { actionOf as workflowActionOf, allowedInState } from '../../schema/workflow-rules';
import { inTransaction } from '../db/index';
import { AppError } from '../errors';
import { appendAudit, writeAudit, type AuditAppend } from './audit';
import { writeFlowLog } from './flow-log';
import { linkToRecord } from '../services/attachments';
import { sanitizeRichTextFields } from './rich-text';
import { columnsOf } from './hooks';
import type { ResourceModel } from './model';
import { attachChildren, deleteRow, findRow, updateRow, type AnyDb, type Row } from './repository';
import { assertMayActOn, assertRoleAllowed, assertWriter, visibleRows, type Actor } from './scope';
import { assertValid } from './validation';
import { runHooks } from './writer';
import { requireId, type CompiledResource } from './records';

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

/** The workflow action `name` of a resource (src/schema/workflow-rules.ts), or undefined when it has none. */
export function actionOf(model: ResourceModel, name: string): WorkflowAction | undefined {
  return workflowActionOf(model.workflow, name);
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

export function assertVersion(row: Row, version: number | null | undefined): void {
  if (version !== undefined && version !== null && row.version !== version) throw new AppError('STALE_VERSION');
}

export async function lockRow(trx: AnyDb, model: ResourceModel, actor: Actor, id: string): Promise<Row> {
  const row = await findRow(trx, model, id, visibleRows(model, actor), true);
  if (!row) throw new AppError('RECORD_NOT_FOUND');
  return row;
}

/** Whether a field's requirement applies at one of `stages` (so the check needs the whole record). */
const requiredAt = (model: ResourceModel, stages: readonly Stage[]) =>
  Object.values(model.resource.fields).some((f) => f && hasRequirement(f) && requirementStages(f).some((s) => stages.includes(s)));

/** The requirements of the fields required when a record takes `action` (`requiredOn`), on the stored record. */
async function checkAction(trx: AnyDb, model: ResourceModel, action: string, row: Row, inputs: readonly string[] = []): Promise<void> {
  if (!requiredAt(model, [action]) && inputs.length === 0) return;
  const record = await attachChildren(trx, model, { ...row });
  // The dates the action writes (its input) keep their bounds, as a save's changed dates do.
  const failure = firstFailure(model.resource, record, { stages: [action], dateFields: new Set(inputs) });
  if (failure) throw new AppError('VALIDATION_FAILED', failure.message, { field: failure.field });
}

/** The columns of the action's `stamp` fields, set to this moment (a date field: today in the portal's time zone). */
function stampOf(model: ResourceModel, action: WorkflowAction): Record<string, unknown> {
  if (!action.stamp?.length) return {};
  const now = new Date();
  return columnsOf(
    model,
    Object.fromEntries(action.stamp.map((name) => [name, model.resource.fields[name]?.type === 'date' ? todayIn(undefined, now) : now.toISOString()])),
  );
}

/**
 * Moves a locked row along `action` (or removes it: delete without a target state), then runs the
 * action's effects on the row as it now is and writes what they return.
 */
export async function transition(
  trx: AnyDb,
  compiled: CompiledResource,
  actor: Actor,
  name: string,
  action: WorkflowAction,
  row: Row,
  input: ActionInput,
): Promise<void> {
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
  else
    await updateRow(trx, model, id, {
      status: action.to ?? from,
      ...(input.fields ? columnsOf(model, input.fields) : {}),
      ...stampOf(model, action),
      updated_by: actor.userId,
    });
  // Files the action asked for (a report) become the record's, visible to its unit.
  if (!removes && input.fields) await linkAttachments(trx, model, actor, id, input.fields, row.unitId);
  if (model.workflow)
    await writeFlowLog(trx, actor, {
      resource: model.name,
      recordId: id,
      action: name,
      from,
      to: removes ? null : (action.to ?? from),
      opinion: input.opinion,
    });
  const current = async () => attachChildren(trx, model, (await findRow(trx, model, id, undefined))!);
  if (removes && model.onDelete.length)
    await runHooks(compiled.runtime, model.onDelete, { trx, actor, model, row: before, before, action: name, input: input.extra ?? {} });
  if (!removes && action.effects?.length) {
    const values = await runHooks(compiled.runtime, action.effects, {
      trx,
      actor,
      model,
      row: await current(),
      before: row,
      action: name,
      opinion: input.opinion,
      input: input.extra ?? {},
    });
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
export async function runAction(
  db: AnyDb,
  compiled: CompiledResource,
  actor: Actor,
  name: string,
  id: unknown,
  input: ActionInput,
  internal = false,
): Promise<Row | null> {
  const { model } = compiled;
  const action = actionOf(model, name);
  if (!action || (action.internal && !internal)) throw new AppError('NOT_FOUND');
  if (!internal) {
    assertWriter(model, actor);
    assertRoleAllowed(action, actor);
  }
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

/** Ids of the uploaded files in the attachment fields of `values`. */
function attachmentIds(model: ResourceModel, values: Record<string, unknown>): string[] {
  return model.fields
    .filter((f) => f.type === 'attachment' && Array.isArray(values[f.name]))
    .flatMap((f) => (values[f.name] as { id?: unknown }[]).map((file) => file?.id))
    .filter((id): id is string => typeof id === 'string');
}

/** Links the files named by the attachment fields of `values` to the record (and its owner unit, when not the actor's). */
export async function linkAttachments(
  trx: AnyDb,
  model: ResourceModel,
  actor: Actor,
  id: string,
  values: Record<string, unknown>,
  recordUnitId: unknown,
): Promise<void> {
  const ids = attachmentIds(model, values);
  if (ids.length > 0) await linkToRecord(trx, actor, id, ids, typeof recordUnitId === 'string' ? recordUnitId : null);
}
