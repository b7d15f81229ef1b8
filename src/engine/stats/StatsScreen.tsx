/**
 * A stats screen: filters (kept in the URL like a list's), number cards (clickable when they name
 * a route: it opens with the card's filter as its query) and charts of counts per value of a coded
 * field (bars or a donut, each with a table view). Every number comes from the resource's `stats`
 * read, so scope and permissions are the list's.
 */
import { Card, Col, Empty, Row, Segmented, Skeleton, Statistic, Tooltip, theme } from 'antd';
import { useMemo, useState } from 'react';
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
import { BarChart, ChartTable, DonutChart } from './charts';
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
            <Col key={i} xs={24} xl={12}>
              <ChartCard bundle={bundle} chart={chart} params={narrow(params, chart.where, coded)} />
            </Col>
          ))}
        </Row>
      )}
    </ScreenCard>
  );
}

/** One count; a link to its route (with the card's and the screen's filters) when it names one. */
function NumberCard({ resource, card, params, linkParams }: { resource: string; card: StatsCard; params: Params | null; linkParams: Params }) {
  const { token } = theme.useToken();
  const { data, error, isLoading } = useStats(resource, params && { filters: params });
  const value = params === null ? 0 : data?.total;
  const color = card.color && ((card.color.startsWith('#') ? card.color : (token as unknown as Record<string, string>)[card.color]) ?? undefined);
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

type View = 'chart' | 'table';

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
  else if (chart.type === 'pie') content = <DonutChart title={chart.title} data={data} total={total} />;
  else content = <BarChart title={chart.title} data={data} total={total} />;

  return (
    <Card
      size="small"
      title={chart.title}
      className="engine-chart-card"
      style={{ height: '100%' }}
      styles={{ body: { minHeight: 240, padding: 20 } }}
      extra={
        <Segmented<View>
          size="small"
          value={view}
          onChange={setView}
          options={[
            { value: 'chart', label: '图表' },
            { value: 'table', label: '表格' },
          ]}
          aria-label={`${chart.title}的显示方式`}
        />
      }
    >
      {content}
    </Card>
  );
}
