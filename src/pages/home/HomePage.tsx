import { Alert, Card, Col, Row, Skeleton } from 'antd';
import { useMemo } from 'react';
import { useSession } from '../../app/session';
import { menuFor } from '../../app/home';
import { DeskCards, DeskCharts, useDesk } from './Desk';
import QuickEntries from './QuickEntries';
import WelcomeCard from './WelcomeCard';
import './home.css';

/**
 * /home: the work desk — what must be done today (counts that open their lists, from GET /desk),
 * the trend and breakdown charts, and quick entries to the permitted areas.
 */
export default function HomePage() {
  const s = useSession();
  const menu = useMemo(() => menuFor(s), [s]);
  const { data: sections, error, isLoading } = useDesk();

  return (
    <div className="home">
      <WelcomeCard />
      <Card title="今日待办" variant="borderless" className="home-desk">
        {error && <Alert type="error" showIcon message={`工作台数据加载失败：${error.message}`} />}
        {isLoading && !sections && <Skeleton active paragraph={{ rows: 2 }} />}
        {sections && sections.every((x) => x.cards.length === 0) && <Alert type="success" showIcon message="暂无待办事项" />}
        {sections && <DeskCards sections={sections} />}
      </Card>
      {sections && <DeskCharts sections={sections} />}
      <Row gutter={[16, 16]}>
        <Col span={24}>
          <Card title="快捷入口" variant="borderless">
            <QuickEntries items={menu} />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
