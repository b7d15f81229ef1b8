/** Reading one cell of an imported sheet into a save body's value (dates, numbers, booleans, codes by code or label). */
import type ExcelJS from 'exceljs';
import type { FieldModel } from '../model';

// Cells

/** The template's notes sheet (its code tables are what a coded cell may hold). */
export const NOTES_SHEET = '说明';

export type Plain = string | number | boolean | Date | null;

/** A cell's value without exceljs's wrappers (rich text, formulas, hyperlinks); undefined for an error cell. */
export function plainValue(value: ExcelJS.CellValue): Plain | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('error' in value) return undefined;
  if ('formula' in value || 'sharedFormula' in value) {
    const result = (value as { result?: unknown }).result;
    if (result === undefined || result === null) return null;
    if (typeof result === 'object' && !(result instanceof Date)) return undefined; // an error result
    return result as Plain;
  }
  if ('hyperlink' in value) return String((value as { text?: unknown }).text ?? value.hyperlink);
  return null;
}

export const isBlank = (value: Plain | undefined) => value === null || (typeof value === 'string' && value.trim() === '');

export const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of y/m/d, or undefined when that day does not exist. */
export function isoDate(y: number, m: number, d: number): string | undefined {
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
}

/** Days between Excel's epoch (1899-12-30) and 1970-01-01. */
export const EXCEL_EPOCH_DAYS = 25569;
export const DAY_MS = 86_400_000;

/** An Excel date cell (exceljs: the day at UTC midnight), a serial number, or text as `YYYY-MM-DD`. */
export function toDate(value: Plain): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : isoDate(value.getUTCFullYear(), value.getUTCMonth() + 1, value.getUTCDate());
  if (typeof value === 'number') {
    if (value < 1 || value > 2_958_465) return undefined; // 1900-01-01 .. 9999-12-31
    const t = new Date(Math.round((value - EXCEL_EPOCH_DAYS) * DAY_MS));
    return isoDate(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());
  }
  const match = /^(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(String(value).trim());
  return match ? isoDate(Number(match[1]), Number(match[2]), Number(match[3])) : undefined;
}

/**
 * An Excel date-time (wall-clock time of the server, as the export writes it) or text
 * `YYYY-MM-DD HH:mm[:ss]`, as an ISO instant.
 */
export function toDateTime(value: Plain): string | undefined {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    return new Date(
      value.getUTCFullYear(),
      value.getUTCMonth(),
      value.getUTCDate(),
      value.getUTCHours(),
      value.getUTCMinutes(),
      value.getUTCSeconds(),
    ).toISOString();
  }
  const match = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(String(value).trim());
  if (!match) return undefined;
  const [y, m, d, h = '0', mi = '0', s = '0'] = match.slice(1);
  if (!isoDate(Number(y), Number(m), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  return new Date(Number(y), Number(m) - 1, Number(d), Number(h), Number(mi), Number(s)).toISOString();
}

export function toNumber(value: Plain): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim().replace(/,/g, '');
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return undefined;
  return Number(text);
}

export const TRUE_TEXT = new Set(['是', 'y', 'yes', 'true', '1', '√']);
export const FALSE_TEXT = new Set(['否', 'n', 'no', 'false', '0', '×']);

export function toBoolean(value: Plain): boolean | undefined {
  if (typeof value === 'boolean') return value;
  const text = String(value).trim().toLowerCase();
  if (TRUE_TEXT.has(text)) return true;
  if (FALSE_TEXT.has(text)) return false;
  return undefined;
}

/** Text of a cell for a text field: numbers without exponent, dates as YYYY-MM-DD. */
export function toText(value: Plain): string {
  if (value instanceof Date) return toDate(value) ?? '';
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) >= 1e21 ? BigInt(value).toString() : String(value);
  if (typeof value === 'boolean') return value ? '是' : '否';
  return String(value).trim();
}

/** Code of a dictionary entry given as its code or its label; an error message otherwise. */
export interface CodeLookup {
  codes: ReadonlySet<string>;
  /** Label → codes (a label may name several entries of a tree). */
  byLabel: ReadonlyMap<string, readonly string[]>;
}

export function lookupOf(f: FieldModel, labels: ReadonlyMap<string, string> | undefined): CodeLookup {
  const byLabel = new Map<string, string[]>();
  for (const [code, label] of labels ?? []) byLabel.set(label, [...(byLabel.get(label) ?? []), code]);
  return { codes: new Set(f.codes ?? []), byLabel };
}

export function toCode(text: string, lookup: CodeLookup): { code: string } | { error: string } {
  if (lookup.codes.has(text)) return { code: text };
  const codes = lookup.byLabel.get(text);
  if (codes?.length === 1) return { code: codes[0] };
  if (codes && codes.length > 1) return { error: `“${text}”对应多个选项，请填写代码` };
  return { error: `“${text}”不是有效的选项，请填写代码或名称（见“${NOTES_SHEET}”工作表）` };
}

export type Parsed = { value: unknown } | { error: string };

/** The body value of one non-blank cell of a field. */
export function parseCell(f: FieldModel, value: Plain, lookup: CodeLookup | undefined): Parsed {
  switch (f.kind) {
    case 'string': {
      const text = toText(value);
      if (!lookup) return { value: text };
      const found = toCode(text, lookup);
      return 'error' in found ? found : { value: found.code };
    }
    case 'codes': {
      const parts = toText(value)
        .split(/[、,，;；\n]+/)
        .map((p) => p.trim())
        .filter(Boolean);
      const codes: string[] = [];
      for (const part of parts) {
        const found = lookup ? toCode(part, lookup) : { code: part };
        if ('error' in found) return found;
        codes.push(found.code);
      }
      return { value: codes };
    }
    case 'integer':
    case 'number': {
      const n = toNumber(value);
      if (n === undefined) return { error: f.kind === 'integer' ? '请填写整数' : '请填写数字' };
      return { value: n };
    }
    case 'boolean': {
      const b = toBoolean(value);
      return b === undefined ? { error: '请填写“是”或“否”' } : { value: b };
    }
    case 'date': {
      const d = toDate(value);
      return d === undefined ? { error: '请填写有效的日期，格式为 YYYY-MM-DD' } : { value: d };
    }
    case 'datetime': {
      const d = toDateTime(value);
      return d === undefined ? { error: '请填写有效的日期时间，格式为 YYYY-MM-DD HH:mm:ss' } : { value: d };
    }
    case 'json':
      return { value: undefined };
  }
}
