/**
 * The two pieces of arithmetic behind routing an online inspection application: the working days of
 * the inspection bodies' service level (weekends and public holidays skipped, weekend days worked in
 * a holiday's place counted) and the routing table's most specific rule.
 */
import { describe, expect, it } from 'vitest';
import type { HookContext } from '../../src/server/resources/hooks';
import { onlineApplyRoute } from '../../src/server/domain/online-inspection/dispatch';
import { matchRule, type RoutingRule } from '../../src/server/domain/online-inspection/routing';
import {
  addWorkingDays as addWorkingDaysIn,
  isWeekend,
  isWorkingDay,
  missingCalendarYears,
  WORK_CALENDAR,
  workingDaysBefore,
  type WorkCalendar,
} from '../../src/server/domain/online-inspection/workdays';
import { addToDate } from '../../src/shared/dates';
import { clockPinnedAt, middayInChina } from '../support/clock';
import { productWorkCalendar } from '../support/work-calendar';

const WEEKENDS_ONLY: WorkCalendar = { off: new Set(), work: new Set() };
const addWorkingDays = (date: string, days: number) => addWorkingDaysIn(date, days, WEEKENDS_ONLY);

describe('addWorkingDays, weekends only', () => {
  // 2026-11-23 is a Monday.
  it('counts weekdays only: Monday + 5 is the next Monday, Friday + 1 is Monday', () => {
    expect(addWorkingDays('2026-11-23', 5)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-23', 4)).toBe('2026-11-27');
    expect(addWorkingDays('2026-11-27', 1)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-27', 5)).toBe('2026-12-04');
  });

  it('a weekend submission counts from the Monday: Saturday + 1 and Sunday + 1 are Monday', () => {
    expect(addWorkingDays('2026-11-28', 1)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-29', 1)).toBe('2026-11-30');
    expect(addWorkingDays('2026-11-28', 5)).toBe('2026-12-04');
  });

  it('crosses months and years; 0 days is the day itself; never lands on a weekend', () => {
    expect(addWorkingDays('2026-12-30', 3)).toBe('2027-01-04');
    expect(addWorkingDays('2024-02-28', 2)).toBe('2024-03-01');
    expect(addWorkingDays('2026-11-25', 0)).toBe('2026-11-25');
    for (let day = 1; day <= 28; day++) {
      const date = `2026-02-${String(day).padStart(2, '0')}`;
      for (const n of [1, 5, 10]) expect(isWeekend(addWorkingDays(date, n)), `${date} + ${n}`).toBe(false);
    }
  });

  it('ten working days are two calendar weeks from a weekday', () => {
    expect(addWorkingDays('2026-11-24', 10)).toBe('2026-12-08');
  });

  it('refuses a malformed date or a negative count', () => {
    expect(() => addWorkingDays('2026/11/23', 1)).toThrow();
    expect(() => addWorkingDays('2026-11-23', -1)).toThrow();
  });
});

describe('addWorkingDays with the work calendar', () => {
  const calendar = productWorkCalendar();

  it('skips the National Day week and counts the Saturday worked after it (2026)', () => {
    // Wednesday 30 September; 1–7 October off; Saturday 10 October worked.
    expect(addWorkingDaysIn('2026-09-30', 1, calendar)).toBe('2026-10-08');
    expect(addWorkingDaysIn('2026-09-30', 3, calendar)).toBe('2026-10-10');
    expect(addWorkingDaysIn('2026-09-30', 5, calendar)).toBe('2026-10-13');
    // Weekends only, the same five days would end on the holiday's last day.
    expect(addWorkingDays('2026-09-30', 5)).toBe('2026-10-07');
  });

  it('skips the Spring Festival and counts the Saturdays worked before and after it (2026)', () => {
    // Friday 13 February; Saturday 14 worked; 15–23 off; Saturday 28 worked.
    expect(addWorkingDaysIn('2026-02-13', 1, calendar)).toBe('2026-02-14');
    expect(addWorkingDaysIn('2026-02-13', 2, calendar)).toBe('2026-02-24');
    expect(addWorkingDaysIn('2026-02-24', 4, calendar)).toBe('2026-02-28');
  });

  it('knows 2025 too, and counts every weekday of a year it does not list', () => {
    // New Year's Day 2025 a Wednesday, off; 2025-10-01 to 08 off, Saturday 11 October worked.
    expect(addWorkingDaysIn('2024-12-31', 1, calendar)).toBe('2025-01-02');
    expect(addWorkingDaysIn('2025-09-30', 2, calendar)).toBe('2025-10-10');
    expect(addWorkingDaysIn('2025-09-30', 3, calendar)).toBe('2025-10-11');
    expect(addWorkingDaysIn('2030-10-01', 1, calendar)).toBe(addWorkingDays('2030-10-01', 1));
  });

  it('each listed day is what it says: an off day is no working day, a worked day is a weekend day', () => {
    for (const date of calendar.off) expect(isWorkingDay(date, calendar), date).toBe(false);
    for (const date of calendar.work) {
      expect(isWeekend(date), date).toBe(true);
      expect(isWorkingDay(date, calendar), date).toBe(true);
    }
    // 2025: 28 days off, 5 worked; 2026: 33 off, 6 worked.
    expect([calendar.off.size, calendar.work.size]).toEqual([61, 11]);
  });

  it('workingDaysBefore is the inverse: n working days back, then n on, is the day again', () => {
    for (const date of ['2026-10-08', '2026-10-10', '2026-02-24', '2026-11-30', '2025-10-09'])
      for (const n of [1, 4, 5, 8]) expect(addWorkingDaysIn(workingDaysBefore(date, n, calendar), n, calendar), `${date} - ${n}`).toBe(date);
    expect(workingDaysBefore('2026-10-08', 1, calendar)).toBe('2026-09-30');
  });

  it('names the years a deadline may fall in that the calendar does not list: the next one from December', () => {
    expect(missingCalendarYears(calendar, '2026-11-30')).toEqual([]);
    expect(missingCalendarYears(calendar, '2026-12-01')).toEqual([2027]);
    expect(missingCalendarYears(calendar, '2027-03-01')).toEqual([2027]);
    expect(missingCalendarYears(WEEKENDS_ONLY, '2026-12-31')).toEqual([2026, 2027]);
  });
});

describe('the due date an application gets at its commit', () => {
  // Pinned on Wednesday 30 September 2026, the day before the National Day week.
  clockPinnedAt(middayInChina('2026-09-30'));
  const dueOf = async (dicts: HookContext['dicts']) => {
    // An application that already has its body: the hook only sets the due date.
    const ctx = { before: { inspectionUnitId: 'a'.repeat(32) }, row: {}, dicts } as unknown as HookContext;
    return ((await onlineApplyRoute(ctx)) as { dueDate: string }).dueDate;
  };

  it('reads the work calendar of the dictionaries: five working days on is 13 October, not 7 October', async () => {
    const calendar = productWorkCalendar();
    const items = [...calendar.off].map((value) => ({ value, label: '放假', data: { kind: 'off' } }));
    const worked = [...calendar.work].map((value) => ({ value, label: '上班', data: { kind: 'work' } }));
    expect(await dueOf(new Map([[WORK_CALENDAR, [...items, ...worked]]]))).toBe('2026-10-13');
    expect(await dueOf(new Map())).toBe(addToDate('2026-09-30', 7, 'd'));
  });
});

describe('matchRule', () => {
  const rules: RoutingRule[] = [
    { code: 'city', area: '330200', category: null, body: 'CITY' },
    { code: 'beilun', area: '330206', category: null, body: 'BEILUN' },
    { code: 'city-boilers', area: '330200', category: '1000', body: 'BOILERS' },
    { code: 'beilun-elevators', area: '330206', category: '3000', body: 'BEILUN-LIFTS' },
  ];
  const bodyOf = (area: string, categories: string[]) => matchRule(rules, area, categories)?.body;

  it('a city rule covers every district; a district rule wins over it', () => {
    expect(bodyOf('330212', ['4000'])).toBe('CITY');
    expect(bodyOf('330206', ['4000'])).toBe('BEILUN');
    expect(bodyOf('330200', [])).toBe('CITY');
  });

  it('a rule naming one of the categories wins over one that does not, at the same area', () => {
    expect(bodyOf('330212', ['1000'])).toBe('BOILERS');
    expect(bodyOf('330212', ['4000', '1000'])).toBe('BOILERS');
    expect(bodyOf('330206', ['3000'])).toBe('BEILUN-LIFTS');
  });

  it('the longer area prefix wins over a category: 北仑 boilers stay with 北仑', () => {
    expect(bodyOf('330206', ['1000'])).toBe('BEILUN');
  });

  it('a category rule matches the sub-categories below it (1000 covers 1100)', () => {
    expect(bodyOf('330212', ['1100'])).toBe('BOILERS');
  });

  it('no rule covers an area outside the table', () => {
    expect(bodyOf('330303', ['3000'])).toBeUndefined();
    expect(matchRule([], '330212', [])).toBeUndefined();
  });
});
