/**
 * Field masking of personal data (the field keyword `mask`): lists, exports, reference labels and
 * answers show a masked value, computed in SQL from the stored one (model.ts reads it through
 * maskSql), so a page's JSON text never holds the whole value. The detail and edit views (`get`)
 * show the whole value to the record's owner and to the role types the field's `mask.roles` names;
 * such a read of a record the actor does not own is written to the audit log (`view-unmasked`). A
 * save that sends a masked value back unchanged keeps the stored one (restoreMasked).
 * The patterns themselves are mask-patterns.ts. Fields stored encrypted (sealed-fields.ts, sm mode)
 * cannot be masked in SQL: they are read as stored, opened and masked in JavaScript by maskText,
 * which masks exactly as maskSql does.
 */
import { sql } from 'kysely';
import type { FieldChange } from './changes';
import { appendAudit } from './audit';
import { maskSql } from './mask-patterns';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import type { AnyDb, Row } from './repository';
import { openRows } from './sealed-fields';
import { ownsRow, type Actor } from './scope';

/** The audit operation of a read that showed a record's masked fields whole to someone who does not own it. */
export const UNMASKED_READ = 'view-unmasked';

/** The masked values of a stored row's masked fields (undefined: no such row). */
export async function maskedValues(db: AnyDb, model: ResourceModel, id: string): Promise<Row | undefined> {
  if (model.masked.length === 0) return {};
  const list = model.masked.map((f) => `${f.sealed ? quote(f.column) : maskSql(f.mask!.pattern, quote(f.column))} AS ${quote(f.name)}`).join(', ');
  const { rows } = await sql<Row>`SELECT ${sql.raw(list)} FROM ${sql.raw(quote(model.table))} WHERE id = ${id}`.execute(db);
  return openRows(model, rows, true)[0];
}

/** The masked fields `actor` sees whole on `row`: all of them for its owner, else those whose mask names its role type. */
function unmaskedFor(model: ResourceModel, actor: Actor, row: Row, detail: boolean): { fields: readonly FieldModel[]; owner: boolean } {
  if (ownsRow(model, actor, row)) return { fields: model.masked, owner: true };
  if (!detail || !actor.roleType) return { fields: [], owner: false };
  return { fields: model.masked.filter((f) => f.mask!.roles.includes(actor.roleType!)), owner: false };
}

/**
 * A stored row (read whole) as `actor` may see it. `detail`: the detail and edit views, where the
 * role types named by `mask.roles` see the whole value too, and such a read of a record the actor
 * does not own is audited; elsewhere (answers of saves and actions) only the owner does.
 */
export async function presentRow(db: AnyDb, model: ResourceModel, actor: Actor, row: Row, detail = false): Promise<Row> {
  if (model.masked.length === 0) return row;
  const { fields, owner } = unmaskedFor(model, actor, row, detail);
  if (fields.length < model.masked.length) {
    const masked = (await maskedValues(db, model, row.id as string)) ?? {};
    for (const f of model.masked) if (!fields.includes(f)) row[f.name] = masked[f.name] ?? null;
  }
  const shown = fields.filter((f) => row[f.name] !== null && row[f.name] !== undefined && row[f.name] !== '');
  if (!owner && shown.length > 0) {
    const changes: FieldChange[] = shown.map((f) => ({ field: f.name, label: f.label, from: '', to: '' }));
    await appendAudit(db, {
      userId: actor.userId,
      userName: actor.userName,
      unitId: actor.unitId,
      areaCode: actor.areaCode,
      resource: model.name,
      recordId: row.id as string,
      operation: UNMASKED_READ,
      changes,
    });
  }
  return row;
}

/**
 * The masked fields of a save body that carry the masked text of the stored value (a form showing
 * masked values, sent back unchanged) take the stored value again, so a save never writes a mask
 * over the real value. `stored` is the row being updated, read whole.
 */
export async function restoreMasked(db: AnyDb, model: ResourceModel, body: Record<string, unknown>, stored: Row | undefined): Promise<void> {
  if (!stored || model.masked.length === 0) return;
  const sent = model.masked.filter((f) => typeof body[f.name] === 'string' && (body[f.name] as string).includes('*') && body[f.name] !== stored[f.name]);
  if (sent.length === 0) return;
  const masked = await maskedValues(db, model, stored.id as string);
  for (const f of sent) if (masked && body[f.name] === masked[f.name]) body[f.name] = stored[f.name];
}
