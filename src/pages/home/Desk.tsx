/**
 * The home work desk: GET /desk (src/server/resources/desk.ts) — the stats screens marked `desk`,
 * counted on the server for the session. Each card links to the list it counts (its query is the
 * list's filter), charts are drawn with ECharts (loaded only here and on stats pages) with a
 * table view beside each.
 */
import { Card, Col, Empty, Row, Skeleton, Statistic, theme } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import useSWR from 'swr';
import { get } from '../../app/api';
import { useSession } from '../../app/session';
import { EngineProvider } from '../../engine';
import { useScreenBundle } from '../../engine/data/hooks';
import { fieldOf } from '../../engine/model/fields';
import { ChartFrame, ChartTable, GroupChart, TrendChart, TrendTable, type ChartViewMode as View } from '../../engine/stats/ChartView';
import { chartData, type ChartDatum } from '../../engine/stats/stats';
import { dataProvider, screenPath } from '../schemaEngine';
import { fullWidthCharts } from './layout';

/** One section of GET /desk (the wire shape of src/server/resources/desk.ts). */
export interface DeskSection {
  screen: string;
  resource: string;
  title: string;
  cards: { label: string; count: number; color?: string; href?: string }[];
  charts: DeskChart[];
}

export interface DeskChart {
  title: string;
  type: 'bar' | 'pie' | 'line';
  groupBy: string;
  total?: number;
  groups?: { value: string | boolean | null; count: number }[];
  lines?: { label: string; groupBy: string; points: { month: string; count: number }[] }[];
}

export function useDesk() {
  return useSWR<DeskSection[], Error>('desk', () => get<DeskSection[]>('/desk'));
}

/** The cards of every section, as tiles of one size (six to a row on a wide screen, so a short last row stays aligned). */
export function DeskCards({ sections }: { sections: readonly DeskSection[] }) {
  const { token } = theme.useToken();
  const cards = sections.flatMap((s) => s.cards.map((card) => ({ ...card, section: s.title })));
  if (cards.length === 0) return null;
  return (
    <Row gutter={[12, 12]} className="home-desk__cards">
      {cards.map((card) => {
        const color =
          card.color &&
          ((token as unknown as Record<string, string>)[`${card.color}7`] ?? (token as unknown as Record<string, string>)[card.color] ?? card.color);
        const tile = (
          <Card hoverable={!!card.href} size="small" styles={{ body: { padding: '12px 16px' } }}>
            <Statistic title={card.label} value={card.count} valueStyle={{ color: card.count > 0 ? color : undefined, fontVariantNumeric: 'tabular-nums' }} />
          </Card>
        );
        return (
          <Col key={`${card.section}-${card.label}`} xs={12} sm={8} lg={6} xl={4} data-desk-card={card.label}>
            {card.href ? (
              <Link to={card.href} aria-label={`${card.label}：${card.count}，查看明细`} style={{ display: 'block' }}>
                {tile}
              </Link>
            ) : (
              tile
            )}
          </Col>
        );
      })}
    </Row>
  );
}

/**
 * Every chart of the sections, two per row (a trend line, or a chart left alone on its row, takes
 * the row). Inside the engine's provider: a chart's labels come from its screen's resource and
 * dictionaries.
 */
export function DeskCharts({ sections }: { sections: readonly DeskSection[] }) {
  const { token, role } = useSession();
  const charts = sections.flatMap((s) => s.charts.map((chart) => ({ section: s, chart })));
  if (charts.length === 0) return null;
  const full = fullWidthCharts(charts.map((c) => c.chart.type));
  return (
    <EngineProvider dataProvider={dataProvider} roleType={role?.roleType} screenPath={screenPath} cacheScope={`${token}:${role?.id ?? ''}`}>
      <Row gutter={[16, 16]} className="home-desk__charts">
        {charts.map(({ section, chart }, i) => (
          <Col key={`${section.screen}-${chart.title}`} xs={24} xl={full[i] ? 24 : 12}>
            <ChartCard section={section} chart={chart} />
          </Col>
        ))}
      </Row>
    </EngineProvider>
  );
}

function ChartCard({ section, chart }: { section: DeskSection; chart: DeskChart }) {
  const [view, setView] = useState<View>('chart');
  return (
    <ChartFrame title={chart.title} view={view} onView={setView}>
      {chart.type === 'line' ? <LineView chart={chart} view={view} /> : <GroupView section={section} chart={chart} view={view} />}
    </ChartFrame>
  );
}

function GroupView({ section, chart, view }: { section: DeskSection; chart: DeskChart; view: View }) {
  const { data: bundle, error } = useScreenBundle(section.screen);
  const data = useMemo<ChartDatum[]>(() => {
    if (!bundle) return [];
    return chartData(
      { total: chart.total ?? 0, groups: chart.groups ?? [] },
      bundle.resource,
      chart.groupBy,
      fieldOf(bundle.resource, chart.groupBy),
      bundle.dicts,
    );
  }, [bundle, chart]);
  const total = chart.total ?? 0;
  if (error) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={`图表加载失败：${error.message}`} />;
  if (!bundle) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (total === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  if (view === 'table') return <ChartTable title={chart.title} data={data} total={total} groupLabel={fieldOf(bundle.resource, chart.groupBy).label} />;
  return <GroupChart title={chart.title} type={chart.type === 'pie' ? 'pie' : 'bar'} data={data} total={total} />;
}

function LineView({ chart, view }: { chart: DeskChart; view: View }) {
  const lines = chart.lines ?? [];
  if (lines.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  if (view === 'table') return <TrendTable title={chart.title} lines={lines} />;
  return <TrendChart title={chart.title} lines={lines} />;
}
