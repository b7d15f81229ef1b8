/**
 * Two small charts without a chart library: horizontal bars (divs) and a donut (SVG circles with
 * dash arrays). Each is one `role="img"` with a sentence as its label; the values and labels are
 * also visible as text (bar labels and counts, the donut's legend) and as a table (ChartTable).
 */
import { Table, theme, Typography } from 'antd';
import type { GlobalToken } from 'antd';
import { describeChart, percent, slices, sliceColors, type ChartDatum } from './stats';

interface ChartProps {
  title: string;
  data: readonly ChartDatum[];
  total: number;
}

/** A colour name (antd preset or #rrggbb) as a CSS colour of the current theme. */
function cssColor(token: GlobalToken, name: string): string {
  if (name.startsWith('#')) return name;
  const preset = (token as unknown as Record<string, unknown>)[name];
  return typeof preset === 'string' ? preset : token.colorTextQuaternary;
}

/** Horizontal bars, largest first, each with its label and count; the longest bar fills the width. */
export function BarChart({ title, data, total }: ChartProps) {
  const { token } = theme.useToken();
  const max = Math.max(1, ...data.map((d) => d.count));
  return (
    <div role="img" aria-label={describeChart(title, data, total)} className="engine-bar-chart" style={{ display: 'grid', gridTemplateColumns: 'minmax(72px, max-content) 1fr auto', gap: '10px 12px', alignItems: 'center' }}>
      {data.map((d) => (
        <BarRow key={d.key} datum={d} width={(d.count / max) * 100} color={token.colorPrimary} track={token.colorFillQuaternary} />
      ))}
    </div>
  );
}

function BarRow({ datum, width, color, track }: { datum: ChartDatum; width: number; color: string; track: string }) {
  return (
    <>
      <Typography.Text ellipsis={{ tooltip: datum.label }} style={{ maxWidth: 200 }}>
        {datum.label}
      </Typography.Text>
      <div style={{ background: track, borderRadius: 4, height: 16, minWidth: 40 }}>
        <div style={{ width: `${Math.max(width, datum.count > 0 ? 1 : 0)}%`, height: '100%', background: color, borderRadius: 4 }} />
      </div>
      <Typography.Text style={{ fontVariantNumeric: 'tabular-nums', textAlign: 'right', whiteSpace: 'nowrap' }}>
        {datum.count}
        <Typography.Text type="secondary" style={{ marginLeft: 6, fontSize: 12 }}>
          {percent(datum.share)}
        </Typography.Text>
      </Typography.Text>
    </>
  );
}

const SIZE = 180;
const STROKE = 28;
const RADIUS = (SIZE - STROKE) / 2;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** A donut with the total in its hole and a legend (label, count, share) beside it. */
export function DonutChart({ title, data, total }: ChartProps) {
  const { token } = theme.useToken();
  const parts = slices(data);
  const colors = sliceColors(parts).map((c) => cssColor(token, c));
  let offset = 0;
  const arcs = parts.map((d, i) => {
    const length = total > 0 ? (d.count / total) * CIRCUMFERENCE : 0;
    const arc = { d, color: colors[i], length, offset };
    offset += length;
    return arc;
  });
  // A thin gap between slices reads better, but only when there is more than one.
  const gap = arcs.filter((a) => a.length > 0).length > 1 ? 1.5 : 0;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 24 }}>
      <svg role="img" aria-label={describeChart(title, data, total)} className="engine-donut-chart" width={SIZE} height={SIZE} viewBox={`0 0 ${SIZE} ${SIZE}`} style={{ flex: 'none' }}>
        <circle cx={SIZE / 2} cy={SIZE / 2} r={RADIUS} fill="none" stroke={token.colorFillQuaternary} strokeWidth={STROKE} />
        <g transform={`rotate(-90 ${SIZE / 2} ${SIZE / 2})`}>
          {arcs.map(({ d, color, length, offset: start }) =>
            length > 0 ? (
              <circle
                key={d.key}
                cx={SIZE / 2}
                cy={SIZE / 2}
                r={RADIUS}
                fill="none"
                stroke={color}
                strokeWidth={STROKE}
                strokeDasharray={`${Math.max(length - gap, 0.5)} ${CIRCUMFERENCE}`}
                strokeDashoffset={-start}
              >
                <title>{`${d.label} ${d.count}（${percent(d.share)}）`}</title>
              </circle>
            ) : null,
          )}
        </g>
        <text x="50%" y="47%" textAnchor="middle" fontSize={26} fontWeight={600} fill={token.colorText} aria-hidden="true">
          {total}
        </text>
        <text x="50%" y="62%" textAnchor="middle" fontSize={12} fill={token.colorTextSecondary} aria-hidden="true">
          合计
        </text>
      </svg>
      <ul className="engine-chart-legend" style={{ listStyle: 'none', margin: 0, padding: 0, flex: '1 1 160px', display: 'grid', gap: 8 }}>
        {arcs.map(({ d, color }) => (
          <li key={d.key} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <span aria-hidden="true" style={{ width: 10, height: 10, borderRadius: 2, background: color, flex: 'none' }} />
            <Typography.Text ellipsis={{ tooltip: d.label }} style={{ flex: 1, minWidth: 0 }}>
              {d.label}
            </Typography.Text>
            <Typography.Text style={{ fontVariantNumeric: 'tabular-nums' }}>{d.count}</Typography.Text>
            <Typography.Text type="secondary" style={{ width: 52, textAlign: 'right', fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
              {percent(d.share)}
            </Typography.Text>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Every value as a table row: the chart's text alternative. */
export function ChartTable({ title, data, total, groupLabel }: ChartProps & { groupLabel: string }) {
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
