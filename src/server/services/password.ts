/**
 * Password hashing (scrypt, per-user salt); the password rules come from the shared validators/.
 * Stored format: `scrypt$N$r$p$<salt base64>$<hash base64>`.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { rules } from '../../../validators';

const KEY_LENGTH = 32;
const PARAMS = { N: 16384, r: 8, p: 1 };

function scryptAsync(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

async function hash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

interface ParsedHash {
  options: ScryptOptions;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): ParsedHash | null {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return null;
  const options = { N: Number(n), r: Number(r), p: Number(p) };
  if (![options.N, options.r, options.p].every((v) => Number.isInteger(v) && v > 0)) return null;
  const parsed = { options: { ...options, maxmem: 256 * options.N * options.r }, salt: Buffer.from(salt, 'base64'), key: Buffer.from(key, 'base64') };
  return parsed.key.length >= 16 ? parsed : null;
}

async function verify(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await scryptAsync(password, parsed.salt, parsed.key.length, parsed.options);
  return timingSafeEqual(key, parsed.key);
}

let dummy: Promise<string> | undefined;

/**
 * Password hashing, as an object so tests can observe calls. `dummyHash()` is a valid hash of a
 * random secret with the same cost: login verifies against it when the account does not exist, so
 * the reply takes the same time either way.
 */
export const passwordHasher = {
  hash,
  verify,
  dummyHash(): Promise<string> {
    dummy ??= hash(randomBytes(24).toString('base64'));
    return dummy;
  },
};

export { passwordStrength, SIMPLE_PASSWORD_THRESHOLD } from '../../../validators';

/** The original portal's password rule (the shared catalogue): 8–14 characters, at least 3 of the 4 classes. */
export function satisfiesPasswordRule(password: string): boolean {
  return password !== '' && rules.password(password) === undefined;
}
