import { readCookie, writeCookie } from '../../app/cookies';

/** As in the original portal: the usual-person cookie (last account and org code) lives 10 days. */
const COOKIE = 'portal.usualUser';
const DAYS = 10;

export interface RememberedAccount {
  username: string;
  orgCode: string;
}

export function readRememberedAccount(): RememberedAccount | null {
  try {
    const raw = readCookie(COOKIE);
    return raw ? (JSON.parse(raw) as RememberedAccount) : null;
  } catch {
    return null;
  }
}

export function rememberAccount(account: RememberedAccount): void {
  writeCookie(COOKIE, JSON.stringify(account), DAYS);
}
