import { Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { updateProfile, type ProfileForm } from '../../app/auth';
import { notify } from '../../app/notify';
import { useSession } from '../../app/session';
import { fieldRule, VALIDATE_DEBOUNCE } from './fieldRules';

/** Personal information: name, identity card, phone, mobile (the update-profile payload of the original API). */
export default function ProfileModal({ onClose }: { onClose: () => void }) {
  const { user } = useSession();
  const [form] = Form.useForm<ProfileForm>();
  const [saving, setSaving] = useState(false);

  async function submit() {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await updateProfile(values);
      notify.message.success('保存成功');
      onClose();
    } catch {
      // shown by the api client
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title="个人信息"
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      onOk={() => void submit().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form<ProfileForm>
        form={form}
        layout="vertical"
        initialValues={{ name: user?.name ?? '', identityCard: user?.idCard ?? '', phone: user?.phone ?? '', mobile: user?.mobile ?? '' }}
      >
        <Form.Item label="账号">
          <Input value={user?.loginName} disabled />
        </Form.Item>
        <Form.Item name="name" label="姓名" rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}>
          <Input maxLength={100} />
        </Form.Item>
        <Form.Item name="identityCard" label="身份证号" validateDebounce={VALIDATE_DEBOUNCE} rules={[fieldRule('idCard')]}>
          <Input maxLength={18} />
        </Form.Item>
        <Form.Item name="phone" label="联系电话" validateDebounce={VALIDATE_DEBOUNCE} rules={[fieldRule('phoneOrLandline')]}>
          <Input maxLength={30} />
        </Form.Item>
        <Form.Item name="mobile" label="手机号码" validateDebounce={VALIDATE_DEBOUNCE} rules={[fieldRule('mobile')]}>
          <Input maxLength={11} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
