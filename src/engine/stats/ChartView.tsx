/**
 * The engine's charts: counts per value as bars or a donut, counts per month as lines — drawn by
 * ECharts (EChart.tsx, loaded lazily so only pages with charts download it), each one `role="img"`
 * labelled with a sentence of its values, and each with its text alternative (ChartTable,
 * TrendTable) that the chart cards show on 表格.
 */
import { Card, Segmented, Skeleton, Table, theme } from 'antd';
import type { GlobalToken } from 'antd';
import { lazy, Suspense, useMemo, type CSSProperties, type ReactNode } from 'react';
import { barHeight, barOption, describeTrend, donutOption, lineOption, type TrendLine } from './chart-options';
import { describeChart, percent, sliceColors, slices, type ChartDatum } from './stats';

const EChart = lazy(() => import('./EChart'));

/** antd Tag status colours (a dictionary's `color` may name one) as theme tokens. */
const STATUS_TOKENS: Record<string, keyof GlobalToken> = { success: 'colorSuccess', processing: 'colorPrimary', warning: 'colorWarning', error: 'colorError', default: 'colorTextQuaternary' };

/** A colour name (antd preset, Tag status or #rrggbb) as a CSS colour of the current theme. */
function cssColor(token: GlobalToken, name: string): string {
  if (name.startsWith('#')) return name;
  const preset = (token as unknown as Record<string, unknown>)[STATUS_TOKENS[name] ?? name];
  return typeof preset === 'string' ? preset : token.colorTextQuaternary;
}

function Lazy({ height, children }: { height: number; children: ReactNode }) {
  return <Suspense fallback={<Skeleton.Node active style={{ width: '100%', height }} />}>{children}</Suspense>;
}

/** What a chart card shows: the chart or its table. */
export type ChartViewMode = 'chart' | 'table';

/** A chart's card with its 图表 / 表格 switch; `bodyStyle` styles the card's body. */
export function ChartFrame({ title, view, onView, bodyStyle, children }: { title: string; view: ChartViewMode; onView: (view: ChartViewMode) => void; bodyStyle?: CSSProperties; children: ReactNode }) {
  return (
    <Card
      size="small"
      title={title}
      className="engine-chart-card"
      style={{ height: '100%' }}
      styles={bodyStyle && { body: bodyStyle }}
      extra={
        <Segmented<ChartViewMode>
          size="small"
          value={view}
          onChange={onView}
          options={[
            { value: 'chart', label: '图表' },
            { value: 'table', label: '表格' },
          ]}
          aria-label={`${title}的显示方式`}
        />
      }
    >
      {children}
    </Card>
  );
}

export interface GroupChartProps {
  title: string;
  type: 'bar' | 'pie';
  data: readonly ChartDatum[];
  total: number;
}

/** Counts per value: bars (largest first) or a donut of at most MAX_SLICES slices. */
export function GroupChart({ title, type, data, total }: GroupChartProps) {
  const { token } = theme.useToken();
  const { option, height } = useMemo(() => {
    const base = { primary: token.colorPrimary, text: token.colorText, textSecondary: token.colorTextSecondary };
    if (type === 'pie') {
      const parts = slices(data);
      return { option: donutOption(parts, total, { ...base, slices: sliceColors(parts).map((c) => cssColor(token, c)) }), height: 240 };
    }
    return { option: barOption(data, base), height: barHeight(data.length) };
  }, [token, type, data, total]);
  return (
    <Lazy height={height}>
      <EChart option={option} label={describeChart(title, data, total)} height={height} />
    </Lazy>
  );
}

/** Counts per month, one line per series. */
export function TrendChart({ title, lines }: { title: string; lines: readonly TrendLine[] }) {
  const { token } = theme.useToken();
  const option = useMemo(() => lineOption(lines, { text: token.colorText }), [lines, token]);
  return (
    <Lazy height={260}>
      <EChart option={option} label={describeTrend(title, lines)} />
    </Lazy>
  );
}

/** Every value as a table row, with the total: a group chart's text alternative. */
export function ChartTable({ title, data, total, groupLabel }: { title: string; data: readonly ChartDatum[]; total: number; groupLabel: string }) {
  return (
    <Table<ChartDatum>
      size="small"
      rowKey="key"
      pagination={false}
      aria-label={title}
      dataSource={[...data]}
      columns={[
        { key: 'label', dataIndex: 'label', title: groupLabel },
        { key: 'count', dataIndex: 'count', title: '数量', align: 'right' },
        { key: 'share', dataIndex: 'share', title: '占比', align: 'right', render: (share: number) => percent(share) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            {total}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={2} align="right">
            {total > 0 ? '100.0%' : ''}
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

/** Every month as a table row, one column per series: a trend chart's text alternative. */
export function TrendTable({ title, lines }: { title: string; lines: readonly TrendLine[] }) {
  const months = lines[0]?.points.map((p) => p.month) ?? [];
  const rows = months.map((month, i) => ({ month, ...Object.fromEntries(lines.map((l, j) => [`l${j}`, l.points[i]?.count ?? 0])) }));
  return (
    <Table
      size="small"
      rowKey="month"
      pagination={false}
      aria-label={title}
      dataSource={rows}
      scroll={{ y: 260 }}
      columns={[{ key: 'month', dataIndex: 'month', title: '月份' }, ...lines.map((l, j) => ({ key: `l${j}`, dataIndex: `l${j}`, title: l.label, align: 'right' as const }))]}
    />
  );
}
