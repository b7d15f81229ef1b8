/**
 * The stats charts added for stacked counts, shares and drill-down (src/engine/stats/stats.ts,
 * chart-options.ts): stacked bars keep the server's bar order and put each part in its series;
 * rate bars divide the numerator's groups by the denominator's, highest share first; a rate line
 * has no point for a month without rows; a click's link carries the screen's filters, the chart's
 * `where` and `rate` and the clicked values, and none for a blank value.
 */
import { describe, expect, it } from 'vitest';
import categoryDict from '../../schemas/dicts/equipment-category.json';
import useStatusDict from '../../schemas/dicts/use-status.json';
import equipment from '../../schemas/resources/equipment.json';
import { resourceFields } from '../../src/schema/model';
import type { Dict, Resource } from '../../src/schema/types';
import { codedParams, drillParams, hrefWith, rateData, ratePoints, rateText, stackedData, describeStacked } from '../../src/engine/stats/stats';
import { rateBarOption, rateLineOption, stackedBarOption, barOption, donutOption } from '../../src/engine/stats/chart-options';
import { viewOf } from '../support/chart-option';

const resource = equipment as unknown as Resource;
const dicts = new Map<string, Dict>([
  ['equipment-category', categoryDict as unknown as Dict],
  ['use-status', useStatusDict as unknown as Dict],
]);
const field = (name: string) => resourceFields(resource).get(name)!;
const colors = { primary: '#1677ff', text: '#000', textSecondary: '#666' };

describe('rate text', () => {
  it('gives the percentage with both numbers', () => {
    expect(rateText(3, 24)).toBe('12.5%（3 / 24）');
    expect(rateText(0, 5)).toBe('0.0%（0 / 5）');
    expect(rateText(0, 0)).toBe('—（0 / 0）');
  });
});

describe('stacked bars', () => {
  const result = {
    total: 9,
    groups: [
      { value: '1', stack: '3000', count: 3 },
      { value: '1', stack: '4000', count: 2 },
      { value: '2', stack: '3000', count: 2 },
      { value: '2', stack: null, count: 1 },
      { value: null, stack: '4000', count: 1 },
    ],
  };
  const data = stackedData(result, resource, 'useStatus', field('useStatus'), 'equclacode', field('equclacode'), dicts);

  it('keeps the bars in the server order with their totals and labels', () => {
    expect(data.bars.map((b) => [b.label, b.count])).toEqual([
      ['在用', 5],
      ['停用', 3],
      ['未填写', 1],
    ]);
    expect(data.total).toBe(9);
  });

  it('makes a series per stack value (largest first, blank last) labelled and coloured by the dictionary', () => {
    expect(data.series.map((s) => s.label)).toEqual(['电梯', '起重机械', '未填写']);
    const lift = (categoryDict as { items: { value: string; color?: string }[] }).items.find((i) => i.value === '3000')!;
    expect(data.series[0].color).toBe(lift.color);
    expect(data.counts).toEqual([
      [3, 2, 0],
      [2, 0, 1],
      [0, 1, 0],
    ]);
    expect(describeStacked('按状态', data)).toBe('按状态：在用 5（电梯 3，起重机械 2），停用 3（电梯 2，未填写 1），未填写 1（起重机械 1），合计 9');
  });

  it('draws a stacked series per value (zero parts left out) and the bar totals, clickable with a hand cursor', () => {
    const option = viewOf(stackedBarOption(data, { ...colors, series: ['#f00', '#0f0', '#00f'] }, { clickable: true }));
    expect(option.yAxis.data).toEqual(['在用', '停用', '未填写']);
    expect(option.legend.data).toEqual(['电梯', '起重机械', '未填写']);
    const parts = option.series.slice(0, 3);
    expect(parts.every((s) => s.stack === 'total' && s.cursor === 'pointer')).toBe(true);
    expect(parts[0].data).toEqual([3, 2, null]);
    expect(option.series[3].label.formatter({ dataIndex: 1 })).toBe('3');
    expect(
      option.tooltip.formatter([
        { dataIndex: 1, seriesIndex: 0, marker: '' },
        { dataIndex: 1, seriesIndex: 1, marker: '' },
        { dataIndex: 1, seriesIndex: 2, marker: '' },
      ]),
    ).toBe('<b>停用</b><br/>电梯：2<br/>未填写：1<br/>合计：3');
    expect(viewOf(barOption([], colors)).series[0].cursor).toBe('default');
    expect(viewOf(donutOption([], 0, colors, { clickable: true })).series[0].cursor).toBe('pointer');
  });
});

describe('rate bars', () => {
  const whole = {
    total: 40,
    groups: [
      { value: '3000', count: 24 },
      { value: '4000', count: 10 },
      { value: '1000', count: 6 },
    ],
  };
  const part = {
    total: 8,
    groups: [
      { value: '3000', count: 3 },
      { value: '1000', count: 3 },
      { value: '4000', count: 2 },
    ],
  };
  const data = rateData(whole, part, resource, 'equclacode', field('equclacode'), dicts);

  it('divides per value, highest share first, groups without numerator rows at 0%', () => {
    expect(data.map((d) => [d.label, d.part, d.whole])).toEqual([
      ['锅炉', 3, 6],
      ['起重机械', 2, 10],
      ['电梯', 3, 24],
    ]);
    expect(data[2].rate).toBe(0.125);
    const none = rateData(whole, { total: 0, groups: [] }, resource, 'equclacode', field('equclacode'), dicts);
    expect(none.map((d) => d.rate)).toEqual([0, 0, 0]);
    expect(none.map((d) => d.label)).toEqual(['电梯', '起重机械', '锅炉']);
  });

  it('draws 0–100% bars labelled with the share and both numbers', () => {
    const option = viewOf<{ value: number }>(rateBarOption(data, colors));
    expect(option.xAxis).toMatchObject({ min: 0, max: 100 });
    expect(option.series[0].data.map((d) => d.value)).toEqual([50, 20, 12.5]);
    expect(option.series[0].label.formatter({ dataIndex: 2 })).toBe('12.5%（3 / 24）');
    expect(option.tooltip.formatter([{ dataIndex: 0 }])).toBe('锅炉：50.0%（3 / 6）');
  });
});

describe('a rate line', () => {
  it('has no point (null, not 0%) for a month without rows', () => {
    const points = ratePoints(
      [
        { month: '2026-01', count: 4 },
        { month: '2026-02', count: 0 },
        { month: '2026-03', count: 3 },
      ],
      [
        { month: '2026-01', count: 3 },
        { month: '2026-02', count: 0 },
        { month: '2026-03', count: 0 },
      ],
    );
    expect(points.map((p) => p.rate)).toEqual([75, null, 0]);
    const option = viewOf(rateLineOption('合格率', points, colors));
    expect(option.series[0].data).toEqual([75, null, 0]);
    expect(option.series[0].connectNulls).toBe(false);
    expect(option.yAxis).toMatchObject({ min: 0, max: 100 });
    expect(option.tooltip.formatter([{ dataIndex: 1 }])).toBe('2026-02<br/>合格率：无记录');
    expect(option.tooltip.formatter([{ dataIndex: 0 }])).toBe('2026-01<br/>合格率：75.0%（3 / 4）');
  });

  it('lowers the axis top for a low share, so its trend does not lie flat', () => {
    const low = ratePoints(
      [
        { month: '2026-01', count: 318 },
        { month: '2026-02', count: 0 },
      ],
      [
        { month: '2026-01', count: 37 },
        { month: '2026-02', count: 0 },
      ],
    );
    expect(viewOf(rateLineOption('超期未检率', low, colors)).yAxis).toMatchObject({ min: 0, max: 20, interval: 5 });
    expect(viewOf(rateLineOption('超期未检率', [{ month: '2026-01', part: 1, whole: 3, rate: 33.3 }], colors)).yAxis).toMatchObject({
      max: 40,
      interval: 10,
    });
  });
});

describe('drill-down links', () => {
  const coded = codedParams(resource);
  const chart = { groupBy: 'locationArea', where: { useStatus: '1' }, rate: { nextInspectionDate_lte: 'today-1d' } };

  it("carries the screen's filters, the chart's where and rate, and the clicked value", () => {
    const params = drillParams({ equclacode: ['3000'] }, chart, coded, '330212');
    expect(params).toEqual({ equclacode: ['3000'], useStatus: ['1'], nextInspectionDate_lte: 'today-1d', locationArea: ['330212'] });
    expect(hrefWith('/area/equipment-timeout', params!, '2026-03-10')).toBe(
      '/area/equipment-timeout?equclacode=3000&useStatus=1&nextInspectionDate_lte=2026-03-09&locationArea=330212',
    );
  });

  it('adds the stacked part and keeps the user chosen codes only when they agree', () => {
    const stacked = { groupBy: 'locationArea', stackBy: 'equclacode' };
    expect(drillParams({}, stacked, coded, '330212', '3000')).toEqual({ locationArea: ['330212'], equclacode: ['3000'] });
    expect(drillParams({}, stacked, coded, '330212')).toEqual({ locationArea: ['330212'] });
    expect(drillParams({ equclacode: ['4000'] }, stacked, coded, '330212', '3000')).toBeNull();
  });

  it('gives no link for a blank value or a blank part', () => {
    expect(drillParams({}, chart, coded, null)).toBeNull();
    expect(drillParams({}, chart, coded, '')).toBeNull();
    expect(drillParams({}, { groupBy: 'locationArea', stackBy: 'equclacode' }, coded, '330212', null)).toBeNull();
  });

  it('passes booleans as true / false', () => {
    expect(drillParams({}, { groupBy: 'liftsMoltenMetal' }, coded, true)).toEqual({ liftsMoltenMetal: 'true' });
  });
});
