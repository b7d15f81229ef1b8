/**
 * An ECharts option read back in assertions: the parts the engine's charts set
 * (src/engine/stats/chart-options.ts), typed as they are built. The ECharts option types are
 * unions too wide to index, so a test reads the option through this view; `D` is the type of a
 * series' data items (`{ name, value }` for bars and donuts, numbers for lines).
 */
import type { EChartsCoreOption } from 'echarts/core';

/** What a label or tooltip formatter is called with (the fields the charts read). */
export interface FormatterParams {
  value?: number;
  dataIndex: number;
  seriesIndex?: number;
  marker?: string;
}

export interface SeriesView<D> {
  name?: string;
  data: D[];
  stack?: string;
  cursor?: string;
  connectNulls?: boolean;
  label: { formatter: (params: FormatterParams) => string };
}

interface AxisView {
  data?: string[];
  inverse?: boolean;
  min?: number;
  max?: number;
  interval?: number;
}

export interface OptionView<D> {
  color?: string[];
  xAxis: AxisView;
  yAxis: AxisView;
  legend: { data?: string[]; formatter: (name: string) => string };
  title: { text: string };
  tooltip: { formatter: (params: FormatterParams[]) => string };
  series: SeriesView<D>[];
}

/** The option as the view above (no copy: the same object; ECharts declares none of these keys, hence via unknown). */
export const viewOf = <D = unknown>(option: EChartsCoreOption): OptionView<D> => option as unknown as OptionView<D>;
