/** /register-success and /resetSuccess: what happens next. */
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { OpenPage as Card } from '../../engine/ui';
import type { PageProps } from '../types';

/** A card on the sign-in backdrop, as the open screens show. */
function OpenPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card title={title} width={760} extra={<Link to="/login">返回登录</Link>}>
      {children}
    </Card>
  );
}

export function RegisterSuccess(_props: PageProps) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const applyNo = search.get('applyNo');
  return (
    <OpenPage title="注册申请已提交">
      <Result
        status="success"
        title="注册申请已提交"
        subTitle={`${applyNo ? `申请编号 ${applyNo}。` : ''}监管部门审核后将以短信通知联系人手机；审核通过后即可使用登录账号和密码登录。如被退回，可在注册进度查询中修改后重新提交。`}
        extra={[
          <Button key="q" onClick={() => navigate('/registerAuditQuery')}>
            注册进度查询
          </Button>,
          <Button key="l" type="primary" onClick={() => navigate('/login')}>
            返回登录
          </Button>,
        ]}
      />
    </OpenPage>
  );
}

export function ResetSuccess(_props: PageProps) {
  const navigate = useNavigate();
  return (
    <OpenPage title="密码重置申请已提交">
      <Result
        status="success"
        title="密码重置申请已提交"
        subTitle="监管部门审核通过后，临时密码将以短信发送至账号的注册手机；使用临时密码登录后须立即修改密码。"
        extra={
          <Button type="primary" onClick={() => navigate('/login')}>
            返回登录
          </Button>
        }
      />
    </OpenPage>
  );
}

export default RegisterSuccess;
