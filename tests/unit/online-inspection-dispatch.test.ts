/**
 * The two pieces of arithmetic behind routing an online inspection application: the working days of
 * the inspection bodies' service level (weekends skipped) and the routing table's most specific rule.
 */
import { describe, expect, it } from 'vitest';
import { matchRule, type RoutingRule } from '../../src/server/domain/online-inspection/routing';
import { addWorkingDays, isWeekend } from '../../src/server/domain/online-inspection/workdays';

describe('addWorkingDays', () => {
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
