import { IdcardOutlined, LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Tooltip } from 'antd';
// Input and Password themselves, not antd's Input namespace, which also brings TextArea, Search and
// OTP: the login page's JavaScript budget (tests/e2e/first-load.test.ts).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { dropLoginNotice, loginNotice } from '../../app/api';
import { loginWithPassword, type PasswordLogin } from '../../app/auth';
import { useAppConfig } from '../../app/config';
import { safeRedirectTarget } from '../../app/guards';
import { notify } from '../../app/notify';
import { HOME_PATH } from '../../app/routes';
import LoginLayout from './LoginLayout';
import { readRememberedAccount, rememberAccount } from './rememberedAccount';
import { useCaptcha } from './useCaptcha';

/** /login: account, password, unified social credit code and captcha (as in the original portal). */
export default function LoginPage() {
  const config = useAppConfig();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<PasswordLogin>();
  const captcha = useCaptcha(config.captchaEnabled);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Why the server ended the previous session (e.g. the account logged in elsewhere), shown once.
  const [notice, setNotice] = useState(loginNotice);
  useEffect(dropLoginNotice, []);

  async function submit(values: PasswordLogin) {
    setSubmitting(true);
    setError(null);
    setNotice(null);
    try {
      await loginWithPassword(values);
      rememberAccount({ username: values.username.trim(), orgCode: values.orgCode.trim() });
      notify.message.success('登录成功');
      void navigate(safeRedirectTarget(params.get('redirect')) ?? HOME_PATH, { replace: true });
    } catch (err) {
      setError((err as Error).message);
      form.setFieldValue('validateCode', '');
      captcha.refresh();
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <LoginLayout>
      <h2 className="login-card__title">账号登录</h2>
      <p className="login-card__subtitle">请使用单位账号登录{config.platformTitle}</p>
      {error && <Alert className="login-card__alert" type="error" showIcon message={error} closable onClose={() => setError(null)} />}
      {notice && !error && <Alert className="login-card__alert" type="warning" showIcon message={notice} closable onClose={() => setNotice(null)} />}
      <Form<PasswordLogin>
        form={form}
        size="large"
        onFinish={submit}
        initialValues={readRememberedAccount() ?? undefined}
        autoComplete="on"
        requiredMark={false}
      >
        <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
          <Input prefix={<UserOutlined />} placeholder="账号" autoComplete="username" aria-label="账号" maxLength={64} />
        </Form.Item>
        <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Password prefix={<LockOutlined />} placeholder="密码" autoComplete="current-password" aria-label="密码" maxLength={64} />
        </Form.Item>
        <Form.Item name="orgCode" rules={[{ required: true, whitespace: true, message: '请输入组织机构代码（统一社会信用代码）' }]}>
          <Input prefix={<IdcardOutlined />} placeholder="组织机构代码（统一社会信用代码）" aria-label="组织机构代码" maxLength={32} />
        </Form.Item>
        {config.captchaEnabled && (
          <Form.Item>
            <div className="login-card__captcha">
              <Form.Item name="validateCode" noStyle rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
                <Input prefix={<SafetyOutlined />} placeholder="验证码" aria-label="验证码" maxLength={8} autoComplete="off" />
              </Form.Item>
              <Tooltip title="看不清？点击换一张">
                <button type="button" className="login-card__captcha-image" onClick={captcha.refresh} aria-label="刷新验证码">
                  {captcha.src ? <img src={captcha.src} alt="验证码" /> : <span>加载中…</span>}
                </button>
              </Tooltip>
            </div>
          </Form.Item>
        )}
        <Form.Item className="login-card__submit">
          <Button type="primary" htmlType="submit" block loading={submitting}>
            登 录
          </Button>
        </Form.Item>
      </Form>
      <div className="login-card__links">
        <Link to="/register">企业账号注册</Link>
        <Link to="/registerAuditQuery">注册进度查询</Link>
        <Link to="/resetPassword">忘记密码</Link>
      </div>
      <div className="login-card__public">
        <Link to="/inspection-results">双随机抽查结果公示</Link>
      </div>
    </LoginLayout>
  );
}
