/** Small SQL helpers shared by query code. */

/** Escapes `%`, `_` and `\` so user input matches literally inside a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** `%value%` for a case-insensitive "contains" filter. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}

/** Row offset of a 1-based page. */
export function pageOffset(pageNo: number, pageSize: number): number {
  return (pageNo - 1) * pageSize;
}
