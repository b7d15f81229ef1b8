/**
 * ECharts options of the engine's charts, as pure data (no React, no DOM): horizontal bars and a
 * donut of counts per value (stats screens and the home desk), lines of counts per month.
 * Colours come in resolved (CSS colours of the current theme).
 */
import type { EChartsCoreOption } from 'echarts/core';
import { percent, rateText, type ChartDatum, type RateDatum, type RatePoint, type StackedData } from './stats';

export interface ChartColors {
  primary: string;
  text: string;
  textSecondary: string;
  /** One per datum, for a donut's slices. */
  slices?: readonly string[];
}

/** The height a bar chart needs for `rows` bars (one line each, never below a small chart's). */
export const barHeight = (rows: number): number => Math.max(160, rows * 30 + 24);

/** How a chart reacts to the pointer: `clickable` charts (a drill-down link) show the hand cursor on their items. */
export interface ChartBehaviour {
  clickable?: boolean;
}

const cursorOf = (behaviour: ChartBehaviour) => (behaviour.clickable ? 'pointer' : 'default');

/** A category axis of value labels: one line each, long names cut with an ellipsis (full name in the tooltip). */
const categoryLabels = (colors: Pick<ChartColors, 'text'>) => ({ width: 112, overflow: 'truncate', color: colors.text, interval: 0 });

/** Bars, largest first (the data's order from the top), each labelled with its count and share. */
export function barOption(data: readonly ChartDatum[], colors: ChartColors, behaviour: ChartBehaviour = {}): EChartsCoreOption {
  return {
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 72, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
    yAxis: {
      type: 'category',
      inverse: true,
      data: data.map((d) => d.label),
      axisTick: { show: false },
      axisLabel: { width: 140, overflow: 'truncate', color: colors.text },
    },
    series: [
      {
        type: 'bar',
        data: data.map((d) => ({ value: d.count, name: d.label, share: d.share })),
        barMaxWidth: 18,
        cursor: cursorOf(behaviour),
        itemStyle: { color: colors.primary, borderRadius: [0, 4, 4, 0] },
        label: {
          show: true,
          position: 'right',
          color: colors.textSecondary,
          formatter: (p: { value: number; dataIndex: number }) => `${p.value}（${percent(data[p.dataIndex].share)}）`,
        },
      },
    ],
  };
}

/** A donut with the total in its hole and a legend (label and count) at its right. */
export function donutOption(data: readonly ChartDatum[], total: number, colors: ChartColors, behaviour: ChartBehaviour = {}): EChartsCoreOption {
  const counts = new Map(data.map((d) => [d.label, d.count]));
  return {
    animation: false,
    color: colors.slices ? [...colors.slices] : undefined,
    tooltip: { trigger: 'item', formatter: (p: { name: string; value: number; percent: number }) => `${p.name}：${p.value}（${p.percent}%）` },
    legend: {
      type: 'scroll',
      orient: 'vertical',
      right: 0,
      top: 'middle',
      width: '42%',
      textStyle: { color: colors.text, width: 120, overflow: 'truncate' },
      formatter: (name: string) => `${name}  ${counts.get(name) ?? ''}`,
    },
    title: {
      text: String(total),
      subtext: '合计',
      left: '27%',
      top: '38%',
      textAlign: 'center',
      textStyle: { fontSize: 24, fontWeight: 600, color: colors.text },
      subtextStyle: { color: colors.textSecondary },
      itemGap: 4,
    },
    series: [
      {
        type: 'pie',
        cursor: cursorOf(behaviour),
        radius: ['48%', '72%'],
        center: ['28%', '50%'],
        avoidLabelOverlap: true,
        label: { show: false },
        itemStyle: { borderColor: '#fff', borderWidth: 1 },
        data: data.map((d) => ({ name: d.label, value: d.count })),
      },
    ],
  };
}

export interface TrendLine {
  label: string;
  points: readonly { month: string; count: number }[];
}

/** One line per series over the same months. */
export function lineOption(lines: readonly TrendLine[], colors: Pick<ChartColors, 'text'>): EChartsCoreOption {
  const months = lines[0]?.points.map((p) => p.month) ?? [];
  return {
    animation: false,
    tooltip: { trigger: 'axis' },
    legend: { top: 0, textStyle: { color: colors.text } },
    grid: { left: 8, right: 32, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: months, boundaryGap: false, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
    series: lines.map((l) => ({ type: 'line', name: l.label, smooth: 0.3, symbolSize: 6, data: l.points.map((p) => p.count) })),
  };
}

/** One sentence for screen readers: "标题：甲 2026-01 3，2026-02 5；乙 …". */
export function describeTrend(title: string, lines: readonly TrendLine[]): string {
  return `${title}：${lines.map((l) => `${l.label} ${l.points.map((p) => `${p.month} ${p.count}`).join('，')}`).join('；')}`;
}

/** The width a stacked chart's legend may fill (a half-width card at 1366 px), for its line count. */
const LEGEND_WIDTH = 460;

/** The room a stacked chart's legend takes above the bars: its entries wrapped into lines of LEGEND_WIDTH. */
export function stackedLegendHeight(data: Pick<StackedData, 'series'>): number {
  let lines = 1;
  let used = 0;
  for (const s of data.series) {
    const width = 14 + 5 + [...s.label].reduce((w, ch) => w + (ch.charCodeAt(0) > 0xff ? 12 : 7), 0) + 12;
    if (used > 0 && used + width > LEGEND_WIDTH) {
      lines++;
      used = 0;
    }
    used += width;
  }
  return lines * 22 + 12;
}

/**
 * Stacked horizontal bars: one bar per group (largest total first, from the top), one series per
 * stack value in its colour with a legend, each bar's total at its end; the tooltip lists the
 * parts of the bar and its total.
 */
export function stackedBarOption(data: StackedData, colors: ChartColors & { series: readonly string[] }, behaviour: ChartBehaviour = {}): EChartsCoreOption {
  const { bars, series, counts } = data;
  return {
    animation: false,
    color: [...colors.series],
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (items: { dataIndex: number; seriesIndex: number; marker: string }[]) => {
        const j = items[0]?.dataIndex ?? 0;
        const parts = items
          .filter((p) => p.seriesIndex < series.length && counts[p.seriesIndex][j] > 0)
          .map((p) => `${p.marker}${series[p.seriesIndex].label}：${counts[p.seriesIndex][j]}`);
        return [`<b>${bars[j]?.label ?? ''}</b>`, ...parts, `合计：${bars[j]?.count ?? 0}`].join('<br/>');
      },
    },
    legend: { type: 'plain', top: 0, left: 0, right: 0, itemGap: 12, itemWidth: 14, data: series.map((s) => s.label), textStyle: { color: colors.text } },
    grid: { left: 8, right: 48, top: stackedLegendHeight(data), bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
    yAxis: { type: 'category', inverse: true, data: bars.map((b) => b.label), axisTick: { show: false }, axisLabel: categoryLabels(colors) },
    series: [
      ...series.map((s, i) => ({
        type: 'bar',
        name: s.label,
        stack: 'total',
        barMaxWidth: 18,
        cursor: cursorOf(behaviour),
        emphasis: { focus: 'series' },
        data: counts[i].map((count) => (count > 0 ? count : null)),
      })),
      // The bar's total at its end: an empty bar on top of the stack carrying the label.
      {
        type: 'bar',
        name: '合计',
        stack: 'total',
        silent: true,
        itemStyle: { color: 'transparent' },
        tooltip: { show: false },
        label: { show: true, position: 'right', color: colors.textSecondary, formatter: (p: { dataIndex: number }) => String(bars[p.dataIndex]?.count ?? '') },
        data: bars.map(() => 0),
      },
    ],
  };
}

/** Rate bars (highest share first, from the top) on a 0–100% axis, each labelled "12.5%（3 / 24）". */
export function rateBarOption(data: readonly RateDatum[], colors: ChartColors, behaviour: ChartBehaviour = {}): EChartsCoreOption {
  return {
    animation: false,
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      formatter: (items: { dataIndex: number }[]) => {
        const d = data[items[0]?.dataIndex ?? 0];
        return d ? `${d.label}：${rateText(d.part, d.whole)}` : '';
      },
    },
    grid: { left: 8, right: 112, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', min: 0, max: 100, interval: 25, axisLabel: { formatter: '{value}%' }, splitLine: { lineStyle: { type: 'dashed' } } },
    yAxis: { type: 'category', inverse: true, data: data.map((d) => d.label), axisTick: { show: false }, axisLabel: categoryLabels(colors) },
    series: [
      {
        type: 'bar',
        data: data.map((d) => ({ value: Math.round(d.rate * 1000) / 10, name: d.label })),
        barMaxWidth: 18,
        cursor: cursorOf(behaviour),
        itemStyle: { color: colors.primary, borderRadius: [0, 4, 4, 0] },
        label: {
          show: true,
          position: 'right',
          color: colors.textSecondary,
          formatter: (p: { dataIndex: number }) => rateText(data[p.dataIndex].part, data[p.dataIndex].whole),
        },
      },
    ],
  };
}

/**
 * The top of a rate line's axis: 100% in general, 20% or 40% when every month stays below it (a
 * low share such as an overdue rate would otherwise lie flat along the bottom), in quarters.
 */
export function rateAxisTop(points: readonly RatePoint[]): number {
  const highest = Math.max(0, ...points.map((p) => p.rate ?? 0));
  return highest <= 20 ? 20 : highest <= 40 ? 40 : 100;
}

/** A line of percentages per month (0–100%, or a lower top for low shares); a month without rows has no point (the line breaks there). */
export function rateLineOption(label: string, points: readonly RatePoint[], colors: Pick<ChartColors, 'text'>): EChartsCoreOption {
  const top = rateAxisTop(points);
  return {
    animation: false,
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number }[]) => {
        const p = points[items[0]?.dataIndex ?? 0];
        return p ? `${p.month}<br/>${label}：${p.whole > 0 ? rateText(p.part, p.whole) : '无记录'}` : '';
      },
    },
    legend: { top: 0, textStyle: { color: colors.text } },
    grid: { left: 8, right: 32, top: 32, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: points.map((p) => p.month), boundaryGap: false, axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value', min: 0, max: top, interval: top / 4, axisLabel: { formatter: '{value}%' }, splitLine: { lineStyle: { type: 'dashed' } } },
    series: [{ type: 'line', name: label, smooth: 0.3, symbolSize: 6, connectNulls: false, data: points.map((p) => p.rate) }],
  };
}

/** One sentence for screen readers: "标题：2026-01 12.5%（3 / 24），2026-02 无记录，…". */
export function describeRateTrend(title: string, points: readonly RatePoint[]): string {
  return `${title}：${points.map((p) => `${p.month} ${p.whole > 0 ? rateText(p.part, p.whole) : '无记录'}`).join('，')}`;
}
