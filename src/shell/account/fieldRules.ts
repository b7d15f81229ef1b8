/**
 * antd Form rules for the shell's account forms, over the shared validation catalogue.
 * TEMPORARY: validators/index.ts (rules, passwordStrength, PASSWORD_GUIDANCE) is being written in
 * parallel. TODO(validators): replace the local `catalogue` below with
 *   import { rules, PASSWORD_GUIDANCE } from '../../../validators';
 * and show src/engine/form/StrengthMeter.tsx under the new password field.
 */
import type { Rule } from 'antd/es/form';

type Check = (value: string) => string | undefined;

const catalogue: Record<'password' | 'mobile' | 'phone' | 'idCard', Check> = {
  password: (v) => {
    const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^a-zA-Z\d]/].filter((re) => re.test(v)).length;
    return v.length >= 8 && v.length <= 14 && classes >= 3 ? undefined : '请输入8-14位含字母、数字和特殊符号的密码';
  },
  mobile: (v) => (/^1[3-9]\d{9}$/.test(v) ? undefined : '请输入有效的手机号码'),
  phone: (v) => (/^(\d{3,4}-\d{7,8}|\d{7,8}|1[3-9]\d{9})$/.test(v) ? undefined : '请输入有效的手机号或者座机号'),
  idCard: (v) => (/^\d{17}[\dXx]$/.test(v) ? undefined : '请输入有效的身份证号'),
};

export const PASSWORD_GUIDANCE = '密码长度为8~14位，须至少包含一个数字、一个字母和一个特殊字符（! @ # $ % ^ & * ? ( )）';

/** An antd rule that runs a catalogue check; empty values pass (required is separate). */
export function fieldRule(name: keyof typeof catalogue): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const message = catalogue[name](String(value));
      if (message) throw new Error(message);
    },
  };
}

export const passwordRule = fieldRule('password');
