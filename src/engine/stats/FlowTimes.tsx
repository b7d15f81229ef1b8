/**
 * A stats screen's `flowTimes` table: per resource with a workflow (in the screen's order, each
 * labelled with its resource's title), the rows first submitted within the months, how many were
 * finished, the share finished, and the average and 90th-percentile days from submission to a final
 * state (`GET /r/<resource>/flow-times`, all read in parallel). A resource the user may not list is
 * left out. The slowest 90th percentile is shown in red; the day columns sort. Beside the table,
 * bars of the two day figures per resource (ECharts, lazily loaded) with a sentence as their label.
 */
import { Card, Col, Empty, Row, Skeleton, Table, Typography, theme } from 'antd';
import type { GlobalToken } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { EChartsCoreOption } from 'echarts/core';
import { lazy, Suspense, useLayoutEffect, useMemo, useRef, useState } from 'react';
import useSWR from 'swr';
import type { StatsFlowTimes } from '../../schema/generated/screen';
import { useEngine } from '../context';
import { toEngineError, type EngineError, type FlowTimesResult } from '../data/provider';
import { LoadFailed } from '../ui';
import { percent } from './stats';

const EChart = lazy(() => import('./EChart'));

/** One resource's figures, as a table row. */
export interface FlowTimesRow extends FlowTimesResult {
  resource: string;
  title: string;
  /** finished / submitted; null when nothing was submitted. */
  rate: number | null;
}

const DEFAULT_MONTHS: readonly [number, number] = [-11, 0];

/** Whether a failed read means the user may not list the resource (then its row is left out). */
export function isForbidden(error: EngineError): boolean {
  const status = (error.cause as { status?: unknown } | undefined)?.status;
  return error.code === 'FORBIDDEN' || error.code === 'ACTION_NOT_PERMITTED' || status === 403;
}

/** The row of a resource's figures. */
export function flowTimesRow(resource: string, title: string, result: FlowTimesResult): FlowTimesRow {
  return { ...result, resource, title, rate: result.submitted > 0 ? result.finished / result.submitted : null };
}

/**
 * The resources with the largest 90th percentile, when there is something to single out: at least
 * two resources have one and they differ (all equal, none is slower than the others).
 */
export function slowest(rows: readonly FlowTimesRow[]): ReadonlySet<string> {
  const timed = rows.filter((r) => r.p90Days !== null);
  const values = timed.map((r) => r.p90Days!);
  const max = Math.max(...values);
  if (timed.length < 2 || max === Math.min(...values)) return new Set();
  return new Set(timed.filter((r) => r.p90Days === max).map((r) => r.resource));
}

/** Days as text (one decimal), a dash for none. */
export const days = (value: number | null): string => (value === null ? '—' : value.toFixed(1));

/** Ascending order of nullable numbers, blanks last whichever way the column sorts. */
const byDays = (key: 'avgDays' | 'p90Days') => (a: FlowTimesRow, b: FlowTimesRow, order?: 'ascend' | 'descend' | null) => {
  const x = a[key];
  const y = b[key];
  if (x === null && y === null) return 0;
  if (x === null) return order === 'descend' ? -1 : 1;
  if (y === null) return order === 'descend' ? 1 : -1;
  return x - y;
};

/** The chart's sentence: each resource's average and 90th-percentile days. */
export function describeFlowTimes(title: string, rows: readonly FlowTimesRow[]): string {
  return `${title}：${rows.map((r) => `${r.title}平均${days(r.avgDays)}天，90%在${days(r.p90Days)}天内`).join('；')}`;
}

/** Horizontal bars, two per resource (average, 90th percentile), in the table's order from the top. */
export function flowTimesOption(
  rows: readonly FlowTimesRow[],
  colors: { average: string; p90: string; text: string; textSecondary: string },
): EChartsCoreOption {
  const bar = (name: string, color: string, key: 'avgDays' | 'p90Days') => ({
    type: 'bar',
    name,
    data: rows.map((r) => r[key]),
    barMaxWidth: 10,
    barGap: '20%',
    itemStyle: { color, borderRadius: [0, 3, 3, 0] },
    label: { show: true, position: 'right', color: colors.textSecondary, fontSize: 11, formatter: (p: { value: number }) => p.value.toFixed(1) },
  });
  return {
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => `${days(v)} 天` },
    legend: { top: 0, right: 0, textStyle: { color: colors.text } },
    grid: { left: 8, right: 40, top: 28, bottom: 4, containLabel: true },
    xAxis: { type: 'value', name: '天', nameTextStyle: { color: colors.textSecondary }, splitLine: { lineStyle: { type: 'dashed' } } },
    yAxis: {
      type: 'category',
      inverse: true,
      data: rows.map((r) => r.title),
      axisTick: { show: false },
      axisLabel: { width: 112, overflow: 'truncate', color: colors.text },
    },
    series: [bar('平均用时', colors.average, 'avgDays'), bar('90%用时', colors.p90, 'p90Days')],
  };
}

/** Height of the chart for `rows` resources (two thin bars each). */
const chartHeight = (rows: number): number => Math.max(180, rows * 36 + 40);

export default function FlowTimesCard({ flowTimes }: { flowTimes: StatsFlowTimes }) {
  const { dataProvider, registry, cacheScope } = useEngine();
  const { token } = theme.useToken();
  // A gap above the card only below other parts of the screen (cards, charts), not right under its title.
  const ref = useRef<HTMLDivElement>(null);
  const [spaced, setSpaced] = useState(true);
  useLayoutEffect(() => {
    let above = ref.current?.previousElementSibling;
    while (above && above.tagName === 'STYLE') above = above.previousElementSibling;
    setSpaced(above != null);
  }, []);
  const months = (flowTimes.months as readonly [number, number] | undefined) ?? DEFAULT_MONTHS;
  const {
    data: rows,
    error,
    isLoading,
    mutate,
  } = useSWR<FlowTimesRow[], EngineError>(
    ['engine', 'flow-times', cacheScope, JSON.stringify({ resources: flowTimes.resources, months })],
    async () => {
      const read = dataProvider.flowTimes?.bind(dataProvider);
      if (!read) throw new Error('当前数据源不支持统计');
      const all = await Promise.all(
        flowTimes.resources.map(async (name): Promise<FlowTimesRow | null> => {
          const [resource, result] = await Promise.all([
            registry.resource(name),
            read(name, { months }).catch((e: unknown) => {
              const failure = toEngineError(e);
              if (isForbidden(failure)) return null;
              throw failure;
            }),
          ]);
          return result && flowTimesRow(name, resource.title, result);
        }),
      ).catch((e: unknown) => Promise.reject(toEngineError(e)));
      return all.filter((r): r is FlowTimesRow => r !== null);
    },
    { keepPreviousData: true },
  );

  let content;
  if (error && !rows) content = <LoadFailed error={error} onRetry={() => void mutate()} />;
  else if (isLoading && !rows) content = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (!rows || rows.length === 0 || rows.every((r) => r.submitted === 0)) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else content = <FlowTimesBody title={flowTimes.title} rows={rows} token={token} />;

  return (
    <Card
      ref={ref}
      size="small"
      title={flowTimes.title}
      className="engine-flow-times"
      style={spaced ? { marginTop: 16 } : undefined}
      styles={{ body: { padding: 16 } }}
    >
      {content}
    </Card>
  );
}

function FlowTimesBody({ title, rows, token }: { title: string; rows: readonly FlowTimesRow[]; token: GlobalToken }) {
  const slow = slowest(rows);
  // Bars only when some workflow took time (all zero or none finished: the table says it all).
  const charted = useMemo(() => (rows.some((r) => (r.p90Days ?? 0) > 0) ? rows.filter((r) => r.avgDays !== null) : []), [rows]);
  const option = useMemo(
    () => flowTimesOption(charted, { average: token.colorPrimary, p90: token.colorWarning, text: token.colorText, textSecondary: token.colorTextSecondary }),
    [charted, token],
  );
  const number = { align: 'right' as const };
  const columns: ColumnsType<FlowTimesRow> = [
    { key: 'title', dataIndex: 'title', title: '业务' },
    { key: 'submitted', dataIndex: 'submitted', title: '提交数', width: 76, ...number },
    { key: 'finished', dataIndex: 'finished', title: '办结数', width: 76, ...number },
    { key: 'rate', dataIndex: 'rate', title: '办结率', width: 80, ...number, render: (rate: number | null) => (rate === null ? '—' : percent(rate)) },
    { key: 'avgDays', dataIndex: 'avgDays', title: '平均用时（天）', width: 136, ...number, sorter: byDays('avgDays'), render: days },
    {
      key: 'p90Days',
      dataIndex: 'p90Days',
      title: '90%用时（天）',
      width: 136,
      ...number,
      sorter: byDays('p90Days'),
      render: (value: number | null, row) =>
        slow.has(row.resource) ? (
          <Typography.Text strong style={{ color: token.colorErrorText }} aria-label={`${days(value)}（最慢）`} title="90%用时最长">
            {days(value)}
          </Typography.Text>
        ) : (
          days(value)
        ),
    },
  ];
  const height = chartHeight(charted.length);
  return (
    <Row gutter={[24, 16]}>
      <Col xs={24} xl={charted.length > 0 ? 15 : 24}>
        <Table<FlowTimesRow>
          size="small"
          rowKey="resource"
          pagination={false}
          aria-label={title}
          dataSource={[...rows]}
          columns={columns}
          sortDirections={['descend', 'ascend']}
          style={{ fontVariantNumeric: 'tabular-nums' }}
        />
      </Col>
      {charted.length > 0 && (
        <Col xs={24} xl={9}>
          <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height }} />}>
            <EChart option={option} label={describeFlowTimes(title, charted)} height={height} />
          </Suspense>
        </Col>
      )}
    </Row>
  );
}
