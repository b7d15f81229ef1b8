/** The portal's calendar (src/shared/dates.ts): today and the hour in China whatever the machine's zone, month arithmetic. */
import { describe, expect, it } from 'vitest';
import { addToDate, hourIn, resolveRelativeDate, todayIn } from '../../src/shared/dates';
import { chinaInstants, clockPinnedAt } from '../support/clock';

describe('portal dates', () => {
  it("takes today and the hour in China Standard Time, not the machine's zone", () => {
    const late = new Date('2026-11-26T16:30:00Z'); // 00:30 on the 27th in China
    expect(todayIn(undefined, late)).toBe('2026-11-27');
    expect(hourIn(undefined, late)).toBe(0);
    expect(hourIn(undefined, new Date('2026-11-26T09:30:00Z'))).toBe(17);
    expect(hourIn('UTC', late)).toBe(16);
  });

  it('adds months keeping the day where it exists, else the last day of the month', () => {
    expect(addToDate('2026-01-31', 1, 'm')).toBe('2026-02-28');
    expect(addToDate('2028-02-29', 1, 'y')).toBe('2029-02-28');
    expect(addToDate('2026-12-31', 1, 'd')).toBe('2027-01-01');
    expect(resolveRelativeDate('today+30d', '2026-11-26')).toBe('2026-12-26');
  });
});

describe.each(chinaInstants())('the clock read at the %s', (_name, instant, today) => {
  clockPinnedAt(instant);

  it("answers China's date and hour, and resolves relative dates from it (filters, defaults, bounds)", () => {
    expect(todayIn()).toBe(today);
    expect(hourIn()).toBe(Number(instant.toLocaleString('en-GB', { timeZone: 'Asia/Shanghai', hour: '2-digit', hourCycle: 'h23' })));
    expect(resolveRelativeDate('today')).toBe(today);
    expect(resolveRelativeDate('today-1d')).toBe(addToDate(today, -1, 'd'));
    expect(resolveRelativeDate('today+30d')).toBe(addToDate(today, 30, 'd'));
    expect(resolveRelativeDate('today+1y')).toBe(addToDate(today, 1, 'y'));
  });
});

it('crosses into the next day and year at midnight in China, not at midnight UTC', () => {
  const [[, last, lastDay], [, midnight, midnightDay]] = chinaInstants();
  expect(midnight.getTime() - last.getTime()).toBe(1000);
  expect([lastDay, midnightDay]).toEqual(['2026-12-31', '2027-01-01']);
  expect(midnight.toISOString().slice(0, 10)).toBe('2026-12-31');
  expect(todayIn(undefined, midnight)).toBe('2027-01-01');
  expect(resolveRelativeDate('today-1d', todayIn(undefined, midnight))).toBe('2026-12-31');
});
