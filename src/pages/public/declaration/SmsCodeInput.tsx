/**
 * A code box with 获取验证码 (60 s countdown) sending to the mobile of the form's `mobile` field, and
 * MobileProofFields: the 手机号码 and 短信验证码 items that prove a mobile.
 */
import { Form, Input, type FormInstance } from 'antd';
import { post, type ApiError } from '../../../app/api';
import { notify } from '../../../app/notify';
import { SmsCodeInput as CodeInput } from '../../../engine/open/SmsCodeInput';
import { DECLARATION_API } from '../../../shared/declaration';
import { rules } from '../../../../validators';
import { fieldRule } from '../../../shell/account/fieldRules';

export default function SmsCodeInput({ form, value, onChange }: { form: FormInstance; value?: string; onChange?: (v: string) => void }) {
  const send = async () => {
    const mobile = String(form.getFieldValue('mobile') ?? '').trim();
    if (!mobile || rules.mobile(mobile)) {
      await form.validateFields(['mobile']).catch(() => undefined);
      return false;
    }
    try {
      await post(DECLARATION_API.smsCode, { mobile }, { silent: true });
      notify.message.success('验证码已发送，请查收短信');
      return true;
    } catch (err) {
      notify.message.error((err as ApiError).message);
      return false;
    }
  };
  return <CodeInput value={value} onChange={onChange} send={send} />;
}

/** The form items `mobile` (手机号码) and `code` (短信验证码, sent by SmsCodeInput) of a form proving a mobile. */
export function MobileProofFields({ form }: { form: FormInstance }) {
  return (
    <>
      <Form.Item name="mobile" label="手机号码" rules={[{ required: true, message: '请输入手机号码' }, fieldRule('mobile')]}>
        <Input maxLength={11} inputMode="numeric" />
      </Form.Item>
      <Form.Item
        name="code"
        label="短信验证码"
        rules={[
          { required: true, message: '请输入短信验证码' },
          { len: 6, message: '验证码为6位数字' },
        ]}
      >
        <SmsCodeInput form={form} />
      </Form.Item>
    </>
  );
}
