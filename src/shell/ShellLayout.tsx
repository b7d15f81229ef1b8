import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Layout } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useMatches, useNavigate, useNavigation, useOutlet } from 'react-router-dom';
import { useAppConfig } from '../app/config';
import '../app/dayjs';
import { routerPathname } from '../app/navigation';
import type { RouteHandle } from '../app/routes';
import { useSession } from '../app/session';
import ChangePasswordModal from './account/ChangePasswordModal';
import ProfileModal from './account/ProfileModal';
import BackToTop from './BackToTop';
import Breadcrumbs from './Breadcrumbs';
import HeaderBar from './HeaderBar';
import { menuFor } from '../app/home';
import { homeTabFor } from './home';
import KeepAlive from './KeepAlive';
import SideMenu from './SideMenu';
import TabBar from './TabBar';
import { openTab, tabFor, withHome } from './tabs/model';
import { tabStore, useTabs } from './tabs/store';
import './shell.css';

/** As in the original portal: side menu 212 px wide; its collapsed state lives in sessionStorage. */
export const SIDER_WIDTH = 212;
const COLLAPSED_KEY = 'portal.menuCollapsed';

function useCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(() => sessionStorage.getItem(COLLAPSED_KEY) === '1');
  const toggle = () =>
    setCollapsed((c) => {
      sessionStorage.setItem(COLLAPSED_KEY, c ? '0' : '1');
      return !c;
    });
  return [collapsed, toggle];
}

type AccountModal = 'password' | 'profile' | null;

/** The portal shell: header, side menu, tab bar, breadcrumbs and the kept-alive pages. */
export default function ShellLayout() {
  const s = useSession();
  const config = useAppConfig();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const outlet = useOutlet();
  const entry = (useMatches().at(-1)?.handle as RouteHandle).entry;
  const tabs = useTabs();
  const [collapsed, toggleCollapsed] = useCollapsed();
  const [modal, setModal] = useState<AccountModal>(null);
  const content = useRef<HTMLElement>(null);

  const menu = useMemo(() => menuFor(s), [s]);
  const home = useMemo(() => homeTabFor(s, menu), [s, menu]);
  const current = tabFor(entry, pathname, search);
  // A password an administrator set (npm run admin) or one past the server's age limit is always
  // changed first: the server refuses everything else meanwhile, so no page is shown behind the
  // dialog. A simple one when configured.
  const mustChangePassword = s.passwordMustChange || (s.simplePwd && config.mustUpdatePwd);

  // Open (or update) the current page's tab, home always first.
  useEffect(() => {
    if (!s.token) return; // signing out: the login page is on its way
    tabStore.set(openTab(withHome(tabStore.dropLeft(tabStore.get(), current.key), home), current));
    content.current?.scrollTo(0, 0);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- current is derived from these
  }, [home, current.key, current.path, current.title]);

  // A current route that is not among the tabs goes home. Skipped while the router is already
  // elsewhere (a closed tab's neighbour is on its way) or navigating.
  const settled = navigation.state === 'idle' && routerPathname() === pathname;
  useEffect(() => {
    if (settled && s.token && !tabStore.get().some((t) => t.key === current.key)) void navigate(home.path, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the tab list changes
  }, [tabs, settled]);

  return (
    <Layout className="shell">
      <Layout.Header className="shell__header">
        <HeaderBar onChangePassword={() => setModal('password')} onEditProfile={() => setModal('profile')} />
      </Layout.Header>
      <Layout className="shell__body">
        {!mustChangePassword && (
          <Layout.Sider className="shell__sider" width={SIDER_WIDTH} collapsedWidth={64} collapsed={collapsed} trigger={null} theme="light">
            <SideMenu items={menu} collapsed={collapsed} />
            <Button
              className="shell__collapse"
              type="text"
              icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
              aria-label={collapsed ? '展开菜单' : '收起菜单'}
              onClick={toggleCollapsed}
            />
          </Layout.Sider>
        )}
        <Layout className="shell__main">
          <TabBar tabs={tabs} activeKey={current.key} homeKey={home.key} />
          <Layout.Content className="shell__content" ref={content}>
            <Breadcrumbs entry={entry} home={home} />
            {/* Signed out (logout, password change): the pages go at once, before a read of theirs
                could go out without the session; the login page is on its way. */}
            {s.token && !s.passwordMustChange && (
              <KeepAlive activeKey={current.key} outlet={outlet} openKeys={tabs.map((t) => t.key)} notCache={entry.notCache} />
            )}
          </Layout.Content>
          <BackToTop target={content} />
        </Layout>
      </Layout>
      {(mustChangePassword || modal === 'password') && (
        <ChangePasswordModal forced={mustChangePassword} reason={s.passwordMustChange ? s.passwordChangeReason : null} onClose={() => setModal(null)} />
      )}
      {modal === 'profile' && <ProfileModal onClose={() => setModal(null)} />}
    </Layout>
  );
}
