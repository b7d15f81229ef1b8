/**
 * One ECharts chart (tree-shaken `echarts/core`: bar, pie and line charts, grid, tooltip and
 * legend, the SVG renderer). Loaded lazily (`React.lazy`) by the pages that draw charts, so no
 * other page downloads ECharts. The figure is one `role="img"` with a sentence as its label; the
 * callers keep a text table beside it. `onPick` gets the clicked item (a bar, a stacked part, a
 * slice). Before printing the chart is redrawn at most A4 wide (PRINT_WIDTH), and back after.
 */
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import type { EChartsCoreOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, SVGRenderer]);

/** The item a click hit: its series and its index in the series' data. */
export interface ChartPick {
  seriesIndex: number;
  dataIndex: number;
}

export interface EChartProps {
  option: EChartsCoreOption;
  /** What the chart shows, as one sentence (screen readers). */
  label: string;
  height?: number;
  onPick?: (pick: ChartPick) => void;
}

/** The widest a chart prints: A4 portrait less its margins (about 180 mm at 96 px per inch). */
export const PRINT_WIDTH = 680;

export default function EChart({ option, label, height = 260, onPick }: EChartProps) {
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const pick = useRef(onPick);
  pick.current = onPick;

  useEffect(() => {
    const el = ref.current!;
    const instance = echarts.init(el, undefined, { renderer: 'svg' });
    chart.current = instance;
    let printing = false;
    const observer = new ResizeObserver(() => {
      if (!printing) instance.resize();
    });
    observer.observe(el);
    instance.on('click', (p: { seriesIndex?: number; dataIndex?: number }) => {
      if (p.seriesIndex !== undefined && p.dataIndex !== undefined) pick.current?.({ seriesIndex: p.seriesIndex, dataIndex: p.dataIndex });
    });
    const beforePrint = () => {
      printing = true;
      instance.resize({ width: Math.min(el.clientWidth || PRINT_WIDTH, PRINT_WIDTH) });
    };
    const afterPrint = () => {
      printing = false;
      instance.resize();
    };
    window.addEventListener('beforeprint', beforePrint);
    window.addEventListener('afterprint', afterPrint);
    return () => {
      observer.disconnect();
      window.removeEventListener('beforeprint', beforePrint);
      window.removeEventListener('afterprint', afterPrint);
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return <div ref={ref} role="img" aria-label={label} className="engine-echart" style={{ width: '100%', height }} />;
}
