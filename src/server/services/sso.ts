/**
 * SSO tokens: `base64url(JSON {loginName, exp}) + "." + base64url(HMAC-SHA256(payload))`, signed with
 * the secret in `sys_config` (see server-keys.ts). `exp` is in seconds since the epoch. The
 * outside identity provider is simulated by whoever holds the secret (tests,
 * `npx tsx scripts/seed.ts --sso-token <loginName>`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface SsoClaims {
  loginName: string;
  exp: number;
}

const DEFAULT_TTL_SECONDS = 300;

function mac(secret: Buffer, payload: string): Buffer {
  return createHmac('sha256', secret).update(payload).digest();
}

export function signSsoToken(secret: Buffer, loginName: string, ttlSeconds = DEFAULT_TTL_SECONDS, now = Date.now()): string {
  const claims: SsoClaims = { loginName, exp: Math.floor(now / 1000) + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** The claims of a well-signed, unexpired token; null otherwise. */
export function verifySsoToken(secret: Buffer, token: string, now = Date.now()): SsoClaims | null {
  const [payload, signature, ...rest] = token.trim().split('.');
  if (!payload || !signature || rest.length > 0) return null;
  const expected = mac(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<SsoClaims>;
    if (typeof claims.loginName !== 'string' || typeof claims.exp !== 'number') return null;
    if (claims.exp * 1000 <= now) return null;
    return { loginName: claims.loginName, exp: claims.exp };
  } catch {
    return null;
  }
}
