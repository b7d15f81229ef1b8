/**
 * Signed tokens: `base64url(JSON claims) + "." + base64url(MAC(payload))`. The MAC is the caller's
 * (the SSO token's HMAC-SHA-256 under the SSO secret, the external-link token's HMAC of the crypto
 * suite under its own derived key), so a token of one kind never passes as the other.
 */
import { timingSafeEqual } from 'node:crypto';

/** The MAC of a payload under the caller's key. */
export type Mac = (payload: string) => Buffer;

export function signClaims(claims: object, mac: Mac): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(payload).toString('base64url')}`;
}

/** The claims object of a well-signed token (expiry and fields are the caller's to check); null otherwise. */
export function readClaims(token: string, mac: Mac): Record<string, unknown> | null {
  const [payload, signature, ...rest] = token.trim().split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = mac(payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    return claims && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
