import { CalendarOutlined, CustomerServiceOutlined, MessageOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { Space, Tag } from 'antd';
import dayjs from 'dayjs';
import { useAppConfig } from '../app/config';
import { useSession } from '../app/session';
import { todayIn } from '../shared/dates';
import RoleSwitcher from './RoleSwitcher';
import UserDropdown from './UserDropdown';

interface HeaderBarProps {
  onChangePassword: () => void;
  onEditProfile: () => void;
}

/** City + platform title, feedback link, support note, date, welcome line, role and user menus. */
export default function HeaderBar({ onChangePassword, onEditProfile }: HeaderBarProps) {
  const { cityName, platformTitle, feedbackUrl, supportNote } = useAppConfig();
  const { user } = useSession();
  // The portal's today (China), the day its deadlines are coloured by.
  const today = dayjs(todayIn()).format('YYYY年M月D日 dddd');

  return (
    <div className="shell-header">
      <div className="shell-header__brand">
        <span className="shell-header__logo">
          <SafetyCertificateOutlined />
        </span>
        <span className="shell-header__title">
          {cityName}
          {platformTitle}
        </span>
      </div>
      <Space className="shell-header__meta" size={20}>
        {feedbackUrl && (
          <a className="shell-header__link" href={feedbackUrl} target="_blank" rel="noopener noreferrer">
            <MessageOutlined /> 问题反馈
          </a>
        )}
        {supportNote && (
          <span className="shell-header__note">
            <CustomerServiceOutlined /> {supportNote}
          </span>
        )}
        <span className="shell-header__note" data-testid="header-date">
          <CalendarOutlined /> {today}
        </span>
        <span className="shell-header__welcome" data-testid="welcome">
          欢迎您，{user?.orgName ?? user?.name ?? ''}
          {user?.basicUnitFlag === 1 && (
            <Tag className="shell-header__sub-tag" color="gold" bordered={false}>
              子账号
            </Tag>
          )}
        </span>
        <RoleSwitcher />
        <UserDropdown onChangePassword={onChangePassword} onEditProfile={onEditProfile} />
      </Space>
    </div>
  );
}
