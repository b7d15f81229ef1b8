import { createHash, randomFillSync } from 'node:crypto';

/**
 * Random bytes drawn from the operating system's CSPRNG 4 KiB at a time and handed out 16 at a
 * time, each byte once (what Node's randomUUID does): a bulk seed makes a million ids, and a
 * `randomBytes` call per id was a tenth of its CPU.
 */
const POOL = Buffer.alloc(4096);
let used = POOL.length;

/** A new random 32-hex id (as in the original portal), also used for session and captcha tokens. */
export function newId(): string {
  if (used + 16 > POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += 16;
  return POOL.toString('hex', used - 16, used);
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
