/**
 * Calendar dates as `YYYY-MM-DD` strings, and relative dates: `today`, `today+30d`, `today-1m`,
 * `today+2y`. Screens use relative dates in fixed list filters and filter defaults ("due within 30
 * days"); the server resolves them at query time, the browser for display. "Today" is the date in
 * the portal's time zone (China Standard Time), not the machine's.
 *
 * The clock is read in one place, `new Date()` as todayIn's and hourIn's default; everything else
 * takes `today` as a parameter defaulting to todayIn(). A caller may pass an instant or a date; a
 * test pins the clock with vitest's fake Date (tests/support/clock.ts).
 */
export const PORTAL_TIME_ZONE = 'Asia/Shanghai';

/** `today`, optionally followed by a signed amount of days, months or years. */
export const RELATIVE_DATE = /^today(?:([+-])(\d{1,4})([dmy]))?$/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Today's date in `timeZone` (default: the portal's), as `YYYY-MM-DD`. */
export function todayIn(timeZone = PORTAL_TIME_ZONE, now = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The hour (0–23) in `timeZone` (default: the portal's): a greeting agrees with the portal's today. */
export function hourIn(timeZone = PORTAL_TIME_ZONE, now = new Date()): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
}

/**
 * `date` plus `amount` days, months or years. Months and years keep the day of the month where it
 * exists and otherwise take the month's last day (2026-01-31 + 1m = 2026-02-28), like dayjs.
 */
export function addToDate(date: string, amount: number, unit: 'd' | 'm' | 'y'): string {
  const [y, m, d] = date.split('-').map(Number);
  if (unit === 'd') {
    const t = new Date(Date.UTC(y, m - 1, d + amount));
    return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  }
  const months = unit === 'y' ? amount * 12 : amount;
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, last))}`;
}

/** Calendar days from `from` to `to` (YYYY-MM-DD each): negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Whether `value` is a relative date token. */
export const isRelativeDate = (value: unknown): value is string => typeof value === 'string' && RELATIVE_DATE.test(value);

/** A relative date token resolved against `today`; any other value is returned unchanged. */
export function resolveRelativeDate<T>(value: T, today = todayIn()): T | string {
  if (typeof value !== 'string') return value;
  const match = RELATIVE_DATE.exec(value);
  if (!match) return value;
  const [, sign, amount, unit] = match;
  return sign ? addToDate(today, (sign === '-' ? -1 : 1) * Number(amount), unit as 'd' | 'm' | 'y') : today;
}
