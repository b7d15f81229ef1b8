/**
 * One ECharts chart (tree-shaken `echarts/core`: bar, pie and line charts, grid, tooltip and
 * legend, the SVG renderer). Loaded lazily (`React.lazy`) by the pages that draw charts, so no
 * other page downloads ECharts. The figure is one `role="img"` with a sentence as its label; the
 * callers keep a text table beside it.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

export interface EChartProps {
  option: EChartsCoreOption;
  /** What the chart shows, as one sentence (screen readers). */
  label: string;
  height?: number;
}

export default function EChart({ option, label, height = 260 }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    const el = ref.current!;
    const instance = echarts.init(el, undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return <div ref={ref} role="img" aria-label={label} className="engine-echart" style={{ width: '100%', height }} />;
}
