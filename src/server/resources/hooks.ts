/**
 * Server hooks: named code for what a resource's JSON cannot say, registered by the domain
 * (src/server/services/hooks) and named from the JSON:
 *
 *   resource `derive: ["name"]`            runs on every save (insert or update) after validation,
 *                                          with the row as it will be; returns readonly field values
 *   workflow action `effects: ["name"]`    runs after the action's state change; may return field
 *                                          values of the row and touch other records through `ctx`
 *
 * Both run inside the operation's transaction: a hook that throws (an AppError for the user) undoes
 * the whole operation. Values are by wire name (field names), never columns.
 */
import { sql } from 'kysely';
import type { Catalog } from './catalog';
import type { ResourceModel } from './model';
import type { AnyDb, Row } from './repository';
import { findRow, insertRow, updateRow } from './repository';
import { newId } from '../db/ids';
import type { Actor } from './scope';

/** What a hook may read and do. */
export interface HookContext {
  trx: AnyDb;
  actor: Actor;
  model: ResourceModel;
  /** The row: for derive, the stored row merged with the body being saved; for effects, after the state change (with sub-table rows). */
  row: Row;
  /** The stored row before the operation (undefined on insert). */
  before: Row | undefined;
  /** The workflow action (effects), or 'save' (derive). */
  action: string;
  opinion?: string | null;
  /** Extra input of the action (its request body), for effects that take parameters. */
  input: Readonly<Record<string, unknown>>;
  /** Dictionary items with their `data`, by dictionary name. */
  dicts: Catalog['dictItems'];
  /** Another resource's model by name. */
  resource(name: string): ResourceModel;
  /** Reads a row of any resource by id, unscoped (hooks act for the server), optionally locking it. */
  find(resource: string, id: string, lock?: boolean): Promise<Row | undefined>;
  /** Writes field values (wire names) to a row of any resource, bumping its version; that resource's `derive` hooks run on the result. */
  update(resource: string, id: string, values: Record<string, unknown>): Promise<void>;
  /**
   * Inserts a row of another resource (its `derive` hooks run first), owned by the unit (and area)
   * of the row the operation is on; returns its id.
   */
  insert(resource: string, values: Record<string, unknown>): Promise<string>;
}

/** A hook returns field values (wire names) to write to the operation's own row, or nothing. */
export type Hook = (ctx: HookContext) => Promise<Record<string, unknown> | void> | Record<string, unknown> | void;

export type HookRegistry = ReadonlyMap<string, Hook>;

/** Column values of wire-name `values` of `model` (unknown names are a programming error). */
export function columnsOf(model: ResourceModel, values: Record<string, unknown>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const field = model.byName.get(name);
    if (!field || model.children.some((c) => c.name === name)) throw new Error(`hook wrote unknown field '${name}' of resource '${model.name}'`);
    columns[field.column] = value;
  }
  return columns;
}

export interface HookRuntime {
  hooks: HookRegistry;
  dicts: Catalog['dictItems'];
  models: ReadonlyMap<string, ResourceModel>;
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
  for (const name of names) {
    const hook = runtime.hooks.get(name);
    if (!hook) throw new Error(`resource '${call.model.name}' names hook '${name}', which is not registered`);
    const ctx: HookContext = {
      ...call,
      row: { ...call.row, ...merged },
      dicts: runtime.dicts,
      resource,
      find: (r, id, lock = false) => findRow(call.trx, resource(r), id, undefined, lock),
      update: async (r, id, values) => {
        const model = resource(r);
        const stored = await findRow(call.trx, model, id, undefined, true);
        if (!stored) throw new Error(`hook updated missing row ${id} of resource '${r}'`);
        const derived = await runHooks(runtime, model.derive, { ...call, model, row: { ...stored, ...values }, before: stored, action: 'save', input: values });
        await updateRow(call.trx, model, id, { ...columnsOf(model, { ...values, ...derived }), updated_by: call.actor.userId });
      },
      insert: async (r, values) => {
        const model = resource(r);
        const id = newId();
        const derived = await runHooks(runtime, model.derive, { ...call, model, row: values, before: undefined, action: 'save', input: values });
        const owner =
          model.ownerColumn === 'unit_id' ? { unit_id: call.row.unitId ?? call.actor.unitId, area_code: call.row.areaCode ?? call.actor.areaCode } : model.ownerColumn ? { area_code: call.row.areaCode ?? call.actor.areaCode } : {};
        await insertRow(call.trx, model, { ...columnsOf(model, { ...values, ...derived }), ...owner, ...(model.workflow ? { status: model.workflow.initial } : {}), id, created_by: call.actor.userId, updated_by: call.actor.userId });
        return id;
      },
    };
    Object.assign(merged, (await hook(ctx)) ?? {});
  }
  return merged;
}

/** Next value of a named counter (created at 1), atomic across concurrent transactions. */
export async function nextSequence(trx: AnyDb, key: string): Promise<number> {
  const { rows } = await sql<{ value: number }>`
    INSERT INTO app_sequence (key, value) VALUES (${key}, 1)
    ON CONFLICT (key) DO UPDATE SET value = app_sequence.value + 1
    RETURNING value`.execute(trx);
  return rows[0].value;
}
