/**
 * /resetPassword: a password reset application — login name, the unit's credit code, an SMS code
 * sent to the account's registered mobile (the reply never says whether the account exists), the
 * applicant and the reason. passwordRestApplyCheck first, then passwordRestApply; /resetSuccess.
 */
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { post } from '../../app/api';
import type { PageProps } from '../types';
import { ApplyFiles, COMMON, OpenPage, required, ruleOf, SmsCodeInput, type UploadedFile } from './common';

interface Values {
  loginName: string;
  orgcode: string;
  smsCode: string;
  applicant: string;
  reason?: string;
  identityDoc?: UploadedFile[];
}

export default function ResetPasswordPage(_props: PageProps) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const target = async () => {
    try {
      return (await form.validateFields(['loginName', 'orgcode'])).loginName;
    } catch {
      return null;
    }
  };
  const submit = async (v: Values) => {
    setBusy(true);
    try {
      await post(`${COMMON}/passwordRestApplyCheck`, v);
      await post(`${COMMON}/passwordRestApply`, v);
      navigate('/resetSuccess');
    } catch {
      // shown; input kept
    } finally {
      setBusy(false);
    }
  };
  return (
    <OpenPage title="密码重置申请" width={560}>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message="验证码将发送至该账号的注册手机；审核通过后临时密码以短信发送，登录后须立即修改。" />
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item name="loginName" label="登录账号" rules={[required('请输入登录账号')]}>
          <Input maxLength={50} autoComplete="username" />
        </Form.Item>
        <Form.Item name="orgcode" label="统一社会信用代码" rules={[required('请输入统一社会信用代码'), ruleOf('unifiedCreditCode')]} validateDebounce={500}>
          <Input maxLength={18} onChange={(e) => form.setFieldValue('orgcode', e.target.value.toUpperCase())} />
        </Form.Item>
        <Form.Item name="smsCode" label="短信验证码" rules={[required('请输入短信验证码'), { len: 6, message: '请输入6位短信验证码' }]}>
          <SmsCodeInput purpose="reset" target={target} body={() => ({ orgcode: form.getFieldValue('orgcode') })} />
        </Form.Item>
        <Form.Item name="applicant" label="申请人" rules={[required('请输入申请人')]}>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="identityDoc" label="身份证明材料" rules={[{ required: true, message: '请上传身份证明材料' }]} extra="申请人身份证正反面及单位授权书，支持 PDF、JPG、PNG">
          <ApplyFiles />
        </Form.Item>
        <Form.Item name="reason" label="申请原因">
          <Input.TextArea maxLength={500} showCount rows={3} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block>
          提交申请
        </Button>
      </Form>
    </OpenPage>
  );
}
