/**
 * Which resource columns are encrypted at rest in sm mode, and the names and cipher interface the
 * model, the filters and sealed-fields.ts share. A leaf module (nothing from the resource layer),
 * so the model can ask without importing the code that seals and opens rows.
 */

export interface FieldCipher {
  /** The stored form of a plain value. */
  seal(plain: string): string;
  /** The plain value of a stored one; a value still in plain text comes back as it is. */
  open(stored: string): string;
  /** The blind index of a plain value (whole-value matches only). */
  index(plain: string): string;
}

/** The mask patterns whose columns are encrypted at rest in sm mode. */
const SEALED_PATTERNS: ReadonlySet<string> = new Set(['idCard', 'mobile']);

/** Whether a field's column is encrypted in sm mode (and typed `text` with a blind-index companion in every mode). */
export const sealable = (f: { declared: boolean; kind: string; mask?: { pattern: string } }): boolean =>
  f.declared && f.kind === 'string' && f.mask !== undefined && SEALED_PATTERNS.has(f.mask.pattern);

/** The column holding a sealed column's blind index. */
export const indexColumnOf = (column: string): string => `${column}__bidx`;
