/**
 * Saving a record: insert (no id) or update (id) from a request body, defaults, references and
 * field requirements applied, optionally committed in the same transaction. An update locks the
 * row (SELECT ... FOR UPDATE) and checks its state and version there.
 */
import { computeRow } from '../../schema/compute';
import { firstFailure, hasRequirement, irrelevantFields, SAVE_STAGE } from '../../schema/requirements';
import { allowedInState, editableStates } from '../../schema/workflow-rules';
import { resolveRelativeDate } from '../../shared/dates';
import { inTransaction } from '../db/index';
import { AppError } from '../errors';
import { appendAudit, auditEntry } from './audit';
import { restoreMasked } from './masking';
import { sanitizeRichTextFields } from './rich-text';
import type { ResourceModel } from './model';
import { attachChildren, findRow, updateRow, type AnyDb, type Row } from './repository';
import { assertMayActOn, assertRoleAllowed, assertWriter, serves, visibleRows, type Actor } from './scope';
import { assertValid } from './validation';
import { fillSessionFields, insertRecord, recordInput, withDerived, writeChildren, type InsertOptions } from './writer';
import { requireId, type CompiledResource } from './records';
import { assertVersion, linkAttachments, lockRow, transition } from './record-actions';
import { checkRefs, fillCopies, serverCopies, storedRow } from './record-refs';

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

/** Fills the defaults of absent fields of a new row and of every sub-table row (before validation). */
function applyDefaults(model: ResourceModel, body: Record<string, unknown>, insert: boolean): void {
  if (insert)
    for (const f of model.writable) if (body[f.name] === undefined && f.field.default !== undefined) body[f.name] = resolveRelativeDate(f.field.default);
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows)) for (const row of rows) if (row && typeof row === 'object') applyDefaults(link.model, row as Record<string, unknown>, true);
  }
}

/**
 * A new row filed by a serving party (resource `party.via`): it belongs to the owner of the record
 * its `via` reference names (one the party may read), and its party column names the party's unit.
 * Undefined when the actor files a row of its own.
 */
async function filedForOwner(trx: AnyDb, compiled: CompiledResource, actor: Actor, body: Record<string, unknown>): Promise<InsertOptions | undefined> {
  const { model } = compiled;
  const party = model.party;
  if (!party?.column || !serves(model, actor)) return undefined;
  const via = party.via;
  // Without `via` the party files nothing (it reads and acts on the rows it serves).
  if (!via) throw new AppError('ACTION_NOT_PERMITTED');
  const target = compiled.runtime.models.get(via.field.ref ?? '');
  const id = body[via.name];
  const record = target && typeof id === 'string' && id !== '' ? await findRow(trx, target, id, visibleRows(target, actor)) : undefined;
  if (!record) throw new AppError('VALIDATION_FAILED', `${via.label}不存在或不属于本单位`, { field: via.name });
  return { owner: { unitId: record.unitId, areaCode: record.areaCode }, set: { [party.column]: actor.unitId } };
}

const isTrue = (flag: unknown) => flag === true || flag === 'true' || flag === '1';

/**
 * Inserts (no id) or updates (id) a record from a request body; with `isCommit` it is committed
 * in the same transaction. Returns the saved row.
 */
export async function saveRecord(db: AnyDb, compiled: CompiledResource, actor: Actor, body: unknown): Promise<Row> {
  const { model, validateInsert, validateUpdate } = compiled;
  assertWriter(model, actor);
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
    // The unit owning the row: its attachments are that unit's (a serving party's files are the owner's record's).
    let ownerUnit: unknown = actor.unitId;
    if (existingId) {
      id = existingId;
      const row = await lockRow(trx, model, actor, id);
      ownerUnit = row.unitId ?? actor.unitId;
      before = model.children.length ? await attachChildren(trx, model, { ...row }) : row;
      assertMayActOn(model, actor, row, save);
      assertVersion(row, body.version as number | null | undefined);
      // Without an explicit save action a row is editable only in the initial state.
      if (!allowedInState(editableStates(workflow), row.status)) throw new AppError('WRONG_STATE');
      await checkSave(trx, model, body, row);
      await checkRefs(trx, compiled, model, actor, body);
      const copies = await serverCopies(trx, compiled, model, actor, body, row);
      const input = await withDerived(trx, compiled, actor, body, recordInput(model, body), row);
      Object.assign(input.values, copies);
      await updateRow(trx, model, id, { ...input.values, updated_by: actor.userId });
      await writeChildren(trx, input, id);
    } else {
      // Readonly ones again: validation drops them from the body.
      await fillSessionFields(trx, model, actor, body);
      await checkSave(trx, model, body, undefined);
      const filed = await filedForOwner(trx, compiled, actor, body);
      await checkRefs(trx, compiled, model, actor, body);
      const copies = await serverCopies(trx, compiled, model, actor, body, undefined);
      id = await insertRecord(trx, compiled, actor, body, { ...filed, set: { ...copies, ...filed?.set } });
      ownerUnit = filed?.owner?.unitId ?? actor.unitId;
    }
    await linkAttachments(trx, model, actor, id, body, ownerUnit);
    // The audit row goes last (it takes the log's lock until commit): after the commit's effects.
    const savedAudit = auditEntry(
      actor,
      model,
      compiled.runtime,
      existingId ? 'update' : 'insert',
      id,
      before,
      await attachChildren(trx, model, (await findRow(trx, model, id, undefined))!),
    );
    if (commit) await transition(trx, compiled, actor, 'commit', commit, await lockRow(trx, model, actor, id), { extra: body, auditFirst: savedAudit });
    else if (savedAudit) await appendAudit(trx, savedAudit);
    const saved = await findRow(trx, model, id, undefined);
    return attachChildren(trx, model, saved!);
  });
}
