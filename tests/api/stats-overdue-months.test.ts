/**
 * The kept monthly overdue figures (src/server/domain/equipment/overdue-months.ts, resource
 * equipment-overdue-month) and the stats read's `sum=<integer field>` that draws their trend: two
 * using units' equipment in two districts, refreshed; per month the sums of in-use and overdue
 * pieces (the rate's two inputs) for the city (both districts), the district authority (its own),
 * refused to a using unit; the past months estimated from the rows; the refresh rewriting the
 * current month idempotently; a sum over a non-integer field refused.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshOverdueMonths } from '../../src/server/domain/equipment/overdue-months';
import { addToDate, todayIn } from '../../src/shared/dates';
import { appSuite, call, dbTargets } from './helpers';

const R = '/r/equipment-overdue-month';

interface Stats {
  total: number;
  groups?: { value: string | null; count: number }[];
  months?: { month: string; count: number }[];
}

describe.each(dbTargets())('stats: kept monthly overdue figures (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { city: 'jgadmin', district: 'yzjg', unit: 'nbadmin', other: 'bladmin' } });
  const today = todayIn();

  /** An elevator (12-month interval) in use since 2019; `overdue`: last inspected in 2020 (due 2021), else today (due in a year). */
  const addEquipment = async (sid: string, locationArea: string, overdue: boolean, useStatus = '1') => {
    const res = await call(app, sid, 'POST', '/r/equipment/save', {
      locationArea,
      equclacode: '3000',
      useStatus,
      equipmentName: `超期月度测试${locationArea}`,
      address: '测试路1号',
      putIntoUseDate: '2019-01-01',
      lastInspectionDate: overdue ? '2020-01-10' : today,
    });
    expect(res.body.result, JSON.stringify(res.body)).toBe('true');
  };

  beforeAll(async () => {
    // 鄞州 (330212, nbadmin): 3 in use, 2 overdue, and one not in use; 北仑 (330206, bladmin): 2 in use, 1 overdue.
    await addEquipment(session.unit, '330212', true);
    await addEquipment(session.unit, '330212', true);
    await addEquipment(session.unit, '330212', false);
    await addEquipment(session.unit, '330212', true, '2');
    await addEquipment(session.other, '330206', true);
    await addEquipment(session.other, '330206', false);
    await refreshOverdueMonths(app.db);
  });

  const stats = (sid: string, data: Record<string, unknown>) => call<Stats>(app, sid, 'POST', `${R}/stats`, data);
  const perMonth = async (sid: string, sum: string, filters: Record<string, unknown> = {}) => {
    const res = await stats(sid, { groupBy: 'month', months: '-11,0', sum, ...filters });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data!.months!;
  };

  it('sums in-use and overdue pieces per month: the rate inputs, twelve months, the past ones estimated', async () => {
    const inUse = await perMonth(session.city, 'inUse');
    const overdue = await perMonth(session.city, 'overdue');
    expect(inUse).toHaveLength(12);
    expect(inUse[11].month).toBe(today.slice(0, 7));
    // Put into use in 2019, no inspection record: every past month counts each piece now in use, overdue when its due date then had passed.
    expect(inUse.map((m) => m.count)).toEqual(Array(12).fill(5));
    expect(overdue.map((m) => m.count)).toEqual(Array(12).fill(3));
    const { rows } = await sql<{
      month: string;
      estimated: boolean;
    }>`SELECT DISTINCT to_char(month, 'YYYY-MM') AS month, estimated FROM equipment_overdue_month ORDER BY 1`.execute(app.db);
    expect(rows.filter((r) => r.estimated).map((r) => r.month)).toEqual(inUse.slice(0, 11).map((m) => m.month));
    expect(rows.filter((r) => !r.estimated).map((r) => r.month)).toEqual([today.slice(0, 7)]);
  });

  it("follows the screen's filters: district and category", async () => {
    expect((await perMonth(session.city, 'overdue', { locationArea: '330206' })).map((m) => m.count)).toEqual(Array(12).fill(1));
    expect((await perMonth(session.city, 'inUse', { equclacode: '4000' })).map((m) => m.count)).toEqual(Array(12).fill(0));
    const res = await stats(session.city, {
      groupBy: 'locationArea',
      sum: 'overdue',
      month_gte: `${today.slice(0, 7)}-01`,
      month_lte: `${today.slice(0, 7)}-01`,
    });
    expect(res.body.data).toMatchObject({
      total: 3,
      groups: [
        { value: '330212', count: 2 },
        { value: '330206', count: 1 },
      ],
    });
  });

  it('keeps to the area: a district authority its own district, a using unit nothing', async () => {
    expect((await perMonth(session.district, 'inUse')).map((m) => m.count)).toEqual(Array(12).fill(3));
    expect((await perMonth(session.district, 'overdue')).map((m) => m.count)).toEqual(Array(12).fill(2));
    const unit = await stats(session.unit, { groupBy: 'month', months: '-11,0', sum: 'inUse' });
    expect(unit.status).toBe(403);
    expect(unit.body).toMatchObject({ result: 'false', code: 'FORBIDDEN' });
  });

  it('refuses a sum over a field that is not an integer', async () => {
    for (const sum of ['locationArea', 'month', 'estimated', 'nope']) {
      const res = await stats(session.city, { groupBy: 'month', months: '-11,0', sum });
      expect(res.status, sum).toBe(400);
      expect(res.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    }
    const count = await call<Stats>(app, session.city, 'POST', '/r/equipment/stats', { sum: 'equipmentName' });
    expect(count.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
  });

  it('rewrites the current month idempotently and leaves the past months as kept', async () => {
    const before = await sql<{ n: number }>`SELECT count(*)::int AS n FROM equipment_overdue_month`.execute(app.db);
    await refreshOverdueMonths(app.db);
    await refreshOverdueMonths(app.db);
    const after = await sql<{ n: number }>`SELECT count(*)::int AS n FROM equipment_overdue_month`.execute(app.db);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // Refreshed today already: the daily job skips it.
    expect(await refreshOverdueMonths(app.db, { onlyIfStale: true })).toEqual({ current: 0, estimated: 0 });
    // A new overdue piece counts in the current month once refreshed, not in the kept months.
    await addEquipment(session.other, '330206', true);
    expect((await refreshOverdueMonths(app.db)).estimated).toBe(0);
    const overdue = await perMonth(session.city, 'overdue');
    expect(overdue.map((m) => m.count)).toEqual([...Array<number>(11).fill(3), 4]);
    // A refresh on a later day finds this month's rows stale and rewrites them.
    const tomorrow = addToDate(today, 1, 'd');
    if (tomorrow.slice(0, 7) === today.slice(0, 7)) expect((await refreshOverdueMonths(app.db, { today: tomorrow, onlyIfStale: true })).current).toBe(2);
  });
});
