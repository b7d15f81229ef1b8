/**
 * Field masking of personal data (the field keyword `mask`): lists, exports, reference labels and
 * answers show a masked value, computed in SQL from the stored one (model.ts reads it through
 * maskSql), so a page's JSON text never holds the whole value. The detail and edit views (`get`)
 * show the whole value to the record's owner and to the role types the field's `mask.roles` names;
 * such a read of a record the actor does not own is written to the audit log (`view-unmasked`). A
 * save that sends a masked value back unchanged keeps the stored one (restoreMasked).
 *
 * The patterns (`$defs.maskPattern` of the resource meta-schema):
 *   idCard       330203********1234   first 6 and last 4 kept
 *   mobile       138****5678          first 3 and last 4
 *   phone        a mobile as mobile; a landline with its area code and last 4: 0574-****4321
 *   bankAccount  ************1234     last 4
 *   name         张**                  first character
 * A value too short to keep those parts is all `*`; null and '' stay as they are.
 */
import { sql } from 'kysely';
import type { Field, MaskPattern } from '../../schema/generated/resource';
import type { FieldChange } from './changes';
import { appendAudit } from './audit';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import type { AnyDb, Row } from './repository';
import { ownsRow, type Actor } from './scope';

export const MASK_PATTERNS: readonly MaskPattern[] = ['idCard', 'mobile', 'phone', 'bankAccount', 'name'];

/** The audit operation of a read that showed a record's masked fields whole to someone who does not own it. */
export const UNMASKED_READ = 'view-unmasked';

export interface MaskRule {
  pattern: MaskPattern;
  /** Role types that see the whole value in the detail and edit views (besides the owner). */
  roles: readonly string[];
}

/** The field's mask, the string shorthand expanded; undefined when it has none. */
export function maskOf(field: Pick<Field, 'mask'>): MaskRule | undefined {
  const mask = field.mask;
  if (mask === undefined) return undefined;
  return typeof mask === 'string' ? { pattern: mask, roles: [] } : { pattern: mask.pattern, roles: mask.roles ?? [] };
}

/** `*` for every character beyond `head` and `tail`, all of them when the value is not longer than both. */
const keep = (c: string, head: number, tail: number): string => {
  const parts = [head > 0 ? `left(${c}, ${head})` : '', `repeat('*', length(${c}) - ${head + tail})`, tail > 0 ? `right(${c}, ${tail})` : ''].filter(Boolean);
  return `CASE WHEN length(${c}) > ${head + tail} THEN ${parts.join(' || ')} ELSE repeat('*', length(${c})) END`;
};

/** The SQL expression showing the value of expression `c` masked by `pattern` (null stays null). */
export function maskSql(pattern: MaskPattern, c: string): string {
  switch (pattern) {
    case 'idCard':
      return keep(c, 6, 4);
    case 'mobile':
      return keep(c, 3, 4);
    case 'bankAccount':
      return keep(c, 0, 4);
    case 'name':
      return keep(c, 1, 0);
    case 'phone': {
      const dash = `strpos(${c}, '-')`;
      return `CASE WHEN ${c} ~ '^1[3-9][0-9]{9}$' THEN ${keep(c, 3, 4)} WHEN ${dash} > 1 AND ${dash} <= length(${c}) - 5 THEN left(${c}, ${dash}) || repeat('*', length(${c}) - ${dash} - 4) || right(${c}, 4) ELSE ${keep(c, 3, 4)} END`;
    }
  }
}

/** `*` for every character beyond `head` and `tail` (the SQL of `keep`, in JavaScript; characters, not UTF-16 units). */
function keepText(value: string, head: number, tail: number): string {
  const chars = Array.from(value);
  if (chars.length <= head + tail) return '*'.repeat(chars.length);
  return chars.slice(0, head).join('') + '*'.repeat(chars.length - head - tail) + (tail > 0 ? chars.slice(-tail).join('') : '');
}

/** `value` masked by `pattern`, as maskSql masks it in the database (texts that record a change: changes.ts, audit.ts). */
export function maskText(pattern: MaskPattern, value: string): string {
  switch (pattern) {
    case 'idCard':
      return keepText(value, 6, 4);
    case 'mobile':
      return keepText(value, 3, 4);
    case 'bankAccount':
      return keepText(value, 0, 4);
    case 'name':
      return keepText(value, 1, 0);
    case 'phone': {
      const chars = Array.from(value);
      const dash = chars.indexOf('-') + 1;
      if (/^1[3-9][0-9]{9}$/.test(value) || dash <= 1 || dash > chars.length - 5) return keepText(value, 3, 4);
      return chars.slice(0, dash).join('') + '*'.repeat(chars.length - dash - 4) + chars.slice(-4).join('');
    }
  }
}

/** The text of a field's value as a change record shows it: masked when the field has a mask. */
export function shownText(field: Pick<Field, 'mask'>, text: string): string {
  const mask = maskOf(field);
  return mask && text !== '' ? maskText(mask.pattern, text) : text;
}

/** A column's read expression with its field's mask applied, when it has one. */
export const maskedColumn = (f: Pick<FieldModel, 'mask'>, expression: string): string => (f.mask ? maskSql(f.mask.pattern, expression) : expression);

/** The masked values of a stored row's masked fields (undefined: no such row). */
export async function maskedValues(db: AnyDb, model: ResourceModel, id: string): Promise<Row | undefined> {
  if (model.masked.length === 0) return {};
  const list = model.masked.map((f) => `${maskSql(f.mask!.pattern, quote(f.column))} AS ${quote(f.name)}`).join(', ');
  const { rows } = await sql<Row>`SELECT ${sql.raw(list)} FROM ${sql.raw(quote(model.table))} WHERE id = ${id}`.execute(db);
  return rows[0];
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
    await appendAudit(db, { userId: actor.userId, userName: actor.userName, unitId: actor.unitId, areaCode: actor.areaCode, resource: model.name, recordId: row.id as string, operation: UNMASKED_READ, changes });
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
