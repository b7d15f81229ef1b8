/**
 * Pieces the open account pages share (the registration query, the result pages): a card on the
 * login page's backdrop, the SMS-code input (the engine's, 60-second resend countdown) and the
 * validator catalogue as antd rules.
 */
import { Card } from 'antd';
import type { Rule } from 'antd/es/form';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { rules as catalogue, type RuleName } from '../../../validators';
import { post } from '../../app/api';
import { SmsCodeInput as CodeInput } from '../../engine/open/SmsCodeInput';
import { notify } from '../../app/notify';

export const COMMON = '/a/stone/common';

export function OpenPage({ title, children, width = 760 }: { title: string; children: ReactNode; width?: number }) {
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '32px 16px' }}>
      <Card title={title} style={{ maxWidth: width, margin: '0 auto' }} extra={<Link to="/login">返回登录</Link>}>
        {children}
      </Card>
    </div>
  );
}

/** A catalogue rule as an antd rule (empty values pass; `required` is separate). */
export function ruleOf(name: RuleName): Rule {
  return {
    validator: (_rule, value: unknown) => {
      const message = value === undefined || value === null || value === '' ? undefined : catalogue[name](value as string);
      return message ? Promise.reject(new Error(message)) : Promise.resolve();
    },
  };
}

export const required = (message: string): Rule => ({ required: true, whitespace: true, message });

/**
 * The code input with its 获取验证码 button (the engine's, with its 60-second countdown). `target()`
 * returns the path part (e.g. the credit code of a query) or null when the fields it needs are not
 * valid yet.
 */
export function SmsCodeInput({
  id,
  purpose,
  target,
  value,
  onChange,
}: {
  id?: string;
  purpose: string;
  target: () => Promise<string | null>;
  value?: string;
  onChange?: (v: string) => void;
}) {
  const send = async () => {
    const t = await target();
    if (!t) return false;
    try {
      const reply = await post<{ message: string }>(`${COMMON}/smsAuthCode/${purpose}/${encodeURIComponent(t)}`, {});
      notify.message.success(reply.message);
      return true;
    } catch {
      return false; // the api module has shown the message
    }
  };
  return <CodeInput id={id} value={value} onChange={onChange} send={send} />;
}
