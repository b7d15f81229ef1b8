import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { externalHref, openKeysFor, type MenuItem } from '../app/menu';
import { useSession } from '../app/session';
import { MenuIcon } from './icons';

type AntdItem = Required<MenuProps>['items'][number];

function toAntdItems(items: readonly MenuItem[]): AntdItem[] {
  return items.map((item) => ({
    key: item.key,
    icon: <MenuIcon name={item.icon} />,
    label: item.title,
    title: item.title,
    children: item.children ? toAntdItems(item.children) : undefined,
  }));
}

function findItem(items: readonly MenuItem[], key: string): MenuItem | undefined {
  for (const item of items) {
    if (item.key === key) return item;
    const inner = item.children && findItem(item.children, key);
    if (inner) return inner;
  }
  return undefined;
}

interface SideMenuProps {
  items: readonly MenuItem[];
  collapsed: boolean;
}

/** Accordion side menu (one open submenu); external links open in a new window (SPEC.md §2). */
export default function SideMenu({ items, collapsed }: SideMenuProps) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { token, user } = useSession();
  const antdItems = useMemo(() => toAntdItems(items), [items]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(items, pathname));

  useEffect(() => {
    setOpenKeys(collapsed ? [] : openKeysFor(items, pathname));
  }, [items, pathname, collapsed]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((k) => !openKeys.includes(k));
    setOpenKeys(opened ? [opened] : keys);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = findItem(items, key);
    if (item?.href) window.open(externalHref(item.href, item.hrefAppend, { token, userId: user?.id }), '_blank', 'noopener');
    else navigate(key);
  };

  return (
    <Menu
      className="shell-menu"
      mode="inline"
      theme="light"
      items={antdItems}
      selectedKeys={[pathname]}
      openKeys={openKeys}
      onOpenChange={onOpenChange}
      onClick={onClick}
    />
  );
}
