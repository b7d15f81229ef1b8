import { Menu, type MenuProps } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAppConfig } from '../app/config';
import { openExternal } from '../app/external-link';
import { externalTarget, openKeysFor, withLinks, type MenuItem } from '../app/menu';
import { shellEntries } from '../app/routes';
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

/**
 * Accordion side menu (one open submenu); external links open in a new window (as in the original portal), those
 * named by a setting (hrefSetting) at the configured address, and are not shown without one; one
 * that carries the user's identity gets a single-use token from the server (app/external-link.ts).
 */
export default function SideMenu({ items: permitted, collapsed }: SideMenuProps) {
  const { links } = useAppConfig();
  const items = useMemo(() => withLinks(permitted, links), [permitted, links]);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const antdItems = useMemo(() => toAntdItems(items), [items]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(items, pathname, shellEntries));

  useEffect(() => {
    setOpenKeys(collapsed ? [] : openKeysFor(items, pathname, shellEntries));
  }, [items, pathname, collapsed]);

  const onOpenChange = (keys: string[]) => {
    const opened = keys.find((k) => !openKeys.includes(k));
    setOpenKeys(opened ? [opened] : keys);
  };

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const item = findItem(items, key);
    const target = item?.href ? externalTarget(item, links, user?.id) : undefined;
    if (target) openExternal(target);
    else void navigate(key);
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
