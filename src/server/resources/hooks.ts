/**
 * Server hooks: named code for what a resource's JSON cannot say, registered by the domain features
 * (src/server/domain/<feature>/hooks.ts) and named from the JSON:
 *
 *   resource `derive: ["name"]`            runs on every save (insert or update) after validation,
 *                                          with the row as it will be; returns readonly field values
 *   workflow action `effects: ["name"]`    runs after the action's state change; may return field
 *                                          values of the row and touch other records through `ctx`
 *   resource `onDelete: ["name"]`          runs after a delete removed the row (`row`: the removed
 *                                          row); touches other records through `ctx`, returns nothing
 *
 * All run inside the operation's transaction: a hook that throws (an AppError for the user) undoes
 * the whole operation. Values are by wire name (field names), never columns. writer.ts runs them.
 */
import { sql } from 'kysely';
import type { Catalog } from './catalog';
import type { ResourceModel } from './model';
import type { AnyDb, Row } from './repository';
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
  /** The workflow action (effects), 'save' (derive), or 'delete' (onDelete: `row` is the removed row). */
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

/** Next value of a named counter (created at 1), atomic across concurrent transactions. */
export async function nextSequence(trx: AnyDb, key: string): Promise<number> {
  const { rows } = await sql<{ value: number }>`
    INSERT INTO app_sequence (key, value) VALUES (${key}, 1)
    ON CONFLICT (key) DO UPDATE SET value = app_sequence.value + 1
    RETURNING value`.execute(trx);
  return rows[0].value;
}
