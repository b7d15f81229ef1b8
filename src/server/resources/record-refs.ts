/**
 * References in a save body: each must name a record the actor may see (checkRefs), and the `copy`
 * fields of a reference the body leaves out are taken from the chosen record (fillCopies).
 */
import { copyPairs } from '../../schema/model';
import { isId } from '../db/ids';
import { AppError } from '../errors';
import { maskedValues } from './masking';
import type { ResourceModel } from './model';
import { findRow, type AnyDb, type Row, type Values } from './repository';
import { visibleRows, type Actor } from './scope';
import type { CompiledResource } from './records';

/**
 * A reference names a record the actor may see: a ref field (of the record or of a sub-table row)
 * pointing at another unit's row, or at none, is refused like a missing record, naming the field.
 */
export async function checkRefs(trx: AnyDb, compiled: CompiledResource, model: ResourceModel, actor: Actor, body: Record<string, unknown>): Promise<void> {
  for (const f of model.writable) {
    const id = body[f.name];
    if (f.type !== 'ref' || typeof id !== 'string' || id === '') continue;
    const target = compiled.runtime.models.get(f.field.ref ?? '');
    if (!target) continue;
    if (!(await findRow(trx, target, id, visibleRows(target, actor))))
      throw new AppError('VALIDATION_FAILED', `${f.label}不存在或不属于本单位`, { field: f.name });
  }
  for (const link of model.children) {
    const rows = body[link.name];
    if (Array.isArray(rows))
      for (const row of rows) if (row && typeof row === 'object') await checkRefs(trx, compiled, link.model, actor, row as Record<string, unknown>);
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
export async function fillCopies(
  db: AnyDb,
  compiled: CompiledResource,
  model: ResourceModel,
  actor: Actor,
  body: Record<string, unknown>,
  stored: () => Promise<Row | undefined>,
): Promise<void> {
  for (const f of model.writable) {
    const id = body[f.name];
    if (f.type !== 'ref' || typeof id !== 'string' || !isId(id)) continue;
    const target = compiled.runtime.models.get(f.field.ref ?? '');
    const pairs = copyPairs(f.field).filter(([here]) => model.byName.get(here)?.writable);
    const missing = pairs.filter(([here]) => body[here] === undefined);
    // A masked value copied from a list row (the chosen record's field has a `mask`) is the chosen record's real value.
    const masked = pairs.filter(([here, there]) => typeof body[here] === 'string' && body[here].includes('*') && target?.byName.get(there)?.mask);
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
    for (const row of rows)
      if (row && typeof row === 'object' && !Array.isArray(row))
        await fillCopies(db, compiled, link.model, actor, row as Record<string, unknown>, async () => undefined);
  }
}

/**
 * The `copy` targets that are readonly fields: the server's own snapshot of the chosen record, taken
 * at every save that sets or changes the reference (a request cannot set them; none when the actor
 * may not read the record, which checkRefs refuses anyway). Put in the body, so derive hooks and
 * requirements see them; returned as column values to write, since the body's readonly values are not.
 */
export async function serverCopies(
  trx: AnyDb,
  compiled: CompiledResource,
  model: ResourceModel,
  actor: Actor,
  body: Record<string, unknown>,
  before: Row | undefined,
): Promise<Values> {
  const values: Values = {};
  for (const f of model.writable) {
    if (f.type !== 'ref' || !(f.name in body) || (before && before[f.name] === body[f.name])) continue;
    const pairs = copyPairs(f.field).filter(([here]) => model.resource.fields[here] && !model.byName.get(here)?.writable);
    if (pairs.length === 0) continue;
    const id = body[f.name];
    const target = compiled.runtime.models.get(f.field.ref ?? '');
    const chosen = target && typeof id === 'string' && isId(id) ? await findRow(trx, target, id, visibleRows(target, actor)) : undefined;
    for (const [here, there] of pairs) {
      body[here] = chosen?.[there] ?? null;
      values[model.byName.get(here)!.column] = body[here];
    }
  }
  return values;
}

/** The row an update names, read once and only when asked (undefined for a new row or an id the actor cannot see). */
export function storedRow(db: AnyDb, model: ResourceModel, actor: Actor, id: unknown): () => Promise<Row | undefined> {
  let read: Promise<Row | undefined> | undefined;
  return () => (read ??= isId(id) ? findRow(db, model, id, visibleRows(model, actor)) : Promise.resolve(undefined));
}
