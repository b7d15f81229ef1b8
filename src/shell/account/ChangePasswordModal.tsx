import { Alert, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { updatePassword } from '../../app/auth';
import { notify } from '../../app/notify';
import { LOGIN_PATH } from '../../app/routes';
import type { PasswordChangeReason } from '../../app/session';
import { tabStore } from '../tabs/store';
import { useShellActions } from '../useShellActions';
import StrengthMeter from '../../engine/form/StrengthMeter';
import { changePasswordMessages as msg, passwordsMatch } from '../../../validators';
import { PASSWORD_GUIDANCE, passwordRule } from './fieldRules';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  /** Only compared in the browser, never sent. */
  newPasswordCheck: string;
}

interface ChangePasswordModalProps {
  /** Opened at entry for a simple password: cannot be dismissed, cancel logs out. */
  forced: boolean;
  /** Why the server requires the change (the forced dialog says so); none: a simple password. */
  reason?: PasswordChangeReason | null;
  onClose: () => void;
}

const FORCED_NOTICE: Record<PasswordChangeReason | 'simple', string> = {
  administrator: '您的密码由管理员设置，为保障账号安全，请修改密码后继续使用。',
  expired: '您的密码已超过规定期限未修改，为保障账号安全，请修改密码后继续使用。',
  simple: '您的密码过于简单，为保障账号安全，请修改密码后继续使用。',
};

/** Change password (as in the original portal); on success the session ends and the user logs in again. */
export default function ChangePasswordModal({ forced, reason = null, onClose }: ChangePasswordModalProps) {
  const [form] = Form.useForm<PasswordForm>();
  const newPassword = Form.useWatch('newPassword', form);
  const [saving, setSaving] = useState(false);
  const navigate = useNavigate();
  const { signOut } = useShellActions();

  async function submit() {
    const values = await form.validateFields();
    if (!passwordsMatch(values.newPassword, values.newPasswordCheck)) {
      notify.modal.warning({ title: msg.mismatchTitle, content: msg.mismatch, okText: '确定' });
      return;
    }
    setSaving(true);
    try {
      await updatePassword(values.oldPassword, values.newPassword);
      notify.message.success('密码修改成功，请重新登录');
      await navigate(LOGIN_PATH, { replace: true });
      tabStore.set([]);
    } catch {
      // the api client showed the server's message (e.g. 原密码错误)
    } finally {
      setSaving(false);
    }
  }

  const cancel = () => (forced ? void signOut({ confirmTabs: false }) : onClose());

  return (
    <Modal
      open
      rootClassName="change-password-modal"
      title={forced ? '请修改登录密码' : '修改密码'}
      okText="确定"
      cancelText={forced ? '退出登录' : '取消'}
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={cancel}
      closable={!forced}
      maskClosable={false}
      keyboard={!forced}
      destroyOnHidden
    >
      {forced && <Alert type="warning" showIcon message={FORCED_NOTICE[reason ?? 'simple']} style={{ marginBottom: 12 }} />}
      <Alert type="info" message={PASSWORD_GUIDANCE} style={{ marginBottom: 20 }} />
      <Form<PasswordForm> form={form} layout="vertical" requiredMark>
        <Form.Item name="oldPassword" label="当前密码" rules={[{ required: true, message: msg.oldPasswordRequired }]}>
          <Input.Password autoComplete="current-password" maxLength={64} />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          validateTrigger="onBlur"
          extra={<StrengthMeter value={newPassword} />}
          rules={[{ required: true, message: msg.newPasswordRequired }, passwordRule]}
        >
          <Input.Password autoComplete="new-password" maxLength={14} />
        </Form.Item>
        <Form.Item name="newPasswordCheck" label="确认新密码" rules={[{ required: true, message: msg.confirmRequired }]}>
          <Input.Password autoComplete="new-password" maxLength={14} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
