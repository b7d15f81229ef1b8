/**
 * External-link tokens: what a link to an outside system (a menu item with `hrefAppend`) carries
 * instead of the portal session, so the session token never leaves the portal. A token is signed
 * (signed-token.ts, the crypto suite's HMAC under a key derived from the server's SSO secret for
 * this purpose only), names the user and the link, lives 5 minutes and redeems once: its digest
 * (tokenDigest) is a row of `sys_link_token`, and the redeem marks it used in one conditional
 * update, so two processes (or two concurrent calls) cannot both redeem it. The housekeeping job
 * deletes rows once they expire.
 *
 *   const token = await issueLinkToken(db, key, userId, 'gasCylinder');
 *   const { userId, link } = await redeemLinkToken(db, key, token);   // throws LINK_TOKEN_*
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index';
import { AppError, defineErrors } from '../errors';
import { deriveKey, keyedDigest, tokenDigest, type CryptoMode } from './crypto-suite';
import { readClaims, signClaims, type Mac } from './signed-token';

declare module '../db/schema' {
  interface Database {
    sys_link_token: LinkTokenTable;
  }
}

export interface LinkTokenTable {
  digest: string;
  user_id: string;
  link: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date | string | undefined;
}

export const LINK_ERRORS = defineErrors({
  /** A link name the configuration does not have (or no menu item opens with an identity). */
  LINK_UNKNOWN: { status: 400, message: '该外部服务不存在或尚未配置' },
  /** Not a token this portal signed (altered, truncated, another kind). */
  LINK_TOKEN_INVALID: { status: 401, message: '访问凭证无效' },
  /** Past its 5 minutes. */
  LINK_TOKEN_EXPIRED: { status: 401, message: '访问凭证已过期，请从平台重新打开' },
  /** Redeemed before: a token is good once. */
  LINK_TOKEN_USED: { status: 401, message: '访问凭证已使用，请从平台重新打开' },
});

export const LINK_TOKEN_TTL_SECONDS = 300;

/** What signs and stores link tokens: the crypto mode and the purpose key. */
export interface LinkKey {
  mode: CryptoMode;
  key: Buffer;
}

/** The link-token key: derived from the SSO secret for this purpose, so neither kind of token passes as the other. */
export function linkKey(mode: CryptoMode, ssoSecret: Buffer): LinkKey {
  return { mode, key: deriveKey(ssoSecret, 'external-link')! };
}

const macOf =
  ({ mode, key }: LinkKey): Mac =>
  (payload) =>
    Buffer.from(keyedDigest(mode, key, payload), 'hex');

export async function issueLinkToken(db: Db, key: LinkKey, userId: string, link: string, now = Date.now()): Promise<string> {
  const exp = Math.floor(now / 1000) + LINK_TOKEN_TTL_SECONDS;
  const token = signClaims({ sub: userId, link, exp, nonce: randomBytes(16).toString('base64url') }, macOf(key));
  await db
    .insertInto('sys_link_token')
    .values({ digest: tokenDigest(key.mode, token), user_id: userId, link, expires_at: new Date(exp * 1000), used_at: null, created_at: new Date(now) })
    .execute();
  return token;
}

/** The user and link of a token, which is used up by this call; throws LINK_TOKEN_INVALID / _EXPIRED / _USED. */
export async function redeemLinkToken(db: Db, key: LinkKey, token: unknown, now = Date.now()): Promise<{ userId: string; link: string }> {
  const claims = typeof token === 'string' && token.length <= 1024 ? readClaims(token, macOf(key)) : null;
  if (!claims || typeof claims.sub !== 'string' || typeof claims.link !== 'string' || typeof claims.exp !== 'number')
    throw new AppError(LINK_ERRORS.LINK_TOKEN_INVALID);
  if (claims.exp * 1000 <= now) throw new AppError(LINK_ERRORS.LINK_TOKEN_EXPIRED);
  const digest = tokenDigest(key.mode, token as string);
  const at = new Date(now);
  const used = await db
    .updateTable('sys_link_token')
    .set({ used_at: at })
    .where('digest', '=', digest)
    .where('used_at', 'is', null)
    .where('expires_at', '>', at)
    .returning(['user_id', 'link'])
    .executeTakeFirst();
  if (used && used.user_id === claims.sub && used.link === claims.link) return { userId: used.user_id, link: used.link };
  const row = await db.selectFrom('sys_link_token').select('used_at').where('digest', '=', digest).executeTakeFirst();
  throw new AppError(row?.used_at ? LINK_ERRORS.LINK_TOKEN_USED : LINK_ERRORS.LINK_TOKEN_INVALID);
}

/** Deletes tokens past their expiry (a used or unused one is refused by its signed expiry from then on). */
export async function pruneLinkTokens(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('sys_link_token').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
