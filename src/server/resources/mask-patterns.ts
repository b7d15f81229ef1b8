/**
 * The mask patterns of personal data (the field keyword `mask`) as pure functions: the SQL
 * expression that masks a column (maskSql) and the same in JavaScript (maskText). No imports from
 * the resource layer, so the model, change records and the audit log can all use it; reading,
 * presenting and restoring masked rows is masking.ts.
 *
 * The patterns (`$defs.maskPattern` of the resource meta-schema):
 *   idCard       330203********1234   first 6 and last 4 kept
 *   mobile       138****5678          first 3 and last 4
 *   phone        a mobile as mobile; a landline with its area code and last 4: 0574-****4321
 *   bankAccount  ************1234     last 4
 *   name         张**                  first character
 * A value too short to keep those parts is all `*`; null and '' stay as they are.
 */
import type { Field, MaskPattern } from '../../schema/generated/resource';

export const MASK_PATTERNS: readonly MaskPattern[] = ['idCard', 'mobile', 'phone', 'bankAccount', 'name'];

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
export const maskedColumn = (f: { mask?: MaskRule }, expression: string): string => (f.mask ? maskSql(f.mask.pattern, expression) : expression);
