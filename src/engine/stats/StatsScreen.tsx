/**
 * A stats screen: filters (kept in the URL like a list's), number cards (clickable when they name
 * a route: it opens with the card's filter as its query) and charts (ECharts) of counts per value
 * of a coded field (bars, stacked bars by a second field, or a donut), shares of a second filter
 * (`rate`: bars per value or a line per month), or counts per month of date fields (lines), each
 * with a table view. A chart with a `link` opens that list on a click on a bar, part or slice (and
 * from its table) with the screen's filters, the chart's own and the clicked values. 打印 prints
 * the page on A4 (charts one under the other, redrawn to the paper's width).
 * Every number comes from the resource's `stats` read, so scope and permissions are the list's.
 */
import { PrinterOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Tooltip, theme } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import useSWR from 'swr';
import { useEngine } from '../context';
import { toEngineError, type EngineError } from '../data/provider';
import { Link, useNavigate } from 'react-router-dom';
import { useStats } from '../data/hooks';
import FilterBar from '../list/FilterBar';
import { filterParams, filterSpecs, filterValuesFromSearch, type FilterValues } from '../list/filters';
import { fieldOf } from '../model/fields';
import { useOwnSearch } from '../navigation';
import type { ScreenComponentProps } from '../screen-props';
import type { ScreenBundle } from '../registry/registry';
import type { StatsCard, StatsChart, StatsScreen as StatsScreenSchema } from '../../schema/types';
import { LoadFailed, ScreenCard } from '../ui';
import FlowTimesCard from './FlowTimes';
import {
  ChartFrame,
  ChartTable,
  GroupChart,
  RateChart,
  RateTable,
  RateTrendChart,
  RateTrendTable,
  StackedChart,
  StackedTable,
  TrendChart,
  TrendTable,
  type ChartViewMode as View,
} from './ChartView';
import type { TrendLine } from './chart-options';
import {
  chartData,
  codedParams,
  drillParams,
  hrefWith,
  narrow,
  paramsOf,
  rateData,
  ratePoints,
  searchOf,
  stackedData,
  type Params,
  type RatePoint,
} from './stats';

export default function StatsScreen({ bundle }: ScreenComponentProps) {
  const screen = bundle.screen as StatsScreenSchema;
  const { resource } = bundle;
  const specs = useMemo(() => filterSpecs({ ...bundle, screen }), [bundle, screen]);
  const coded = useMemo(() => codedParams(resource), [resource]);
  const [search, setSearch] = useOwnSearch();
  const values = useMemo(() => filterValuesFromSearch(specs, search), [specs, search]);
  const params = useMemo(() => filterParams(specs, values), [specs, values]);
  const onSearch = (next: FilterValues) => setSearch(searchOf(filterParams(specs, next)));
  // A table's first column is named as the screen's filter on that field names it (e.g. 区县), else by the field.
  const labels = useMemo(
    () => new Map((screen.filters ?? []).flatMap((f) => (typeof f === 'object' && 'label' in f && f.label ? [[f.field, f.label] as const] : []))),
    [screen.filters],
  );

  return (
    <ScreenCard
      title={screen.title}
      className="engine-stats-screen"
      extra={
        <Button className="engine-no-print" icon={<PrinterOutlined />} onClick={() => window.print()}>
          打印
        </Button>
      }
    >
      <style>{PRINT_CSS}</style>
      <FilterBar screenId={screen.id} specs={specs} values={values} onSearch={onSearch} onReset={() => setSearch(new URLSearchParams())} />
      {screen.cards && (
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          {screen.cards.map((card, i) => (
            <Col key={i} flex="1 1 200px">
              <NumberCard
                resource={resource.name}
                card={card}
                params={narrow(params, card.where, coded)}
                linkParams={narrow(params, card.where, coded) ?? params}
              />
            </Col>
          ))}
        </Row>
      )}
      {screen.charts && (
        <Row gutter={[16, 16]} align="stretch" className="engine-stats-charts">
          {screen.charts.map((chart, i) => (
            <Col key={i} xs={24} xl={chart.type === 'line' ? 24 : 12}>
              {chart.type === 'line' ? (
                <TrendCard bundle={bundle} chart={chart} params={params} coded={coded} />
              ) : (
                <ChartCard bundle={bundle} chart={chart} params={narrow(params, chart.where, coded)} filters={params} coded={coded} labels={labels} />
              )}
            </Col>
          ))}
        </Row>
      )}
      {screen.flowTimes && <FlowTimesCard flowTimes={screen.flowTimes} />}
    </ScreenCard>
  );
}

/** One count; a link to its route (with the card's and the screen's filters) when it names one. */
function NumberCard({ resource, card, params, linkParams }: { resource: string; card: StatsCard; params: Params | null; linkParams: Params }) {
  const { token } = theme.useToken();
  const { data, error, isLoading } = useStats(resource, params && { filters: params });
  const value = params === null ? 0 : data?.total;
  const color = card.color && ((card.color.startsWith('#') ? card.color : textShade(token as unknown as Record<string, string>, card.color)) ?? undefined);
  const body = (
    <Card hoverable={card.link !== undefined} size="small" className="engine-stat-card" styles={{ body: { padding: '16px 20px' } }}>
      <Statistic
        title={card.label}
        value={value ?? '—'}
        loading={params !== null && isLoading && data === undefined}
        valueStyle={{ color, fontVariantNumeric: 'tabular-nums' }}
        groupSeparator=","
      />
    </Card>
  );
  const withError = error ? <Tooltip title={`加载失败：${error.message}`}>{body}</Tooltip> : body;
  if (card.link === undefined) return withError;
  return (
    <Link to={hrefWith(card.link, linkParams)} aria-label={`${card.label}：${value ?? '加载中'}，查看明细`} style={{ display: 'block' }}>
      {withError}
    </Link>
  );
}

/**
 * The route a chart's click opens: its `link` with the screen's filters, the chart's `where` and
 * `rate` and the clicked value(s); undefined without a link or for a blank value.
 */
function useDrill(chart: StatsChart, filters: Params, coded: ReadonlySet<string>) {
  return useCallback(
    (value: string | boolean | null, stack?: string | boolean | null): string | undefined => {
      if (chart.link === undefined) return undefined;
      const params = drillParams(filters, chart, coded, value, stack);
      return params ? hrefWith(chart.link, params) : undefined;
    },
    [chart, filters, coded],
  );
}

/** Counts per value of a field, as bars, stacked bars or a donut, or shares (`rate`) as bars; or as a table. */
function ChartCard({
  bundle,
  chart,
  params,
  filters,
  coded,
  labels,
}: {
  bundle: ScreenBundle;
  chart: StatsChart;
  params: Params | null;
  filters: Params;
  coded: ReadonlySet<string>;
  labels: ReadonlyMap<string, string>;
}) {
  const [view, setView] = useState<View>('chart');
  const props = { bundle, chart, params, filters, coded, view, groupLabel: labels.get(chart.groupBy) ?? fieldOf(bundle.resource, chart.groupBy).label };
  const body = chart.stackBy ? <StackedBody {...props} /> : chart.rate ? <RateBody {...props} /> : <GroupBody {...props} />;
  return (
    <ChartFrame title={chart.title} view={view} onView={setView} bodyStyle={CHART_BODY}>
      {body}
    </ChartFrame>
  );
}

interface BodyProps {
  bundle: ScreenBundle;
  chart: StatsChart;
  /** The screen's filters narrowed by the chart's `where` (null: nothing can match). */
  params: Params | null;
  /** The screen's filters alone (links add the chart's own). */
  filters: Params;
  coded: ReadonlySet<string>;
  view: View;
  /** The name of the grouped values (a table's first column). */
  groupLabel: string;
}

/** Loading, failure and empty states shared by the chart bodies; `undefined` once there is something to draw. */
function pending(params: Params | null, error: Error | undefined, loaded: boolean, isLoading: boolean, empty: boolean, retry: () => void) {
  if (error && !loaded) return <LoadFailed error={error} onRetry={retry} />;
  if (params !== null && isLoading && !loaded) return <Skeleton active paragraph={{ rows: 5 }} />;
  if (params === null || empty) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  return undefined;
}

function GroupBody({ bundle, chart, params, filters, coded, view, groupLabel }: BodyProps) {
  const { resource, dicts } = bundle;
  const navigate = useNavigate();
  const field = fieldOf(resource, chart.groupBy);
  const { data: result, error, isLoading, mutate } = useStats(resource.name, params && { filters: params, groupBy: chart.groupBy });
  const data = useMemo(() => chartData(result, resource, chart.groupBy, field, dicts), [result, resource, chart.groupBy, field, dicts]);
  const total = params === null ? 0 : (result?.total ?? 0);
  const drill = useDrill(chart, filters, coded);
  const hrefOf = (key: string) => drill(result?.groups?.find((g) => String(g.value) === key)?.value ?? null);
  const wait = pending(params, error, result !== undefined, isLoading, data.length === 0 || total === 0, () => void mutate());
  if (wait) return wait;
  if (view === 'table')
    return <ChartTable title={chart.title} data={data} total={total} groupLabel={groupLabel} hrefOf={chart.link ? (d) => hrefOf(d.key) : undefined} />;
  const onPick = chart.link
    ? (d: { key: string }) => {
        const href = hrefOf(d.key);
        if (href) void navigate(href);
      }
    : undefined;
  return <GroupChart title={chart.title} type={chart.type === 'pie' ? 'pie' : 'bar'} data={data} total={total} onPick={onPick} />;
}

/** Bars split into parts by `stackBy` (one stats read grouping by both fields). */
function StackedBody({ bundle, chart, params, filters, coded, view, groupLabel }: BodyProps) {
  const { resource, dicts } = bundle;
  const navigate = useNavigate();
  const stackBy = chart.stackBy!;
  const field = fieldOf(resource, chart.groupBy);
  const stackField = fieldOf(resource, stackBy);
  const { data: result, error, isLoading, mutate } = useStats(resource.name, params && { filters: params, groupBy: chart.groupBy, stackBy });
  const data = useMemo(
    () => stackedData(result, resource, chart.groupBy, field, stackBy, stackField, dicts),
    [result, resource, chart.groupBy, field, stackBy, stackField, dicts],
  );
  const drill = useDrill(chart, filters, coded);
  const hrefOf = (bar: number, series?: number) => drill(data.bars[bar].value, series === undefined ? undefined : data.series[series].value);
  const wait = pending(params, error, result !== undefined, isLoading, data.bars.length === 0 || data.total === 0, () => void mutate());
  if (wait) return wait;
  if (view === 'table') return <StackedTable title={chart.title} data={data} groupLabel={groupLabel} hrefOf={chart.link ? hrefOf : undefined} />;
  const onPick = chart.link
    ? (bar: number, series: number) => {
        const href = hrefOf(bar, series);
        if (href) void navigate(href);
      }
    : undefined;
  return <StackedChart title={chart.title} data={data} onPick={onPick} />;
}

/** Shares per value: the chart's rows per value (`where`) and those also matching `rate`, two stats reads. */
function RateBody({ bundle, chart, params, filters, coded, view, groupLabel }: BodyProps) {
  const { resource, dicts } = bundle;
  const navigate = useNavigate();
  const field = fieldOf(resource, chart.groupBy);
  const partParams = params && narrow(params, chart.rate, coded);
  const whole = useStats(resource.name, params && { filters: params, groupBy: chart.groupBy });
  const part = useStats(resource.name, partParams && { filters: partParams, groupBy: chart.groupBy });
  const noPart = partParams === null;
  const partResult = useMemo(() => (noPart ? { total: 0, groups: [] } : part.data), [noPart, part.data]);
  const data = useMemo(
    () => (partResult ? rateData(whole.data, partResult, resource, chart.groupBy, field, dicts) : []),
    [whole.data, partResult, resource, chart.groupBy, field, dicts],
  );
  const drill = useDrill(chart, filters, coded);
  const loaded = whole.data !== undefined && partResult !== undefined;
  const wait = pending(params, whole.error ?? part.error, loaded, whole.isLoading || part.isLoading, data.length === 0, () => {
    void whole.mutate();
    void part.mutate();
  });
  if (wait) return wait;
  const hrefOf = (d: { value: string | boolean | null; part: number }) => (d.part > 0 ? drill(d.value) : undefined);
  if (view === 'table')
    return <RateTable title={chart.title} data={data} groupLabel={groupLabel} rateLabel={chart.label ?? '比率'} hrefOf={chart.link ? hrefOf : undefined} />;
  const onPick = chart.link
    ? (d: { value: string | boolean | null; part: number }) => {
        const href = hrefOf(d);
        if (href) void navigate(href);
      }
    : undefined;
  return <RateChart title={chart.title} data={data} onPick={onPick} />;
}

/** A stats screen's chart cards: room for the chart even while it loads. */
const CHART_BODY = { minHeight: 240, padding: 20 };

/**
 * Counts per month of date fields (`type: "line"`): one line for `groupBy` and one per `lines`,
 * each over the screen's filters narrowed by its own `where`, all over the same months. With
 * `resource` the rows of that resource (of the screen's filters, those its list takes); with `sum`
 * the sums of that field instead of counts, and with `rateSum` the share of that field's sums in them.
 */
function TrendCard({ bundle, chart, params: screenParams, coded }: { bundle: ScreenBundle; chart: StatsChart; params: Params; coded: ReadonlySet<string> }) {
  const { dataProvider, cacheScope } = useEngine();
  const [view, setView] = useState<View>('chart');
  const resource = (chart.resource !== undefined && bundle.resources.get(chart.resource)) || bundle.resource;
  const params = useMemo(() => (resource === bundle.resource ? screenParams : paramsOf(resource, screenParams)), [resource, bundle.resource, screenParams]);
  const months = chart.months ?? [-11, 0];
  const sum = chart.sum;
  const series = useMemo(
    () =>
      [{ label: chart.label ?? fieldOf(resource, chart.groupBy).label, groupBy: chart.groupBy, where: chart.where }, ...(chart.lines ?? [])].map((line) => ({
        label: line.label,
        groupBy: line.groupBy,
        filters: narrow(params, line.where, coded),
      })),
    [chart, resource, params, coded],
  );
  const rated = chart.rate !== undefined || chart.rateSum !== undefined;
  const rateFilters = chart.rate ? narrow(series[0].filters ?? params, chart.rate, coded) : series[0].filters;
  const {
    data: lines,
    error,
    isLoading,
    mutate,
  } = useSWR<TrendLine[], EngineError>(
    [
      'engine',
      'stats-trend',
      cacheScope,
      resource.name,
      JSON.stringify({ series, months, sum, rateSum: chart.rateSum, rate: chart.rate && (series[0].filters ? rateFilters : null) }),
    ],
    () =>
      Promise.all(
        series.map(async (line): Promise<TrendLine> => {
          if (!dataProvider.stats) throw new Error('当前数据源不支持统计');
          // Nothing can match (the user chose codes the line's filter excludes): the months, each zero.
          const result = await dataProvider.stats(resource.name, { filters: line.filters ?? params, groupBy: line.groupBy, months, sum });
          return { label: line.label, points: (result.months ?? []).map((p) => (line.filters ? p : { ...p, count: 0 })) };
        }),
      )
        .then(async (lines): Promise<TrendLine[]> => {
          if (!rated) return lines;
          // A rate line: the months' rows that also match `rate`, or the sums of `rateSum` (nothing when no code can match).
          const part =
            rateFilters && series[0].filters
              ? await dataProvider.stats!(resource.name, { filters: rateFilters, groupBy: chart.groupBy, months, sum: chart.rateSum ?? sum })
              : undefined;
          return [lines[0], { label: RATE_PART, points: (part?.months ?? []).length > 0 ? part!.months! : lines[0].points.map((p) => ({ ...p, count: 0 })) }];
        })
        .catch((e) => Promise.reject(toEngineError(e))),
    { keepPreviousData: true },
  );
  const rates: RatePoint[] | undefined = useMemo(
    () => (rated && lines && lines.length === 2 ? ratePoints(lines[0].points, lines[1].points) : undefined),
    [rated, lines],
  );

  let content;
  if (error && !lines) content = <LoadFailed error={error} onRetry={() => void mutate()} />;
  else if (isLoading && !lines) content = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (!lines || lines.every((l) => l.points.every((p) => p.count === 0))) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else if (rates && view === 'table') content = <RateTrendTable title={chart.title} label={series[0].label} points={rates} />;
  else if (rates) content = <RateTrendChart title={chart.title} label={series[0].label} points={rates} />;
  else if (view === 'table') content = <TrendTable title={chart.title} lines={lines} />;
  else content = <TrendChart title={chart.title} lines={lines} />;
  return (
    <ChartFrame title={chart.title} view={view} onView={setView} bodyStyle={CHART_BODY}>
      {content}
    </ChartFrame>
  );
}

/** The numerator series of a rate line (never shown). */
const RATE_PART = '__rate_part';

/**
 * Printing a stats screen (打印): A4 portrait, one chart under another at the paper's width (the
 * charts redraw themselves at most that wide, EChart.tsx), no card split across pages; the chart /
 * table switches and the filter buttons stay off the paper.
 */
const PRINT_CSS = `
@page engine-stats { size: A4 portrait; margin: 12mm; }
@media print {
  /* The portal's frame is one window high and clips: let the page run on over as many sheets as it needs. */
  html:has(.engine-stats-screen), body:has(.engine-stats-screen), body :has(> * .engine-stats-screen), body :has(> .engine-stats-screen) {
    height: auto !important; min-height: 0 !important; max-height: none !important; overflow: visible !important;
  }
  .engine-stats-screen { page: engine-stats; }
  .engine-stats-charts > .ant-col { flex: 0 0 100% !important; max-width: 100% !important; }
  .engine-stats-screen .engine-chart-card { break-inside: avoid; page-break-inside: avoid; }
  .engine-stats-screen .engine-chart-card .ant-card-extra,
  .engine-stats-screen .engine-filter-bar .ant-btn { display: none !important; }
  .engine-stats-screen .engine-echart { max-width: 180mm; overflow: hidden; }
  .engine-stats-screen .engine-stat-card { break-inside: avoid; }
  .engine-stats-screen > .ant-card-head .ant-card-extra { display: none !important; }
}
`;

/** A palette colour as text: a preset hue's level-7 shade (the theme keeps it at 4.5:1 on white), any other token as it is. */
export function textShade(token: Record<string, string>, name: string): string | undefined {
  return token[`${name}7`] ?? token[name];
}
