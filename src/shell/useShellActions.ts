/** Header actions: switch role, clear cache, logout (as in the original portal). */
import { useNavigate } from 'react-router-dom';
import { changeRole, logout } from '../app/auth';
import { useAppConfig } from '../app/config';
import { leaveTo } from '../app/navigation';
import { notify } from '../app/notify';
import { LOGIN_PATH } from '../app/routes';
import { session } from '../app/session';
import { homeTabFor } from './home';
import { mayClose } from './tabs/beforeClose';
import { tabStore } from './tabs/store';

function openTabKeys(): string[] {
  return tabStore.get().map((t) => t.key);
}

export function useShellActions() {
  const navigate = useNavigate();
  const { ssoLogoutUrl } = useAppConfig();

  /** Logout: company info, logout call, all tabs closed, then login or the SSO logout page. */
  async function signOut(options: { confirmTabs?: boolean } = {}): Promise<void> {
    if (options.confirmTabs !== false && !(await mayClose(openTabKeys()))) return;
    const { ssoUserId } = await logout();
    notify.message.success('退出成功');
    if (ssoUserId && ssoLogoutUrl) leaveTo(ssoLogoutUrl);
    else await navigate(LOGIN_PATH, { replace: true });
    tabStore.set([]);
  }

  /** Role switch: server call, role and access stored, all tabs closed, home. */
  async function switchRole(roleId: string): Promise<void> {
    if (session.get().role?.id === roleId || !(await mayClose(openTabKeys()))) return;
    const { currentRole } = await changeRole(roleId);
    const home = homeTabFor(session.get());
    await navigate(home.path, { replace: true });
    tabStore.set([home]);
    notify.message.success(`已切换为：${currentRole.name}`);
  }

  function clearCache(): void {
    localStorage.clear();
    notify.message.success('清除缓存成功');
  }

  return { signOut, switchRole, clearCache };
}
