/** The portal's calendar (src/shared/dates.ts): today and the hour in China whatever the machine's zone, month arithmetic. */
import { describe, expect, it } from 'vitest';
import { addToDate, hourIn, resolveRelativeDate, todayIn } from '../../src/shared/dates';

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
