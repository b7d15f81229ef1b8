/** The home desk's layout rules (src/pages/home/layout.ts): charts fill their rows; quick entries name what an area holds. */
import { describe, expect, it } from 'vitest';
import { entrySummary, fullWidthCharts } from '../../src/pages/home/layout';

describe('desk charts fill their rows', () => {
  it('puts two bar or pie charts side by side and gives a trend line, or a chart left alone, the whole row', () => {
    expect(fullWidthCharts(['pie'])).toEqual([true]);
    expect(fullWidthCharts(['pie', 'pie'])).toEqual([false, false]);
    expect(fullWidthCharts(['bar', 'pie', 'line', 'pie', 'pie'])).toEqual([false, false, true, false, false]);
    expect(fullWidthCharts(['bar', 'pie', 'line', 'pie'])).toEqual([false, false, true, true]);
    expect(fullWidthCharts(['bar', 'line', 'pie', 'pie', 'pie'])).toEqual([true, true, false, false, true]);
    expect(fullWidthCharts([])).toEqual([]);
  });
});

describe('quick entries', () => {
  const page = (title: string) => ({ key: `/${title}`, title });
  it('names the first pages of an area and how many it holds', () => {
    expect(entrySummary([page('账号注册审核'), page('使用登记审核'), page('首次登记审核')])).toBe('账号注册审核、使用登记审核 等 3 项');
    expect(entrySummary([page('账号管理'), page('公告发布')])).toBe('账号管理、公告发布');
    expect(entrySummary([page('通知公告')])).toBe('通知公告');
  });
});
