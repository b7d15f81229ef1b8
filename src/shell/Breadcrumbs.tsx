import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import { Link } from 'react-router-dom';
import type { RouteEntry } from '../app/menu';
import type { Tab } from './tabs/model';

interface BreadcrumbsProps {
  entry: RouteEntry;
  home: Tab;
}

/** Home / group / page, from the route's place in schemas/menu.json. */
export default function Breadcrumbs({ entry, home }: BreadcrumbsProps) {
  const items = [
    {
      key: 'home',
      title:
        entry.fullPath === home.key ? (
          <>
            <HomeOutlined /> {home.title}
          </>
        ) : (
          <Link to={home.path}>
            <HomeOutlined /> {home.title}
          </Link>
        ),
    },
    ...entry.ancestors.map((a) => ({ key: a.fullPath, title: a.title })),
    ...(entry.fullPath === home.key ? [] : [{ key: entry.fullPath, title: entry.title }]),
  ];
  return <Breadcrumb className="shell-breadcrumb" items={items} />;
}
