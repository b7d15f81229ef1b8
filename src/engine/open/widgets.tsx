/**
 * Field components of open forms: an SMS code field that sends for other fields of its form once
 * they are valid, and a password input with the strength meter under it.
 */
import { useForm } from '@formily/react';
import { Input } from 'antd';
import type { ComponentProps } from 'react';
import { useFeedback } from '../actions/feedback';
import { useEngine } from '../context';
import { toEngineError } from '../data/provider';
import StrengthMeter from '../form/StrengthMeter';
import { SmsCodeInput } from './SmsCodeInput';
import { callOf, replyMessage } from './templates';

/** Shown when the send call's reply says nothing. */
export const SMS_SENT_MESSAGE = '验证码已发送，请查收短信';

interface SmsCodeFieldProps {
  value?: string;
  onChange?: (value: string) => void;
  disabled?: boolean;
  readOnly?: boolean;
  'aria-label'?: string;
  /** API path of the send call, with {field} placeholders. */
  send: string;
  /** The fields the code is for: validated first, their values in the path or the body. */
  fields: string[];
}

export function SmsCodeField({ send, fields, readOnly, disabled, ...rest }: SmsCodeFieldProps) {
  const form = useForm();
  const { dataProvider } = useEngine();
  const feedback = useFeedback();
  const ask = async (): Promise<boolean> => {
    try {
      await form.validate(fields.length === 1 ? fields[0] : `*(${fields.join(',')})`);
    } catch {
      return false;
    }
    if (!dataProvider.call) {
      feedback.message.error('当前页面不能发送验证码');
      return false;
    }
    const { path, body } = callOf(send, fields, form.values as Record<string, unknown>);
    try {
      feedback.message.success(replyMessage(await dataProvider.call(path, body)) ?? SMS_SENT_MESSAGE);
      return true;
    } catch (error) {
      feedback.message.error(toEngineError(error).message);
      return false;
    }
  };
  return <SmsCodeInput {...rest} disabled={disabled || readOnly} send={ask} />;
}

/** A password input with the strength meter (弱 / 中 / 强) of its value under it. */
export function StrengthPassword({ value, ...rest }: ComponentProps<typeof Input.Password>) {
  return (
    <>
      <Input.Password {...rest} value={value} autoComplete="new-password" />
      <div style={{ marginTop: 4 }}>
        <StrengthMeter value={typeof value === 'string' ? value : undefined} />
      </div>
    </>
  );
}
