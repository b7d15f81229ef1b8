/**
 * Writing records with their server hooks (hooks.ts): `runHooks` runs `derive` and `effects` hooks
 * with the context through which they read and write other records, and `insertRecord` is the ONE
 * way a new row is written — a save (record-save.ts, and so an XLSX import), a hook's `ctx.insert` and
 * the demo seeds all come through it, so derive hooks, the owner columns, the initial workflow
 * state and the flow log are never forgotten. `prepareInsert` is its first half, for bulk loads
 * that write many prepared rows in one statement.
 */
import { computeRow } from '../../schema/compute';
import { newId } from '../db/ids';
import { writeFlowLog } from './flow-log';
import { columnsOf, type HookContext, type HookRuntime } from './hooks';
import type { ChildLink, FieldModel, ResourceModel } from './model';
import { attachChildren, findRow, insertRow, replaceChildren, updateRow, type AnyDb, type RecordInput, type Row, type Values } from './repository';
import type { Actor } from './scope';
import { nextSerial } from './serial';
import { sessionValues } from './session-values';

/** A resource model with the hooks it runs with (a CompiledResource is one). */
export interface HookedResource {
  model: ResourceModel;
  runtime: HookRuntime;
}

/** The unit (and its area) a new row belongs to. */
export interface RecordOwner {
  unitId: unknown;
  areaCode: unknown;
}

type Call = Omit<HookContext, 'dicts' | 'resource' | 'find' | 'update' | 'insert'>;

/** Runs the named hooks in order, each seeing the values of those before it; returns the merged values. */
export async function runHooks(runtime: HookRuntime, names: readonly string[] | undefined, call: Call): Promise<Record<string, unknown>> {
  const merged: Record<string, unknown> = {};
  if (!names?.length) return merged;
  const resource = (name: string) => {
    const model = runtime.models.get(name);
    if (!model) throw new Error(`hook asked for unknown resource '${name}'`);
    return model;
  };
  for (const [i, name] of names.entries()) {
    const hook = runtime.hooks.get(name);
    if (!hook) throw new Error(`resource '${call.model.name}' names hook '${name}', which is not registered`);
    const ctx: HookContext = {
      ...call,
      // The values of the hooks before it over the row (the first hook sees the row as it is: no copy of ~60 fields per row of a bulk load).
      row: i === 0 ? call.row : { ...call.row, ...merged },
      dicts: runtime.dicts,
      resource,
      find: (r, id, lock = false) => findRow(call.trx, resource(r), id, undefined, lock),
      update: async (r, id, values) => {
        const model = resource(r);
        const stored = await findRow(call.trx, model, id, undefined, true);
        if (!stored) throw new Error(`hook updated missing row ${id} of resource '${r}'`);
        const derived = await runHooks(runtime, model.derive, { ...call, model, row: { ...stored, ...values }, before: stored, action: 'save', input: values });
        const computed = computeRow(model.resource, { ...stored, ...values, ...derived });
        await updateRow(call.trx, model, id, { ...columnsOf(model, { ...values, ...derived, ...computed }), updated_by: call.actor.userId });
      },
      insert: (r, values) =>
        insertRecord(call.trx, { model: resource(r), runtime }, call.actor, values, {
          trusted: true,
          owner: { unitId: call.row.unitId ?? call.actor.unitId, areaCode: call.row.areaCode ?? call.actor.areaCode },
        }),
    };
    Object.assign(merged, (await hook(ctx)) ?? {});
  }
  return merged;
}

export interface InsertOptions {
  /**
   * Written by the server itself (a hook, a seed): every field of the body is taken, readonly ones
   * included, and an unknown name is a programming error. Otherwise (a request, already validated)
   * only the writable fields present are.
   */
  trusted?: boolean;
  /** The owner of the row (default: the actor's unit). */
  owner?: RecordOwner;
  /** Column values the server sets whatever the body says (e.g. a serving party's column). */
  set?: Values;
}

/** Column values of the fields present in a body (see InsertOptions.trusted), and its sub-table rows. */
export function recordInput(model: ResourceModel, body: Record<string, unknown>, trusted = false): RecordInput {
  const children = new Map<ChildLink, RecordInput[]>();
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows))
      children.set(
        link,
        rows.map((r) => recordInput(link.model, r as Record<string, unknown>, trusted)),
      );
  }
  if (trusted) {
    const own = model.children.length ? Object.fromEntries(Object.entries(body).filter(([name]) => !model.children.some((c) => c.name === name))) : body;
    return { values: columnsOf(model, own), children };
  }
  const values: Values = {};
  for (const f of model.writable) if (f.name in body) values[f.column] = body[f.name] ?? null;
  return { values, children };
}

export async function writeChildren(trx: AnyDb, input: RecordInput, parentId: string): Promise<void> {
  for (const [link, rows] of input.children) await replaceChildren(trx, link, parentId, rows);
}

/**
 * Column values the resource's `derive` hooks compute for a row being saved: the stored row merged
 * with the body, with the stored sub-table rows where the body does not replace them.
 */
async function derived(trx: AnyDb, { model, runtime }: HookedResource, actor: Actor, body: Record<string, unknown>, before: Row | undefined): Promise<Values> {
  const names = model.derive;
  if (!names.length) return columnsOf(model, computeRow(model.resource, { ...before, ...body }));
  const stored = before && model.children.some((c) => !Array.isArray(body[c.name])) ? await attachChildren(trx, model, { ...before }) : before;
  const row = { ...stored, ...body };
  const values = await runHooks(runtime, names, { trx, actor, model, row, before, action: 'save', input: body });
  return columnsOf(model, { ...values, ...computeRow(model.resource, { ...row, ...values }) });
}

/**
 * Runs the `derive` hooks of each sub-table resource on each of its rows in the body (one level):
 * what they return is written to that row and seen by the parent's own `derive` hooks, which get
 * the body returned here.
 */
async function deriveChildren(
  trx: AnyDb,
  { model, runtime }: HookedResource,
  actor: Actor,
  body: Record<string, unknown>,
  input: RecordInput,
): Promise<Record<string, unknown>> {
  let seen = body;
  for (const link of model.children) {
    const rows = body[link.name];
    const written = input.children.get(link);
    if (!link.model.derive.length || !Array.isArray(rows) || !written) continue;
    const derivedRows: Row[] = [];
    for (const [i, row] of (rows as Row[]).entries()) {
      const values = await runHooks(runtime, link.model.derive, { trx, actor, model: link.model, row, before: undefined, action: 'save', input: row });
      Object.assign(written[i].values, columnsOf(link.model, values));
      derivedRows.push({ ...row, ...values });
    }
    seen = { ...seen, [link.name]: derivedRows };
  }
  return seen;
}

/** The body's column values with what the derive hooks (sub-tables' first) compute for it; `before` is the stored row of an update. */
export async function withDerived(
  trx: AnyDb,
  resource: HookedResource,
  actor: Actor,
  body: Record<string, unknown>,
  input: RecordInput,
  before: Row | undefined,
): Promise<RecordInput> {
  Object.assign(input.values, await derived(trx, resource, actor, await deriveChildren(trx, resource, actor, body, input), before));
  return input;
}

/**
 * Fields with `session` take the user's unit or user value: a readonly one always (a request never
 * sets it; a trusted writer's explicit value stands), a writable one when the body left it blank.
 */
async function fillFromSession(trx: AnyDb, model: ResourceModel, actor: Actor, input: RecordInput, trusted: boolean): Promise<void> {
  await fillSession(
    trx,
    model,
    actor,
    trusted,
    (f) => input.values[f.column],
    (f, value) => (input.values[f.column] = value),
  );
}

/** The same on a request body (by field name), before its requirements are checked. */
export async function fillSessionFields(trx: AnyDb, model: ResourceModel, actor: Actor, body: Record<string, unknown>): Promise<void> {
  await fillSession(
    trx,
    model,
    actor,
    false,
    (f) => body[f.name],
    (f, value) => (body[f.name] = value),
  );
}

async function fillSession(
  trx: AnyDb,
  model: ResourceModel,
  actor: Actor,
  trusted: boolean,
  get: (f: FieldModel) => unknown,
  set: (f: FieldModel, value: unknown) => void,
): Promise<void> {
  const fields = model.fields.filter((f) => f.field.session);
  if (!fields.length) return;
  const values = await sessionValues(trx, actor, model.cipher);
  for (const f of fields) {
    const current = get(f);
    const blank = current === undefined || current === null || current === '';
    if (blank || (!f.writable && !trusted)) set(f, values[f.field.session!]);
  }
}

/** A new row ready to insert (derive hooks run, owner, initial state, id, audit columns), and its sub-table rows. */
export async function prepareInsert(
  trx: AnyDb,
  resource: HookedResource,
  actor: Actor,
  body: Record<string, unknown>,
  options: InsertOptions = {},
): Promise<RecordInput & { id: string }> {
  const { model } = resource;
  const record = recordInput(model, body, options.trusted);
  // Readable numbers first, so derive hooks and computed fields may read them (e.g. a copy under a legacy name).
  const serials: Record<string, unknown> = {};
  for (const f of model.fields) {
    if (f.field.serial && (record.values[f.column] === undefined || record.values[f.column] === null))
      serials[f.name] = await nextSerial(trx, `${model.name}.${f.name}`, f.field.serial);
  }
  const input = await withDerived(trx, resource, actor, { ...body, ...serials }, record, undefined);
  Object.assign(input.values, columnsOf(model, serials));
  await fillFromSession(trx, model, actor, input, options.trusted === true);
  const { unitId, areaCode } = options.owner ?? actor;
  const owner: Values = model.ownerColumn === 'unit_id' ? { unit_id: unitId, area_code: areaCode } : model.ownerColumn ? { area_code: areaCode } : {};
  const id = newId();
  const values = {
    ...input.values,
    ...options.set,
    ...owner,
    ...(model.workflow ? { status: model.workflow.initial } : {}),
    id,
    created_by: actor.userId,
    updated_by: actor.userId,
  };
  return { id, values, children: input.children };
}

/** Inserts a new record (see the file comment); returns its id. */
export async function insertRecord(
  trx: AnyDb,
  resource: HookedResource,
  actor: Actor,
  body: Record<string, unknown>,
  options: InsertOptions = {},
): Promise<string> {
  const { model } = resource;
  const { id, values, children } = await prepareInsert(trx, resource, actor, body, options);
  await insertRow(trx, model, values);
  await writeChildren(trx, { values, children }, id);
  if (model.workflow) await writeFlowLog(trx, actor, { resource: model.name, recordId: id, action: 'save', from: null, to: model.workflow.initial });
  return id;
}
