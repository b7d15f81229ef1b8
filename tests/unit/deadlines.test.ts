import { describe, expect, it } from 'vitest';
import { deadlineState } from '../../src/schema/deadlines';
import { addToDate } from '../../src/shared/dates';
import { chinaInstants, clockPinnedAt } from '../support/clock';

const today = '2026-11-24';

describe('dates that matter (deadline)', () => {
  it('marks a passed date overdue and a near one due soon, with the days', () => {
    const field = { deadline: true as const };
    expect(deadlineState(field, '2026-11-20', {}, today)).toEqual({ state: 'overdue', days: 4, text: '已超期 4 天' });
    expect(deadlineState(field, '2026-11-24', {}, today)).toEqual({ state: 'soon', days: 0, text: '今天到期' });
    expect(deadlineState(field, '2026-12-24', {}, today)).toEqual({ state: 'soon', days: 30, text: '30 天后到期' });
    expect(deadlineState(field, '2026-12-25', {}, today)).toBeUndefined();
  });

  it('takes its own window, and counts only while its condition holds', () => {
    const field = { deadline: { soon: 90, while: "status !== 'done'" } };
    expect(deadlineState(field, '2027-02-01', { status: 'open' }, today)?.state).toBe('soon');
    expect(deadlineState(field, '2026-01-01', { status: 'open' }, today)?.state).toBe('overdue');
    expect(deadlineState(field, '2026-01-01', { status: 'done' }, today)).toBeUndefined();
  });

  it('reads a timestamp as its date in the portal time zone, and ignores blanks and fields without a deadline', () => {
    // 2026-11-23T17:00Z is 01:00 on the 24th in Beijing: due today, not overdue.
    expect(deadlineState({ deadline: true }, '2026-11-23T17:00:00.000Z', {}, today)?.text).toBe('今天到期');
    expect(deadlineState({ deadline: true }, '', {}, today)).toBeUndefined();
    expect(deadlineState({ deadline: true }, null, {}, today)).toBeUndefined();
    expect(deadlineState({}, '2020-01-01', {}, today)).toBeUndefined();
  });
});

describe.each(chinaInstants())("counts from China's today read from the clock, at the %s", (_name, instant, today) => {
  clockPinnedAt(instant);

  it('due today, overdue since yesterday, due soon until the window ends', () => {
    const field = { deadline: true as const };
    expect(deadlineState(field, today)?.text).toBe('今天到期');
    expect(deadlineState(field, addToDate(today, -1, 'd'))?.text).toBe('已超期 1 天');
    expect(deadlineState(field, addToDate(today, 30, 'd'))?.text).toBe('30 天后到期');
    expect(deadlineState(field, addToDate(today, 31, 'd'))).toBeUndefined();
    // The instant itself, stored as a timestamp, is due today (its date in China).
    expect(deadlineState(field, instant.toISOString())?.text).toBe('今天到期');
  });
});
