/**
 * The 办理时效 table's arithmetic (src/engine/stats/FlowTimes.tsx): the share finished, which
 * workflow is singled out as slowest, the day text and the chart's sentence and bars; and the
 * server's reading of `months` (src/server/resources/flow-times.ts).
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/data/provider';
import { days, describeFlowTimes, flowTimesOption, flowTimesRow, isForbidden, slowest } from '../../src/engine/stats/FlowTimes';
import { flowMonthRange } from '../../src/server/resources/flow-times';

const row = (resource: string, submitted: number, finished: number, avgDays: number | null, p90Days: number | null) =>
  flowTimesRow(resource, `业务${resource}`, { submitted, finished, avgDays, p90Days });

describe('flow times table', () => {
  it('gives the share finished, none when nothing was submitted', () => {
    expect(row('a', 4, 1, 2, 3).rate).toBe(0.25);
    expect(row('a', 0, 0, null, null).rate).toBeNull();
  });

  it('singles out the largest 90th percentile (all of equals), nothing when all are alike or alone', () => {
    expect([...slowest([row('a', 3, 2, 1, 2.5), row('b', 3, 2, 4, 9.1), row('c', 1, 0, null, null)])]).toEqual(['b']);
    expect([...slowest([row('a', 3, 2, 1, 9.1), row('b', 3, 2, 4, 9.1), row('c', 3, 2, 1, 1)])]).toEqual(['a', 'b']);
    expect(slowest([row('a', 3, 2, 0, 0), row('b', 3, 2, 0, 0)]).size).toBe(0);
    expect(slowest([row('a', 3, 2, 1, 5)]).size).toBe(0);
    expect(slowest([]).size).toBe(0);
  });

  it('writes days with one decimal and a dash for none', () => {
    expect(days(8)).toBe('8.0');
    expect(days(7.6)).toBe('7.6');
    expect(days(null)).toBe('—');
  });

  it('describes and draws each workflow with its two figures, in the table order', () => {
    const rows = [row('a', 3, 2, 1.5, 2), row('b', 5, 5, 10, 12.3)];
    expect(describeFlowTimes('办理时效', rows)).toBe('办理时效：业务a平均1.5天，90%在2.0天内；业务b平均10.0天，90%在12.3天内');
    const option = flowTimesOption(rows, { average: '#1', p90: '#2', text: '#3', textSecondary: '#4' }) as {
      yAxis: { data: string[] };
      series: { name: string; data: number[] }[];
    };
    expect(option.yAxis.data).toEqual(['业务a', '业务b']);
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ['平均用时', [1.5, 10]],
      ['90%用时', [2, 12.3]],
    ]);
  });

  it('leaves out a resource only when the read was refused for lack of access', () => {
    expect(isForbidden(new EngineError('无权访问', { code: 'FORBIDDEN' }))).toBe(true);
    expect(isForbidden(new EngineError('x', { cause: Object.assign(new Error('x'), { status: 403 }) }))).toBe(true);
    expect(isForbidden(new EngineError('服务器错误', { cause: Object.assign(new Error('x'), { status: 500 }) }))).toBe(false);
  });
});

describe('flow times months', () => {
  it('defaults to the last twelve months and reads <from>,<to>', () => {
    expect(flowMonthRange(undefined)).toEqual([-11, 0]);
    expect(flowMonthRange('')).toEqual([-11, 0]);
    expect(flowMonthRange('-2,-1')).toEqual([-2, -1]);
    expect(flowMonthRange(' -60 , 0 ')).toEqual([-60, 0]);
  });

  it.each(['0', '-1,-2', 'a,b', '-1,1', '-61,0', '-1,0,1', '1.5,2', ',0', '-1,'])('refuses %j', (months) => {
    expect(() => flowMonthRange(months)).toThrow();
  });
});
