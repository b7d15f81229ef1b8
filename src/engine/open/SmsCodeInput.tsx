/**
 * An SMS code input: six digits and a 获取验证码 button that asks `send` for a code and then counts
 * 60 seconds down before it may ask again. `send` resolves true once a code went out (it checks
 * what the code is for and shows its own messages). Free of the engine's context, so pages outside
 * the engine use it too; SmsCodeField binds it to a form field of a screen.
 */
import { Button, Input, Space } from 'antd';
import { useEffect, useState } from 'react';

/** Seconds before another code may be asked for. */
export const SMS_RESEND_SECONDS = 60;

export interface SmsCodeInputProps {
  id?: string;
  value?: string;
  onChange?: (value: string) => void;
  send: () => Promise<boolean>;
  disabled?: boolean;
  'aria-label'?: string;
}

export function SmsCodeInput({ id, value, onChange, send, disabled, 'aria-label': ariaLabel }: SmsCodeInputProps) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (left <= 0) return undefined;
    const timer = setTimeout(() => setLeft(left - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  const click = async () => {
    setSending(true);
    try {
      if (await send()) setLeft(SMS_RESEND_SECONDS);
    } finally {
      setSending(false);
    }
  };
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        id={id}
        aria-label={ariaLabel}
        value={value ?? ''}
        disabled={disabled}
        onChange={(e) => onChange?.(e.target.value.replace(/\D/g, '').slice(0, 6))}
        placeholder="6位短信验证码"
        inputMode="numeric"
        maxLength={6}
      />
      <Button onClick={() => void click()} loading={sending} disabled={disabled || left > 0} style={{ width: 130 }}>
        {left > 0 ? `${left}秒后重新获取` : '获取验证码'}
      </Button>
    </Space.Compact>
  );
}

export default SmsCodeInput;
