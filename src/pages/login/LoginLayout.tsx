import { AuditOutlined, DatabaseOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useAppConfig } from '../../app/config';
import './login.css';

const FEATURES = [
  { icon: <DatabaseOutlined />, title: '设备台账', text: '锅炉、压力容器、电梯、起重机械等设备一站管理' },
  { icon: <AuditOutlined />, title: '在线办理', text: '使用登记、变更、报检申请与缴费全程网办' },
  { icon: <SafetyCertificateOutlined />, title: '安全责任', text: '作业人员持证预警，隐患排查与主体责任落实' },
];

/** The branded split screen shared by the login and SSO pages. */
export default function LoginLayout({ children }: { children: ReactNode }) {
  const { cityName, platformTitle } = useAppConfig();
  return (
    <div className="login-page">
      <div className="login-page__brand">
        <div className="login-page__logo">
          <SafetyCertificateOutlined />
        </div>
        <h1 className="login-page__title">
          <span className="login-page__city">{cityName}</span>
          {platformTitle}
        </h1>
        <p className="login-page__slogan">特种设备安全 · 企业服务一网通办</p>
        <ul className="login-page__features">
          {FEATURES.map((f) => (
            <li key={f.title}>
              <span className="login-page__feature-icon">{f.icon}</span>
              <div>
                <strong>{f.title}</strong>
                <span>{f.text}</span>
              </div>
            </li>
          ))}
        </ul>
      </div>
      <div className="login-page__panel">
        <div className="login-card">{children}</div>
        <footer className="login-page__footer">{cityName}市场监督管理局 · 特种设备安全监察</footer>
      </div>
    </div>
  );
}
