/**
 * The engine's charts: counts per value as bars or a donut, counts per month as lines — drawn by
 * ECharts (EChart.tsx, loaded lazily so only pages with charts download it), each one `role="img"`
 * labelled with a sentence of its values, and each with its text alternative (ChartTable,
 * TrendTable) that the chart cards show on 表格.
 */
import { Card, Segmented, Skeleton, Table, theme } from 'antd';
import type { GlobalToken } from 'antd';
import { lazy, Suspense, useMemo, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  barHeight,
  barOption,
  stackedLegendHeight,
  describeRateTrend,
  describeTrend,
  donutOption,
  lineOption,
  rateBarOption,
  rateLineOption,
  stackedBarOption,
  type TrendLine,
} from './chart-options';
import type { ChartPick } from './EChart';
import {
  describeChart,
  describeRates,
  describeStacked,
  percent,
  rateText,
  sliceColors,
  slices,
  type ChartDatum,
  type RateDatum,
  type RatePoint,
  type StackedData,
} from './stats';

const EChart = lazy(() => import('./EChart'));

/** antd Tag status colours (a dictionary's `color` may name one) as theme tokens. */
const STATUS_TOKENS: Record<string, keyof GlobalToken> = {
  success: 'colorSuccess',
  processing: 'colorPrimary',
  warning: 'colorWarning',
  error: 'colorError',
  default: 'colorTextQuaternary',
};

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
export function ChartFrame({
  title,
  view,
  onView,
  bodyStyle,
  children,
}: {
  title: string;
  view: ChartViewMode;
  onView: (view: ChartViewMode) => void;
  bodyStyle?: CSSProperties;
  children: ReactNode;
}) {
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
  /** A click on a bar or a slice (not 其他): the datum (clickable charts show the hand cursor). */
  onPick?: (datum: ChartDatum) => void;
}

/** Counts per value: bars (largest first) or a donut of at most MAX_SLICES slices. */
export function GroupChart({ title, type, data, total, onPick }: GroupChartProps) {
  const { token } = theme.useToken();
  const clickable = onPick !== undefined;
  const { option, height, parts } = useMemo(() => {
    const base = { primary: token.colorPrimary, text: token.colorText, textSecondary: token.colorTextSecondary };
    if (type === 'pie') {
      const parts = slices(data);
      return { option: donutOption(parts, total, { ...base, slices: sliceColors(parts).map((c) => cssColor(token, c)) }, { clickable }), height: 240, parts };
    }
    return { option: barOption(data, base, { clickable }), height: barHeight(data.length), parts: data };
  }, [token, type, data, total, clickable]);
  const pick = onPick && (({ dataIndex }: ChartPick) => parts[dataIndex] && parts[dataIndex].key !== '__other' && onPick(parts[dataIndex]));
  return (
    <Lazy height={height}>
      <EChart option={option} label={describeChart(title, data, total)} height={height} onPick={pick} />
    </Lazy>
  );
}

/** The colours of a stacked chart's series: a code's own colour when distinct, else the palette's next. */
function seriesColors(token: GlobalToken, data: StackedData): string[] {
  return sliceColors(data.series.map((s) => ({ key: s.key, label: s.label, count: 0, share: 0, color: s.color }))).map((c) => cssColor(token, c));
}

/** Stacked bars: a bar per group, a coloured part per stack value, a legend. `onPick(bar, series)` on a part. */
export function StackedChart({ title, data, onPick }: { title: string; data: StackedData; onPick?: (bar: number, series: number) => void }) {
  const { token } = theme.useToken();
  const clickable = onPick !== undefined;
  const option = useMemo(
    () =>
      stackedBarOption(
        data,
        { primary: token.colorPrimary, text: token.colorText, textSecondary: token.colorTextSecondary, series: seriesColors(token, data) },
        { clickable },
      ),
    [token, data, clickable],
  );
  const height = barHeight(data.bars.length) + stackedLegendHeight(data);
  const pick = onPick && (({ seriesIndex, dataIndex }: ChartPick) => seriesIndex < data.series.length && onPick(dataIndex, seriesIndex));
  return (
    <Lazy height={height}>
      <EChart option={option} label={describeStacked(title, data)} height={height} onPick={pick} />
    </Lazy>
  );
}

/** Rate bars (0–100%), highest first, each with its share and both numbers. */
export function RateChart({ title, data, onPick }: { title: string; data: readonly RateDatum[]; onPick?: (datum: RateDatum) => void }) {
  const { token } = theme.useToken();
  const clickable = onPick !== undefined;
  const option = useMemo(
    () => rateBarOption(data, { primary: token.colorPrimary, text: token.colorText, textSecondary: token.colorTextSecondary }, { clickable }),
    [token, data, clickable],
  );
  const height = barHeight(data.length);
  const pick = onPick && (({ dataIndex }: ChartPick) => data[dataIndex] && onPick(data[dataIndex]));
  return (
    <Lazy height={height}>
      <EChart option={option} label={describeRates(title, data)} height={height} onPick={pick} />
    </Lazy>
  );
}

/** A rate per month as a line of percentages (months without rows: no point). */
export function RateTrendChart({ title, label, points }: { title: string; label: string; points: readonly RatePoint[] }) {
  const { token } = theme.useToken();
  const option = useMemo(() => rateLineOption(label, points, { text: token.colorText }), [label, points, token]);
  return (
    <Lazy height={260}>
      <EChart option={option} label={describeRateTrend(title, points)} />
    </Lazy>
  );
}

/** A cell's text as a link when it has a route. */
const linked = (text: ReactNode, href: string | undefined) => (href ? <Link to={href}>{text}</Link> : text);

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
export function ChartTable({
  title,
  data,
  total,
  groupLabel,
  hrefOf,
}: {
  title: string;
  data: readonly ChartDatum[];
  total: number;
  groupLabel: string;
  hrefOf?: (datum: ChartDatum) => string | undefined;
}) {
  return (
    <Table<ChartDatum>
      size="small"
      rowKey="key"
      pagination={false}
      aria-label={title}
      dataSource={[...data]}
      columns={[
        { key: 'label', dataIndex: 'label', title: groupLabel },
        { key: 'count', dataIndex: 'count', title: '数量', align: 'right', render: (count: number, d) => linked(count, hrefOf?.(d)) },
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
      columns={[
        { key: 'month', dataIndex: 'month', title: '月份' },
        ...lines.map((l, j) => ({ key: `l${j}`, dataIndex: `l${j}`, title: l.label, align: 'right' as const })),
      ]}
    />
  );
}

/** A stacked chart's text alternative: a row per bar, a column per stack value, and 合计 (cells link to their rows). */
export function StackedTable({
  title,
  data,
  groupLabel,
  hrefOf,
}: {
  title: string;
  data: StackedData;
  groupLabel: string;
  hrefOf?: (bar: number, series?: number) => string | undefined;
}) {
  const rows = data.bars.map((bar, j) => ({ key: bar.key, j, label: bar.label, total: bar.count }));
  const sums = data.series.map((_, i) => data.counts[i].reduce((a, b) => a + b, 0));
  return (
    <Table
      size="small"
      rowKey="key"
      pagination={false}
      aria-label={title}
      dataSource={rows}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'label', dataIndex: 'label', title: groupLabel, fixed: 'left' as const },
        ...data.series.map((s, i) => ({
          key: `s${i}`,
          title: s.label,
          align: 'right' as const,
          render: (_: unknown, row: (typeof rows)[number]) => {
            const count = data.counts[i][row.j];
            return count > 0 ? linked(count, hrefOf?.(row.j, i)) : <span style={{ color: 'rgba(0,0,0,0.25)' }}>0</span>;
          },
        })),
        {
          key: 'total',
          dataIndex: 'total',
          title: '合计',
          align: 'right' as const,
          render: (total: number, row: (typeof rows)[number]) => <b>{linked(total, hrefOf?.(row.j))}</b>,
        },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
          {sums.map((sum, i) => (
            <Table.Summary.Cell key={i} index={i + 1} align="right">
              {sum}
            </Table.Summary.Cell>
          ))}
          <Table.Summary.Cell index={sums.length + 1} align="right">
            <b>{data.total}</b>
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

/** A rate chart's text alternative: a row per value with its share and both numbers (linking to the matching rows). */
export function RateTable({
  title,
  data,
  groupLabel,
  rateLabel,
  hrefOf,
}: {
  title: string;
  data: readonly RateDatum[];
  groupLabel: string;
  rateLabel: string;
  hrefOf?: (datum: RateDatum) => string | undefined;
}) {
  const part = data.reduce((sum, d) => sum + d.part, 0);
  const whole = data.reduce((sum, d) => sum + d.whole, 0);
  return (
    <Table<RateDatum>
      size="small"
      rowKey="key"
      pagination={false}
      aria-label={title}
      dataSource={[...data]}
      columns={[
        { key: 'label', dataIndex: 'label', title: groupLabel },
        { key: 'rate', title: rateLabel, align: 'right', render: (_: unknown, d) => linked(rateText(d.part, d.whole), hrefOf?.(d)) },
      ]}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0}>合计</Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            {rateText(part, whole)}
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
    />
  );
}

/** A rate line's text alternative: every month with its share and both numbers (无记录 without rows). */
export function RateTrendTable({ title, label, points }: { title: string; label: string; points: readonly RatePoint[] }) {
  return (
    <Table<RatePoint>
      size="small"
      rowKey="month"
      pagination={false}
      aria-label={title}
      dataSource={[...points]}
      scroll={{ y: 260 }}
      columns={[
        { key: 'month', dataIndex: 'month', title: '月份' },
        { key: 'rate', title: label, align: 'right', render: (_: unknown, p) => (p.whole > 0 ? rateText(p.part, p.whole) : '无记录') },
      ]}
    />
  );
}
