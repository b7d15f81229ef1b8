/**
 * The algorithms that protect secrets, chosen once by PORTAL_CRYPTO: `standard` (SHA-256,
 * HMAC-SHA-256, AES-256-GCM) or `sm` (国密 SM3, HMAC-SM3, SM4). Node's OpenSSL provides SM3 and SM4;
 * SM2 (login fields) lives in server-keys.ts. Every caller hashes, keys and encrypts through here
 * so a mode switch changes all of them together.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export type CryptoMode = 'standard' | 'sm';

export function digestAlgorithm(mode: CryptoMode): 'sha256' | 'sm3' {
  return mode === 'sm' ? 'sm3' : 'sha256';
}

/** The hex digest of a token kept at rest instead of the token itself (sessions, links). */
export function tokenDigest(mode: CryptoMode, token: string): string {
  return createHash(digestAlgorithm(mode)).update(token, 'utf8').digest('hex');
}

/** Hex HMAC of `data` under `key` (HMAC-SHA-256 or HMAC-SM3). */
export function keyedDigest(mode: CryptoMode, key: Buffer, data: string | Buffer): string {
  return createHmac(digestAlgorithm(mode), key).update(data).digest('hex');
}

/** A 32-byte key for one purpose derived from the master key (HKDF-SHA-256); null without one. */
export function deriveKey(master: Buffer | null, purpose: string): Buffer | null {
  return master ? Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `portal:${purpose}`, 32)) : null;
}

const SEALED = 'sealed:';

/**
 * Encrypts `plain` under `key` for storage: `sealed:<mode>:<base64 iv|tag|ciphertext>`. Standard
 * mode is AES-256-GCM (authenticated); sm mode is SM4-CBC with an HMAC-SM3 tag over iv and
 * ciphertext (OpenSSL has no SM4-GCM in every build).
 */
export function seal(mode: CryptoMode, key: Buffer, plain: string): string {
  if (mode === 'sm') {
    const iv = randomBytes(16);
    const cipher = createCipheriv('sm4-cbc', key.subarray(0, 16), iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const tag = createHmac('sm3', key.subarray(16))
      .update(Buffer.concat([iv, body]))
      .digest();
    return `${SEALED}sm:${Buffer.concat([iv, tag, body]).toString('base64')}`;
  }
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${SEALED}standard:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

export function isSealed(value: string): boolean {
  return value.startsWith(SEALED);
}

/** The plain text of a sealed value (whichever mode sealed it); throws when the key is wrong or the value altered. */
export function unseal(key: Buffer, sealed: string): string {
  const rest = sealed.slice(SEALED.length);
  const colon = rest.indexOf(':');
  const mode = rest.slice(0, colon);
  const raw = Buffer.from(rest.slice(colon + 1), 'base64');
  if (mode === 'sm') {
    const [iv, tag, body] = [raw.subarray(0, 16), raw.subarray(16, 48), raw.subarray(48)];
    const expected = createHmac('sm3', key.subarray(16))
      .update(Buffer.concat([iv, body]))
      .digest();
    if (!expected.equals(tag)) throw new Error('sealed value does not match its key');
    const decipher = createDecipheriv('sm4-cbc', key.subarray(0, 16), iv);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
  if (mode !== 'standard') throw new Error(`unknown sealing mode ${mode}`);
  const [iv, tag, body] = [raw.subarray(0, 12), raw.subarray(12, 28), raw.subarray(28)];
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}
