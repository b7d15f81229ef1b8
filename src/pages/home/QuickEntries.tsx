import { Col, Empty, Row } from 'antd';
import { useNavigate } from 'react-router-dom';
import { firstMenuPath, isExternal, type MenuItem } from '../../app/menu';
import { homeEntry } from '../../app/routes';
import { MenuIcon } from '../../shell/icons';
import { entrySummary } from './layout';

/** The pages of a menu area, depth first (its leaves, external links left out). */
const pagesOf = (item: MenuItem): MenuItem[] => (item.children ? item.children.flatMap(pagesOf) : isExternal(item) ? [] : [item]);

/** One card per permitted menu area, opening its first page; it names what the area holds. */
export default function QuickEntries({ items }: { items: readonly MenuItem[] }) {
  const navigate = useNavigate();
  const entries = items
    .filter((item) => item.key !== homeEntry.fullPath && !isExternal(item))
    .map((item) => ({ item, target: item.children ? firstMenuPath(item.children) : item.key, pages: pagesOf(item) }))
    .filter((e): e is typeof e & { target: string } => Boolean(e.target));

  if (entries.length === 0) return <Empty description="当前角色暂无可用功能" />;

  return (
    <Row gutter={[12, 12]}>
      {entries.map(({ item, target, pages }) => (
        <Col key={item.key} xs={12} md={8} xxl={6}>
          <button type="button" className="home__entry" onClick={() => navigate(target)} title={pages.map((p) => p.title).join('、')}>
            <span className="home__entry-icon">
              <MenuIcon name={item.icon} />
            </span>
            <span className="home__entry-text">
              <strong>{item.title}</strong>
              {item.children && <small>{entrySummary(pages)}</small>}
            </span>
          </button>
        </Col>
      ))}
    </Row>
  );
}
