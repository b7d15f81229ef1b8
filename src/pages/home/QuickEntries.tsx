import { Col, Empty, Row } from 'antd';
import { useNavigate } from 'react-router-dom';
import { firstMenuPath, isExternal, type MenuItem } from '../../app/menu';
import { homeEntry } from '../../app/routes';
import { MenuIcon } from '../../shell/icons';

/** One card per permitted menu area, opening its first page. */
export default function QuickEntries({ items }: { items: readonly MenuItem[] }) {
  const navigate = useNavigate();
  const entries = items
    .filter((item) => item.key !== homeEntry.fullPath && !isExternal(item))
    .map((item) => ({ item, target: item.children ? firstMenuPath(item.children) : item.key, count: item.children?.length ?? 1 }))
    .filter((e): e is typeof e & { target: string } => Boolean(e.target));

  if (entries.length === 0) return <Empty description="当前角色暂无可用功能" />;

  return (
    <Row gutter={[12, 12]}>
      {entries.map(({ item, target, count }) => (
        <Col key={item.key} xs={12} md={8} xxl={6}>
          <button type="button" className="home__entry" onClick={() => navigate(target)}>
            <span className="home__entry-icon">
              <MenuIcon name={item.icon} />
            </span>
            <span className="home__entry-text">
              <strong>{item.title}</strong>
              <small>{count} 项功能</small>
            </span>
          </button>
        </Col>
      ))}
    </Row>
  );
}
