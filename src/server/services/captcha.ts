/**
 * Image captchas: the answer is stored in `sys_captcha` under a random id that the browser holds in
 * an httpOnly cookie. Each answer is checked at most once and expires after 5 minutes. The store is
 * capped: past `cap` unexpired captchas the oldest are dropped, so a flood of image requests (they
 * need no session) cannot grow the table; the route also limits images per IP.
 */
import type { Db } from '../db/index';
import { isId, newId } from '../db/ids';

export const CAPTCHA_COOKIE = 'captchaId';
export const CAPTCHA_TTL_MS = 5 * 60_000;

export interface Captcha {
  id: string;
  svg: string;
}

/** Creates a captcha, replacing the browser's previous one, and clears expired ones and those over the cap. */
export async function createCaptcha(db: Db, cap: number, previousId?: string): Promise<Captcha> {
  // Loaded on the first image: its font and drawing code are ~2 MB of heap an idle server never needs.
  const { default: svgCaptcha } = await import('svg-captcha');
  const { data, text } = svgCaptcha.create({ size: 4, noise: 3, color: true, ignoreChars: '0oO1iIlL', width: 120, height: 40, background: '#f5f7fa' });
  const id = newId();
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('sys_captcha')
      .where((eb) => eb.or([eb('expires_at', '<', new Date(now)), ...(previousId ? [eb('id', '=', previousId)] : [])]))
      .execute();
    await trx
      .insertInto('sys_captcha')
      .values({ id, text: text.toLowerCase(), expires_at: new Date(now + CAPTCHA_TTL_MS) })
      .execute();
    // The newest `cap` survive (read through the expires_at index, so the cost is bounded by the cap).
    const oldestKept = await trx
      .selectFrom('sys_captcha')
      .select('expires_at')
      .orderBy('expires_at', 'desc')
      .offset(cap - 1)
      .limit(1)
      .executeTakeFirst();
    if (oldestKept) await trx.deleteFrom('sys_captcha').where('expires_at', '<', oldestKept.expires_at).execute();
  });
  return { id, svg: data };
}

/** Consumes the captcha (single use) and tells whether `answer` matches, ignoring case. */
export async function consumeCaptcha(db: Db, id: string | undefined, answer: string | undefined): Promise<boolean> {
  if (!isId(id)) return false;
  const row = await db.deleteFrom('sys_captcha').where('id', '=', id).returning(['text', 'expires_at']).executeTakeFirst();
  if (!row || row.expires_at.getTime() <= Date.now()) return false;
  return (answer ?? '').trim().toLowerCase() === row.text;
}

/** Deletes expired captchas (the housekeeping job; creating one also clears them). */
export async function pruneCaptchas(db: Db, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('sys_captcha').where('expires_at', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
