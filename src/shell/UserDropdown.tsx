import { ClearOutlined, DownOutlined, FileTextOutlined, KeyOutlined, LogoutOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useAppConfig } from '../app/config';
import { useSession } from '../app/session';
import { useShellActions } from './useShellActions';

interface UserDropdownProps {
  onChangePassword: () => void;
  onEditProfile: () => void;
}

/** Manual download (when configured), clear cache, password, profile, logout. */
export default function UserDropdown({ onChangePassword, onEditProfile }: UserDropdownProps) {
  const { manualUrl } = useAppConfig();
  const { user } = useSession();
  const { signOut, clearCache } = useShellActions();

  const items: MenuProps['items'] = [
    ...(manualUrl ? [{ key: 'manual', icon: <FileTextOutlined />, label: '操作手册下载' }] : []),
    { key: 'clearCache', icon: <ClearOutlined />, label: '清除缓存' },
    { key: 'password', icon: <KeyOutlined />, label: '修改密码' },
    { key: 'profile', icon: <UserOutlined />, label: '个人信息' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    switch (key) {
      case 'manual':
        if (manualUrl) window.open(manualUrl, '_blank', 'noopener');
        break;
      case 'clearCache':
        clearCache();
        break;
      case 'password':
        onChangePassword();
        break;
      case 'profile':
        onEditProfile();
        break;
      case 'logout':
        void signOut();
        break;
    }
  };

  return (
    <Dropdown menu={{ items, onClick }} placement="bottomRight" trigger={['click']}>
      <button type="button" className="shell-header__user" data-testid="user-menu">
        <Avatar size={28} icon={<UserOutlined />} className="shell-header__avatar" />
        <span>{user?.name ?? user?.loginName}</span>
        <DownOutlined style={{ fontSize: 10 }} />
      </button>
    </Dropdown>
  );
}
