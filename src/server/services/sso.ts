/**
 * SSO tokens: `base64url(JSON {loginName, exp}) + "." + base64url(HMAC-SHA256(payload))`, signed with
 * the secret in `sys_config` (see server-keys.ts; the format is signed-token.ts). `exp` is in seconds
 * since the epoch. The outside identity provider is simulated by whoever holds the secret (tests,
 * `npm run admin -- sso-token --login <loginName>`).
 */
import { createHmac } from 'node:crypto';
import { readClaims, signClaims, type Mac } from './signed-token';

export interface SsoClaims {
  loginName: string;
  exp: number;
}

const DEFAULT_TTL_SECONDS = 300;

const macOf =
  (secret: Buffer): Mac =>
  (payload) =>
    createHmac('sha256', secret).update(payload).digest();

export function signSsoToken(secret: Buffer, loginName: string, ttlSeconds = DEFAULT_TTL_SECONDS, now = Date.now()): string {
  const claims: SsoClaims = { loginName, exp: Math.floor(now / 1000) + ttlSeconds };
  return signClaims(claims, macOf(secret));
}

/** The claims of a well-signed, unexpired token; null otherwise. */
export function verifySsoToken(secret: Buffer, token: string, now = Date.now()): SsoClaims | null {
  const claims = readClaims(token, macOf(secret));
  if (!claims || typeof claims.loginName !== 'string' || typeof claims.exp !== 'number') return null;
  if (claims.exp * 1000 <= now) return null;
  return { loginName: claims.loginName, exp: claims.exp };
}
