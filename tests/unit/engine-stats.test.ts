/**
 * The stats screen's arithmetic (src/engine/stats/stats.ts): how a card's fixed filter narrows the
 * user's, where a card links, a chart's labels, shares, slices and colours; and that the filter
 * parameters the lint accepts in `where` are ones the server's list accepts.
 */
import { describe, expect, it } from 'vitest';
import categoryDict from '../../schemas/dicts/equipment-category.json';
import useStatusDict from '../../schemas/dicts/use-status.json';
import equipment from '../../schemas/resources/equipment.json';
import demoResource from '../../schemas/resources/demo-notice.json';
import { filterParamsOf, resourceFields } from '../../src/schema/model';
import type { Dict, Resource } from '../../src/schema/types';
import {
  BLANK_LABEL,
  OTHER_LABEL,
  chartData,
  codedParams,
  describeChart,
  hrefWith,
  narrow,
  percent,
  sliceColors,
  slices,
  type ChartDatum,
} from '../../src/engine/stats/stats';
import { loadCatalog } from '../../src/server/resources/catalog';
import { compileListPlan } from '../../src/server/resources/filters';
import { compileModels } from '../../src/server/resources/model';

const resource = equipment as unknown as Resource;
const dicts = new Map<string, Dict>([
  ['equipment-category', categoryDict as unknown as Dict],
  ['use-status', useStatusDict as unknown as Dict],
]);
const field = (name: string) => resourceFields(resource).get(name)!;

describe('a card narrows the screen filters', () => {
  const coded = codedParams(resource);

  it('knows which parameters take codes', () => {
    expect(coded.has('useStatus')).toBe(true);
    expect(coded.has('locationArea')).toBe(true);
    expect(coded.has('equipmentName')).toBe(false);
    expect(coded.has('nextInspectionDate_lte')).toBe(false);
  });

  it('adds its fixed filter to the user filters', () => {
    expect(narrow({ equclacode: ['3000'] }, { useStatus: '1' }, coded)).toEqual({ equclacode: ['3000'], useStatus: ['1'] });
    expect(narrow({ equclacode: ['3000'] }, undefined, coded)).toEqual({ equclacode: ['3000'] });
  });

  it('intersects codes both choose, and asks nothing when none is left', () => {
    expect(narrow({ useStatus: ['1', '2'] }, { useStatus: ['2', '3'] }, coded)).toEqual({ useStatus: ['2'] });
    expect(narrow({ useStatus: ['2'] }, { useStatus: '1' }, coded)).toBeNull();
  });

  it('replaces any other value of the same parameter', () => {
    expect(narrow({ nextInspectionDate_lte: '2030-01-01' }, { nextInspectionDate_lte: 'today-1d' }, coded)).toEqual({ nextInspectionDate_lte: 'today-1d' });
  });
});

describe('a card link', () => {
  it('carries the parameters as the query a list reads back, relative dates resolved', () => {
    expect(hrefWith('/x/list', { useStatus: ['1', '2'], name: '甲', empty: '', nextInspectionDate_lte: 'today-1d' }, '2026-03-01')).toBe(
      `/x/list?useStatus=1&useStatus=2&name=${encodeURIComponent('甲')}&nextInspectionDate_lte=2026-02-28`,
    );
    expect(hrefWith('/x/list', {})).toBe('/x/list');
  });
});

describe('chart rows', () => {
  it('labels codes by their dictionary, blanks as 未填写, and computes shares', () => {
    const data = chartData(
      {
        total: 8,
        groups: [
          { value: '1', count: 5 },
          { value: '2', count: 2 },
          { value: null, count: 1 },
        ],
      },
      resource,
      'useStatus',
      field('useStatus'),
      dicts,
    );
    expect(data.map((d) => [d.label, d.count, d.share, d.color])).toEqual([
      ['在用', 5, 5 / 8, 'green'],
      ['停用', 2, 2 / 8, 'orange'],
      [BLANK_LABEL, 1, 1 / 8, undefined],
    ]);
    expect(describeChart('按使用状态', data, 8)).toBe('按使用状态：在用 5（62.5%），停用 2（25.0%），未填写 1（12.5%），合计 8');
  });

  it('labels booleans 是/否 and unknown codes as themselves', () => {
    const molten = chartData(
      {
        total: 3,
        groups: [
          { value: true, count: 2 },
          { value: false, count: 1 },
        ],
      },
      resource,
      'liftsMoltenMetal',
      field('liftsMoltenMetal'),
      dicts,
    );
    expect(molten.map((d) => d.label)).toEqual(['是', '否']);
    const odd = chartData({ total: 1, groups: [{ value: '9999', count: 1 }] }, resource, 'equclacode', field('equclacode'), dicts);
    expect(odd[0].label).toBe('9999');
    expect(chartData({ total: 0 }, resource, 'equclacode', field('equclacode'), dicts)).toEqual([]);
  });

  it('sums the smallest values into one 其他 slice beyond the maximum', () => {
    const data: ChartDatum[] = Array.from({ length: 10 }, (_, i) => ({ key: String(i), label: `v${i}`, count: 10 - i, share: (10 - i) / 55 }));
    const parts = slices(data, 4);
    expect(parts.map((p) => [p.label, p.count])).toEqual([
      ['v0', 10],
      ['v1', 9],
      ['v2', 8],
      [OTHER_LABEL, 28],
    ]);
    expect(slices(data.slice(0, 3), 4)).toHaveLength(3);
  });

  it('colours slices by their code where distinct, else from the palette, never twice', () => {
    const colors = sliceColors([
      { key: 'a', label: 'a', count: 1, share: 0, color: 'green' },
      { key: 'b', label: 'b', count: 1, share: 0, color: 'default' },
      { key: 'c', label: 'c', count: 1, share: 0, color: 'green' },
      { key: 'd', label: 'd', count: 1, share: 0 },
    ]);
    expect(colors[0]).toBe('green');
    expect(new Set(colors).size).toBe(4);
  });

  it('writes shares with one decimal', () => {
    expect(percent(1 / 3)).toBe('33.3%');
    expect(percent(1)).toBe('100.0%');
  });
});

describe('the filter parameters the lint accepts', () => {
  it("are parameters the server's list accepts, for every resource", () => {
    const catalog = loadCatalog();
    const models = new Map(
      compileModels(catalog)
        .filter((m) => !m.isChild)
        .map((m) => [m.name, m]),
    );
    expect(models.size).toBeGreaterThan(0);
    for (const r of [...catalog.resources, demoResource as unknown as Resource]) {
      const model = models.get(r.name);
      if (!model) continue;
      const server = new Set(compileListPlan(model).filters.map((f) => f.param));
      const missing = [...filterParamsOf(r).keys()].filter((p) => !server.has(p));
      expect(missing, r.name).toEqual([]);
    }
  });
});
