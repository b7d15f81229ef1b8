import { createHash, randomBytes } from 'node:crypto';

/** A new random 32-hex id (SPEC.md §9), also used for session and captcha tokens. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** A stable 32-hex id derived from a name, for seed rows that must be the same on every run. */
export function stableId(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 32);
}

const ID_PATTERN = /^[0-9a-f]{32}$/;

/** Whether a value has the shape of an id or token from `newId()`. */
export function isId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
