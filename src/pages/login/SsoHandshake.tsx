import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { HOME_PATH, LOGIN_PATH } from '../../app/routes';
import LoginLayout from './LoginLayout';

interface SsoHandshakeProps {
  /** Posts the SSO credentials; null when the URL lacks them. */
  signIn: (() => Promise<unknown>) | null;
}

const MISSING_TOKEN = '缺少单点登录凭证，请从统一身份认证平台重新进入';

/** Runs one SSO sign-in on mount, then goes home, or explains the failure. */
export default function SsoHandshake({ signIn }: SsoHandshakeProps) {
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(signIn ? null : MISSING_TOKEN);
  const started = useRef(false);

  useEffect(() => {
    if (!signIn || started.current) return;
    started.current = true;
    signIn().then(
      () => navigate(HOME_PATH, { replace: true }),
      (err: Error) => setError(err.message),
    );
  }, [signIn, navigate]);

  return (
    <LoginLayout>
      {error ? (
        <Result
          status="warning"
          title="单点登录失败"
          subTitle={error}
          extra={
            <Button type="primary" onClick={() => navigate(LOGIN_PATH, { replace: true })}>
              使用账号密码登录
            </Button>
          }
        />
      ) : (
        <div style={{ padding: '48px 0', textAlign: 'center' }}>
          <Spin size="large" />
          <p style={{ marginTop: 16, color: 'rgba(0,0,0,0.45)' }}>正在进行单点登录，请稍候…</p>
        </div>
      )}
    </LoginLayout>
  );
}
