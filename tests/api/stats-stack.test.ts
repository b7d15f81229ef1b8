/**
 * Stacked counts (`/r/<resource>/stats?groupBy=a&stackBy=b`, src/server/resources/stats.ts) over
 * equipment two demo using units register here (district × category), as the city authority (its area) and as a using unit (its own rows only):
 * one GROUP BY over both fields, groups with the largest total first, each group's parts adding
 * up to the plain groupBy count and all parts to the list's total; a stackBy that cannot be
 * grouped (or a multi-value one, or one without groupBy / with months) is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';

const R = '/r/equipment';

interface Group {
  value: string | boolean | null;
  stack?: string | boolean | null;
  count: number;
}
interface Stats {
  total: number;
  groups?: Group[];
}

/** Sum of the parts per group value, in the order the groups first appear. */
function totals(groups: readonly Group[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) out.set(String(g.value), (out.get(String(g.value)) ?? 0) + g.count);
  return out;
}

describe.each(dbTargets())('stats: stacked counts (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { authority: 'jgadmin', unit: 'nbadmin', other: 'bladmin' } });

  /** Each unit's equipment: district, category, use status, next inspection (blank: none). */
  const ROWS: Record<'unit' | 'other', [string, string, string, string | null][]> = {
    unit: [
      ['330212', '3000', '1', '2020-01-10'],
      ['330212', '3000', '1', null],
      ['330212', '4000', '1', '2020-01-10'],
      ['330203', '3000', '2', null],
      ['330203', '1000', '1', '2099-01-01'],
    ],
    other: [
      ['330206', '3000', '1', '2020-01-10'],
      ['330206', '2000', '1', null],
      ['330212', '2000', '1', '2020-01-10'],
    ],
  };

  beforeAll(async () => {
    for (const who of ['unit', 'other'] as const) {
      for (const [i, [locationArea, equclacode, useStatus, next]] of ROWS[who].entries()) {
        const res = await call(app, session[who], 'POST', `${R}/save`, {
          locationArea,
          equclacode,
          useStatus,
          equipmentName: `分组测试设备${who}${i}`,
          address: '测试路1号',
          ...(next ? { nextInspectionDate: next } : {}),
        });
        expect(res.body.result, JSON.stringify(res.body)).toBe('true');
      }
    }
  });

  const stats = async (sid: string, data: Record<string, unknown>, method: 'GET' | 'POST' = 'POST') => call<Stats>(app, sid, method, `${R}/stats`, data);
  const listCount = async (sid: string, data: Record<string, unknown>) => {
    const res = await call<Page<unknown>>(app, sid, 'POST', `${R}/list`, { pageSize: 1, ...data });
    expect(res.body.result, JSON.stringify(res.body)).toBe('true');
    return res.body.data!.count;
  };

  for (const who of ['authority', 'unit'] as const) {
    it(`${who}: parts per district and category add up to the plain counts and the list's total`, async () => {
      const sid = session[who];
      const res = await stats(sid, { groupBy: 'locationArea', stackBy: 'equclacode' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { total, groups } = res.body.data!;
      expect(groups!.length).toBeGreaterThan(0);
      expect(total).toBe(await listCount(sid, {}));
      expect(groups!.reduce((sum, g) => sum + g.count, 0)).toBe(total);
      for (const g of groups!) {
        expect(g).toHaveProperty('stack');
        expect(g.count).toBeGreaterThan(0);
      }
      // One row per pair of values.
      expect(new Set(groups!.map((g) => `${String(g.value)}|${String(g.stack)}`)).size).toBe(groups!.length);

      // Each group's parts add up to its plain count; groups come largest total first, each group's parts together.
      const plain = (await stats(sid, { groupBy: 'locationArea' })).body.data!;
      expect(plain.total).toBe(total);
      const sums = totals(groups!);
      expect(Object.fromEntries(sums)).toEqual(Object.fromEntries(plain.groups!.map((g) => [String(g.value), g.count])));
      const order = [...sums.values()];
      expect(order).toEqual([...order].sort((a, b) => b - a));
      const seen: string[] = [];
      for (const g of groups!) if (seen.at(-1) !== String(g.value)) seen.push(String(g.value));
      expect(seen).toHaveLength(sums.size);

      // Each part is what the list finds with both values as filters.
      const part = groups!.find((g) => g.value !== null && g.stack !== null)!;
      expect(part.count).toBe(await listCount(sid, { locationArea: part.value, equclacode: part.stack }));
    });
  }

  it("the using unit's parts count its own rows only, less than the authority's", async () => {
    const own = (await stats(session.unit, { groupBy: 'locationArea', stackBy: 'equclacode' })).body.data!;
    const all = (await stats(session.authority, { groupBy: 'locationArea', stackBy: 'equclacode' })).body.data!;
    expect(own).toEqual({
      total: ROWS.unit.length,
      groups: [
        { value: '330212', stack: '3000', count: 2 },
        { value: '330212', stack: '4000', count: 1 },
        { value: '330203', stack: '1000', count: 1 },
        { value: '330203', stack: '3000', count: 1 },
      ],
    });
    // The authority sees both units' rows (and any other in its area).
    expect(all.total).toBeGreaterThanOrEqual(ROWS.unit.length + ROWS.other.length);
    // Every part of the unit's is at most the authority's same part.
    const key = (g: Group) => `${String(g.value)}|${String(g.stack)}`;
    const authority = new Map(all.groups!.map((g) => [key(g), g.count]));
    for (const g of own.groups!) expect(g.count).toBeLessThanOrEqual(authority.get(key(g)) ?? 0);
  });

  it('applies the list filters before grouping, GET and POST alike', async () => {
    const filters = { useStatus: '1', nextInspectionDate_lte: 'today-1d' };
    const post = await stats(session.authority, { ...filters, groupBy: 'equclacode', stackBy: 'locationArea' });
    expect(post.status).toBe(200);
    const get = await stats(session.authority, { ...filters, groupBy: 'equclacode', stackBy: 'locationArea' }, 'GET');
    expect(get.body.data).toEqual(post.body.data);
    expect(post.body.data!.total).toBe(await listCount(session.authority, filters));
    const plain = (await stats(session.authority, { ...filters, groupBy: 'equclacode' })).body.data!;
    expect(Object.fromEntries(totals(post.body.data!.groups!))).toEqual(Object.fromEntries(plain.groups!.map((g) => [String(g.value), g.count])));
  });

  it('refuses a stackBy that cannot be grouped, one without groupBy, with months, or the same field', async () => {
    const bad: Record<string, unknown>[] = [
      { groupBy: 'locationArea', stackBy: 'equipmentName' },
      { groupBy: 'locationArea', stackBy: 'nextInspectionDate' },
      { groupBy: 'locationArea', stackBy: 'nope' },
      { groupBy: 'locationArea', stackBy: 'equclacode; drop table equipment' },
      { stackBy: 'equclacode' },
      { groupBy: 'nextInspectionDate', stackBy: 'equclacode', months: '-2,0' },
      { groupBy: 'equclacode', stackBy: 'equclacode' },
    ];
    for (const data of bad) {
      const res = await stats(session.authority, data);
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    }
  });

  it('refuses a multi-value (codes) field as either side of a stack', async () => {
    for (const data of [
      { groupBy: 'area', stackBy: 'licenceItems' },
      { groupBy: 'licenceItems', stackBy: 'area' },
    ]) {
      const res = await call<Stats>(app, session.authority, 'POST', '/r/maintenance-unit/stats', data);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    }
  });
});
