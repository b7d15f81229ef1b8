/**
 * ECharts options of the engine's charts, as pure data (no React, no DOM): horizontal bars and a
 * donut of counts per value (stats screens and the home desk), lines of counts per month.
 * Colours come in resolved (CSS colours of the current theme).
 */
import type { EChartsCoreOption } from 'echarts/core';
import { percent, type ChartDatum } from './stats';

export interface ChartColors {
  primary: string;
  text: string;
  textSecondary: string;
  /** One per datum, for a donut's slices. */
  slices?: readonly string[];
}

/** The height a bar chart needs for `rows` bars (one line each, never below a small chart's). */
export const barHeight = (rows: number): number => Math.max(160, rows * 30 + 24);

/** Bars, largest first (the data's order from the top), each labelled with its count and share. */
export function barOption(data: readonly ChartDatum[], colors: ChartColors): EChartsCoreOption {
  return {
    animation: false,
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 72, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value', minInterval: 1, splitLine: { lineStyle: { type: 'dashed' } } },
    yAxis: { type: 'category', inverse: true, data: data.map((d) => d.label), axisTick: { show: false }, axisLabel: { width: 140, overflow: 'truncate', color: colors.text } },
    series: [
      {
        type: 'bar',
        data: data.map((d) => ({ value: d.count, name: d.label, share: d.share })),
        barMaxWidth: 18,
        itemStyle: { color: colors.primary, borderRadius: [0, 4, 4, 0] },
        label: { show: true, position: 'right', color: colors.textSecondary, formatter: (p: { value: number; dataIndex: number }) => `${p.value}（${percent(data[p.dataIndex].share)}）` },
      },
    ],
  };
}

/** A donut with the total in its hole and a legend (label and count) at its right. */
export function donutOption(data: readonly ChartDatum[], total: number, colors: ChartColors): EChartsCoreOption {
  const counts = new Map(data.map((d) => [d.label, d.count]));
  return {
    animation: false,
    color: colors.slices ? [...colors.slices] : undefined,
    tooltip: { trigger: 'item', formatter: (p: { name: string; value: number; percent: number }) => `${p.name}：${p.value}（${p.percent}%）` },
    legend: { type: 'scroll', orient: 'vertical', right: 0, top: 'middle', width: '42%', textStyle: { color: colors.text, width: 120, overflow: 'truncate' }, formatter: (name: string) => `${name}  ${counts.get(name) ?? ''}` },
    title: { text: String(total), subtext: '合计', left: '27%', top: '38%', textAlign: 'center', textStyle: { fontSize: 24, fontWeight: 600, color: colors.text }, subtextStyle: { color: colors.textSecondary }, itemGap: 4 },
    series: [{ type: 'pie', radius: ['48%', '72%'], center: ['28%', '50%'], avoidLabelOverlap: true, label: { show: false }, itemStyle: { borderColor: '#fff', borderWidth: 1 }, data: data.map((d) => ({ name: d.label, value: d.count })) }],
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
