/**
 * A pinned clock for date computations. Every "today" of the portal reads the machine's clock in one
 * place — `new Date()` in todayIn (src/shared/dates.ts), and in the validators' birth-date check —
 * so a test fixes it with vitest's fake Date: no parameter to thread through, and the defaults the
 * server and the forms use are the ones pinned. Only Date is faked: timers, promises and I/O run as
 * usual, so a pinned test may still wait on a database.
 */
import { afterAll, beforeAll, vi } from 'vitest';

/**
 * The instants a date-sensitive test runs at: the last second of a day and the first second of the
 * next in China (a year's end, 15:59:59 and 16:00:00 UTC on 31 December, where a UTC or machine-zone
 * date is still the old day and the old year), and an ordinary mid-day.
 */
export const CHINA_INSTANTS = {
  'last second of 2026-12-31 in China': new Date('2026-12-31T23:59:59+08:00'),
  'midnight of 2027-01-01 in China': new Date('2027-01-01T00:00:00+08:00'),
  'mid-day of 2026-06-15 in China': new Date('2026-06-15T12:00:00+08:00'),
} as const;

/** The China date of each instant above (what todayIn() answers there). */
export const CHINA_TODAY: Record<keyof typeof CHINA_INSTANTS, string> = {
  'last second of 2026-12-31 in China': '2026-12-31',
  'midnight of 2027-01-01 in China': '2027-01-01',
  'mid-day of 2026-06-15 in China': '2026-06-15',
};

/** `[name, instant, China date]` rows for describe.each. */
export const chinaInstants = (): Array<[string, Date, string]> =>
  (Object.keys(CHINA_INSTANTS) as Array<keyof typeof CHINA_INSTANTS>).map((name) => [name, CHINA_INSTANTS[name], CHINA_TODAY[name]]);

/** Mid-day in China of a `YYYY-MM-DD` date: far from either midnight. */
export const middayInChina = (date: string): Date => new Date(`${date}T12:00:00+08:00`);

/** Fakes Date only and stops it at `instant` (till the test calls vi.useRealTimers()). */
export function pinClock(instant: Date): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(instant);
}

/** Pins the clock at `instant` for the enclosing describe block (or file), and releases it after. */
export function clockPinnedAt(instant: Date): void {
  beforeAll(() => pinClock(instant));
  afterAll(() => {
    vi.useRealTimers();
  });
}
