import { Card, Col, Empty, Row } from 'antd';
import { useMemo } from 'react';
import { useSession } from '../../app/session';
import { menuFor } from '../../app/home';
import QuickEntries from './QuickEntries';
import WelcomeCard from './WelcomeCard';
import './home.css';

/** /home: the work desktop — unit card, quick entries to the permitted areas, notices. */
export default function HomePage() {
  const s = useSession();
  const menu = useMemo(() => menuFor(s), [s]);

  return (
    <div className="home">
      <WelcomeCard />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card title="快捷入口" variant="borderless">
            <QuickEntries items={menu} />
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title="通知公告" variant="borderless" className="home__notices">
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无公告" />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
