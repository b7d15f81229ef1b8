/**
 * Counts of a resource (`/r/<resource>/stats`, src/server/resources/stats.ts) over the equipment
 * registry: the same rows as `list` for the same filters, within the caller's unit only, grouped
 * by one coded field or per month of a date field; unknown or non-groupable `groupBy` and roles
 * without access are refused.
 * Rows are made through the API in units of the test's own (the demo seed is not counted on).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, sessionOf } from './helpers';

const R = '/r/equipment';

interface Stats {
  total: number;
  groups?: { value: string | boolean | null; count: number }[];
  months?: { month: string; count: number }[];
}

/** Unit A's equipment: category, use status, last inspection (blank: never), molten metal. */
const UNIT_A: [string, string, string | null, boolean | null][] = [
  ['3000', '1', '2020-01-10', null],
  ['3000', '1', 'today', null],
  ['3000', '2', null, null],
  ['4000', '1', '2020-03-01', true],
  ['4000', '0', null, false],
  ['1000', '1', 'today', null],
];

describe.each(dbTargets())('stats: counts per resource (%s)', (target) => {
  const {
    app,
    units: [unitA, unitB],
  } = appSuite(target, { units: ['330212', '330203'] });

  const stats = async (sid: string, data: Record<string, unknown> = {}, method: 'GET' | 'POST' = 'POST') => call<Stats>(app, sid, method, `${R}/stats`, data);
  const listCount = async (sid: string, data: Record<string, unknown>) =>
    (await call<Page<unknown>>(app, sid, 'POST', `${R}/list`, { pageSize: 1, ...data })).body.data!.count;

  beforeAll(async () => {
    const today = todayIn();
    for (const [i, [equclacode, useStatus, last, molten]] of UNIT_A.entries()) {
      const res = await call(app, unitA.sid, 'POST', `${R}/save`, {
        equclacode,
        useStatus,
        equipmentName: `甲单位设备${i}`,
        address: '鄞州区测试路1号',
        ...(last ? { lastInspectionDate: last === 'today' ? today : last } : {}),
        ...(molten === null ? {} : { liftsMoltenMetal: molten }),
      });
      expect(res.body.result, JSON.stringify(res.body)).toBe('true');
    }
    for (let i = 0; i < 4; i++) {
      const res = await call(app, unitB.sid, 'POST', `${R}/save`, {
        equclacode: '3000',
        useStatus: '1',
        equipmentName: `乙单位电梯${i}`,
        address: '海曙区测试路2号',
        lastInspectionDate: '2019-05-01',
      });
      expect(res.body.result).toBe('true');
    }
  });

  it('counts the visible rows, as many as list finds', async () => {
    const res = await stats(unitA.sid);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'true', data: { total: 6 } });
    expect(res.body.data!.groups).toBeUndefined();
    expect(res.body.data!.total).toBe(await listCount(unitA.sid, {}));
  });

  it('groups by a dictionary field with one GROUP BY: largest group first, the counts add up to the total', async () => {
    const { body } = await stats(unitA.sid, { groupBy: 'equclacode' });
    expect(body.data).toEqual({
      total: 6,
      groups: [
        { value: '3000', count: 3 },
        { value: '4000', count: 2 },
        { value: '1000', count: 1 },
      ],
    });
  });

  it('applies the list filters before grouping (GET query string or POST body alike)', async () => {
    const filters = { equclacode: ['3000', '4000'], useStatus: '1' };
    const post = await stats(unitA.sid, { ...filters, groupBy: 'equclacode' });
    expect(post.body.data).toEqual({
      total: 3,
      groups: [
        { value: '3000', count: 2 },
        { value: '4000', count: 1 },
      ],
    });
    const get = await stats(unitA.sid, { ...filters, groupBy: 'equclacode' }, 'GET');
    expect(get.body.data).toEqual(post.body.data);
    expect(post.body.data!.total).toBe(await listCount(unitA.sid, filters));
  });

  it('counts fixed filters with relative dates like list does (overdue: in use, next inspection before today)', async () => {
    const overdue = { useStatus: '1', nextInspectionDate_lte: 'today-1d' };
    const { body } = await stats(unitA.sid, overdue);
    expect(body.data!.total).toBe(2);
    expect(body.data!.total).toBe(await listCount(unitA.sid, overdue));
  });

  it('groups booleans and blanks: true, false and null are their own groups', async () => {
    const { body } = await stats(unitA.sid, { groupBy: 'liftsMoltenMetal', equclacode: '4000' });
    expect(body.data!.groups).toEqual(
      expect.arrayContaining([
        { value: true, count: 1 },
        { value: false, count: 1 },
      ]),
    );
    const all = await stats(unitA.sid, { groupBy: 'liftsMoltenMetal' });
    expect(all.body.data!.groups!.find((g) => g.value === null)).toEqual({ value: null, count: 4 });
  });

  it("never counts another unit's rows", async () => {
    const b = await stats(unitB.sid, { groupBy: 'equclacode' });
    expect(b.body.data).toEqual({ total: 4, groups: [{ value: '3000', count: 4 }] });
    const a = await stats(unitA.sid, { equclacode: '3000' });
    expect(a.body.data!.total).toBe(3);
    const overdueB = await stats(unitB.sid, { nextInspectionDate_lte: 'today-1d' });
    expect(overdueB.body.data!.total).toBe(4);
  });

  it('refuses an unknown or non-groupable groupBy with the bad-parameter error', async () => {
    for (const groupBy of ['nope', 'equipmentName', 'nextInspectionDate', 'attachments', 'unitId', 'equclacode; drop table equipment']) {
      const res = await stats(unitA.sid, { groupBy });
      expect(res.status, groupBy).toBe(400);
      expect(res.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST', message: '请求参数错误' });
    }
  });

  it('counts per month of a date field with months=<from>,<to>: every month, zero included, over the filters', async () => {
    const today = todayIn();
    const thisMonth = today.slice(0, 7);
    const res = await call<Stats>(app, unitA.sid, 'GET', `${R}/stats?groupBy=lastInspectionDate&months=-2,0`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const months = res.body.data!.months!;
    expect(months.map((m) => m.month)).toHaveLength(3);
    expect(months[2]).toEqual({ month: thisMonth, count: 2 });
    expect(res.body.data!.total).toBe(months.reduce((sum, m) => sum + m.count, 0));
    // The list's filters apply (category 1000: one of the two inspected this month), and unit B's rows never count.
    const narrowed = await stats(unitA.sid, { groupBy: 'lastInspectionDate', months: '-2,0', equclacode: ['1000'] });
    expect(narrowed.body.data!.months!.map((m) => m.count)).toEqual([0, 0, 1]);
    const old = await stats(unitB.sid, { groupBy: 'lastInspectionDate', months: [-2, 0] });
    expect(old.body.data!.total).toBe(0);
    // Months need a date field and an ordered range.
    for (const bad of [
      { groupBy: 'equclacode', months: '-2,0' },
      { groupBy: 'lastInspectionDate', months: '0,-2' },
      { groupBy: 'lastInspectionDate', months: 'x' },
      { months: '-2,0' },
    ]) {
      const refused = await stats(unitA.sid, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    }
  });

  it('checks the filter parameters like list', async () => {
    const res = await stats(unitA.sid, { nextInspectionDate_lte: 'not-a-date' });
    expect(res.status).toBe(400);
    expect(res.body.result).toBe('false');
  });

  it('refuses a role without one of the resource access ids, and an anonymous request', async () => {
    // The analyst's role holds no menu of the registry (the authority's 辖区监管 ones now reach it).
    const analyst = await sessionOf(app, 'analyst');
    const res = await stats(analyst, { groupBy: 'equclacode' });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ result: 'false', code: 'FORBIDDEN', message: '无权访问' });
    const anonymous = await app.inject({ method: 'GET', url: api(`${R}/stats`) });
    expect(anonymous.statusCode).toBe(401);
  });
});
