/**
 * A stats screen: filters (kept in the URL like a list's), number cards (clickable when they name
 * a route: it opens with the card's filter as its query) and charts (ECharts) of counts per value
 * of a coded field (bars or a donut) or per month of date fields (lines), each with a table view.
 * Every number comes from the resource's `stats` read, so scope and permissions are the list's.
 */
import { Card, Col, Empty, Row, Skeleton, Statistic, Tooltip, theme } from 'antd';
import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { useEngine } from '../context';
import { toEngineError } from '../data/provider';
import { Link } from 'react-router-dom';
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
import { ChartFrame, ChartTable, GroupChart, TrendChart, TrendTable, type ChartViewMode as View } from './ChartView';
import type { TrendLine } from './chart-options';
import { chartData, codedParams, hrefWith, narrow, searchOf, type Params } from './stats';

export default function StatsScreen({ bundle }: ScreenComponentProps) {
  const screen = bundle.screen as StatsScreenSchema;
  const { resource } = bundle;
  const specs = useMemo(() => filterSpecs({ ...bundle, screen }), [bundle, screen]);
  const coded = useMemo(() => codedParams(resource), [resource]);
  const [search, setSearch] = useOwnSearch();
  const values = useMemo(() => filterValuesFromSearch(specs, search), [specs, search]);
  const params = useMemo(() => filterParams(specs, values), [specs, values]);
  const onSearch = (next: FilterValues) => setSearch(searchOf(filterParams(specs, next)));

  return (
    <ScreenCard title={screen.title}>
      <FilterBar screenId={screen.id} specs={specs} values={values} onSearch={onSearch} onReset={() => setSearch(new URLSearchParams())} />
      {screen.cards && (
        <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
          {screen.cards.map((card, i) => (
            <Col key={i} flex="1 1 200px">
              <NumberCard resource={resource.name} card={card} params={narrow(params, card.where, coded)} linkParams={narrow(params, card.where, coded) ?? params} />
            </Col>
          ))}
        </Row>
      )}
      {screen.charts && (
        <Row gutter={[16, 16]} align="stretch">
          {screen.charts.map((chart, i) => (
            <Col key={i} xs={24} xl={chart.type === 'line' ? 24 : 12}>
              {chart.type === 'line' ? <TrendCard bundle={bundle} chart={chart} params={params} coded={coded} /> : <ChartCard bundle={bundle} chart={chart} params={narrow(params, chart.where, coded)} />}
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

/** Counts per value of a field, as bars or a donut, or as a table. */
function ChartCard({ bundle, chart, params }: { bundle: ScreenBundle; chart: StatsChart; params: Params | null }) {
  const { resource, dicts } = bundle;
  const field = fieldOf(resource, chart.groupBy);
  const [view, setView] = useState<View>('chart');
  const { data: result, error, isLoading, mutate } = useStats(resource.name, params && { filters: params, groupBy: chart.groupBy });
  const data = useMemo(() => chartData(result, resource, chart.groupBy, field, dicts), [result, resource, chart.groupBy, field, dicts]);
  const total = params === null ? 0 : (result?.total ?? 0);

  let content;
  if (error && !result) content = <LoadFailed error={error} onRetry={() => void mutate()} />;
  else if (params !== null && isLoading && !result) content = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (params === null || data.length === 0 || total === 0) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else if (view === 'table') content = <ChartTable title={chart.title} data={data} total={total} groupLabel={field.label} />;
  else content = <GroupChart title={chart.title} type={chart.type === 'pie' ? 'pie' : 'bar'} data={data} total={total} />;

  return (
    <ChartFrame title={chart.title} view={view} onView={setView} bodyStyle={CHART_BODY}>
      {content}
    </ChartFrame>
  );
}

/** A stats screen's chart cards: room for the chart even while it loads. */
const CHART_BODY = { minHeight: 240, padding: 20 };

/**
 * Counts per month of date fields (`type: "line"`): one line for `groupBy` and one per `lines`,
 * each over the screen's filters narrowed by its own `where`, all over the same months.
 */
function TrendCard({ bundle, chart, params, coded }: { bundle: ScreenBundle; chart: StatsChart; params: Params; coded: ReadonlySet<string> }) {
  const { dataProvider, cacheScope } = useEngine();
  const [view, setView] = useState<View>('chart');
  const { resource } = bundle;
  const months = (chart.months as [number, number] | undefined) ?? [-11, 0];
  const series = useMemo(
    () =>
      [{ label: chart.label ?? fieldOf(resource, chart.groupBy).label, groupBy: chart.groupBy, where: chart.where }, ...(chart.lines ?? [])].map((line) => ({
        label: line.label,
        groupBy: line.groupBy,
        filters: narrow(params, line.where, coded),
      })),
    [chart, resource, params, coded],
  );
  const { data: lines, error, isLoading, mutate } = useSWR(
    ['engine', 'stats-trend', cacheScope, resource.name, JSON.stringify({ series, months })],
    () =>
      Promise.all(
        series.map(async (line): Promise<TrendLine> => {
          if (!dataProvider.stats) throw new Error('当前数据源不支持统计');
          // Nothing can match (the user chose codes the line's filter excludes): the months, each zero.
          const result = await dataProvider.stats(resource.name, { filters: line.filters ?? params, groupBy: line.groupBy, months });
          return { label: line.label, points: (result.months ?? []).map((p) => (line.filters ? p : { ...p, count: 0 })) };
        }),
      ).catch((e) => Promise.reject(toEngineError(e))),
    { keepPreviousData: true },
  );

  let content;
  if (error && !lines) content = <LoadFailed error={error} onRetry={() => void mutate()} />;
  else if (isLoading && !lines) content = <Skeleton active paragraph={{ rows: 5 }} />;
  else if (!lines || lines.every((l) => l.points.every((p) => p.count === 0))) content = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  else if (view === 'table') content = <TrendTable title={chart.title} lines={lines} />;
  else content = <TrendChart title={chart.title} lines={lines} />;
  return (
    <ChartFrame title={chart.title} view={view} onView={setView} bodyStyle={CHART_BODY}>
      {content}
    </ChartFrame>
  );
}

/** A palette colour as text: a preset hue's level-7 shade (the theme keeps it at 4.5:1 on white), any other token as it is. */
export function textShade(token: Record<string, string>, name: string): string | undefined {
  return token[`${name}7`] ?? token[name];
}
