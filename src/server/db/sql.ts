/** Small SQL helpers shared by query code. */
import { AppError } from '../errors';

/** Escapes `%`, `_` and `\` so user input matches literally inside a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%value%` for a case-insensitive "contains" filter. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}

/**
 * Row offset of a 1-based page. The page schemas bound both numbers (validation/bounds.ts); a
 * caller that skipped them still gets a refusal (400), not an offset the database rejects.
 */
export function pageOffset(pageNo: number, pageSize: number): number {
  const offset = (pageNo - 1) * pageSize;
  if (!Number.isSafeInteger(offset) || offset < 0 || !Number.isSafeInteger(pageSize) || pageSize < 1) throw new AppError('BAD_REQUEST');
  return offset;
}
