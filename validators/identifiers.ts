/**
 * Check algorithms of the national identifiers (GB 11643 ID card, GB 32100
 * unified social credit code, GB 11714 organisation code). Functions here take already-trimmed text and answer true/false or compute check
 * characters; the catalogue (index.ts) attaches the messages.
 */

// ---------------------------------------------------------------------------------------------
// Resident identity card (GB 11643): 17 digits + check character; digits 7–14 are the birth date.

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';
/** Earliest birth year accepted; anything older is a typo rather than a living card holder. */
const EARLIEST_BIRTH_YEAR = 1800;

/**
 * The calendar date of the instant `now` in China Standard Time (the portal's zone, whatever the
 * machine's), as UTC milliseconds of that day's midnight. Inlined because validators/ imports nothing.
 */
function chinaDay(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'));
}

/**
 * True when YYYYMMDD is a real calendar date (leap days included: 20000229 yes, 19000229 no)
 * that is not after the date in China at the instant `today` (a server whose zone is UTC still
 * accepts a person born today in China between 00:00 and 08:00 China time).
 */
export function isRealPastDate(yyyymmdd: string, today: Date = new Date()): boolean {
  if (!/^[0-9]{8}$/.test(yyyymmdd)) return false;
  const y = Number(yyyymmdd.slice(0, 4));
  const m = Number(yyyymmdd.slice(4, 6));
  const d = Number(yyyymmdd.slice(6, 8));
  if (y < EARLIEST_BIRTH_YEAR) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return false;
  return date.getTime() <= chinaDay(today);
}

/** The GB 11643 check character ('0'-'9' or 'X') of the first 17 digits. */
export function idCardCheckChar(first17: string): string {
  if (!/^[0-9]{17}$/.test(first17)) throw new Error(`not an identity-card prefix: ${first17}`);
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK_CHARS[sum % 11];
}

/** 18 characters, a real non-future birth date and the right check character (x or X). */
export function isValidIdCard(s: string, today?: Date): boolean {
  return /^[0-9]{17}[0-9Xx]$/.test(s) && isRealPastDate(s.slice(6, 14), today) && idCardCheckChar(s.slice(0, 17)) === s[17].toUpperCase();
}

/** The stored form of an identity-card number: trimmed, check character `X` upper-case. */
export function normalizeIdCard(value: string): string {
  return value.trim().toUpperCase();
}

// ---------------------------------------------------------------------------------------------
// Shared shape of the two unit codes: a weighted sum over a character set.

function weightedSum(chars: string, weights: readonly number[], text: string): number | undefined {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    const v = chars.indexOf(text[i]);
    if (v < 0) return undefined;
    sum += v * weights[i];
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------
// Unified social credit code (GB 32100): 18 characters, no I O S V Z.

const USCC_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The GB 32100 check character of the first 17 characters, or undefined if one is not allowed. */
export function unifiedCreditCodeCheckChar(first17: string): string | undefined {
  if (first17.length !== 17) return undefined;
  const sum = weightedSum(USCC_CHARS, USCC_WEIGHTS, first17);
  return sum === undefined ? undefined : USCC_CHARS[(31 - (sum % 31)) % 31];
}

/** Completes 17 characters with their check character (seed data, tests). */
export function makeUnifiedCreditCode(first17: string): string {
  const check = unifiedCreditCodeCheckChar(first17);
  if (check === undefined) throw new Error(`not a credit-code prefix: ${first17}`);
  return first17 + check;
}

/** Upper-case only, as issued: a lower-case code is a typing error the user should see. */
export function isValidUnifiedCreditCode(s: string): boolean {
  return s.length === 18 && unifiedCreditCodeCheckChar(s.slice(0, 17)) === s[17];
}

// ---------------------------------------------------------------------------------------------
// Organisation code (GB 11714): 8 characters + check, printed with or without a hyphen before it.

const ORG_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ORG_WEIGHTS = [3, 7, 9, 10, 5, 8, 4, 2];

/** The GB 11714 check character of the first 8 characters, or undefined if one is not allowed. */
export function orgCodeCheckChar(first8: string): string | undefined {
  if (first8.length !== 8) return undefined;
  const sum = weightedSum(ORG_CHARS, ORG_WEIGHTS, first8);
  if (sum === undefined) return undefined;
  const c = 11 - (sum % 11);
  return c === 10 ? 'X' : c === 11 ? '0' : String(c);
}

/** `D2143569X` or `D2143569-X`. */
export function isValidOrgCode(s: string): boolean {
  const m = /^([0-9A-Z]{8})-?([0-9X])$/.exec(s);
  return m !== null && orgCodeCheckChar(m[1]) === m[2];
}
