/**
 * Pieces the open registration and password-reset pages share: a card on the login page's
 * backdrop, the SMS-code input (the engine's, 60-second resend countdown), the validator catalogue as
 * antd rules, and the area and unit-type options from the dictionaries.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Button, Card, Upload } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { rules as catalogue, type RuleName } from '../../../validators';
import areaDict from '../../../schemas/dicts/area.json';
import unitTypeDict from '../../../schemas/dicts/unit-type.json';
import { post, postFile } from '../../app/api';
import { SmsCodeInput as CodeInput } from '../../engine/open/SmsCodeInput';
import { notify } from '../../app/notify';
import { ATTACHMENT_ROUTES } from '../../shared/contract';

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

interface DictItem {
  value: string;
  label: string;
  children?: DictItem[];
}
interface AreaOption {
  value: string;
  label: string;
  children?: AreaOption[];
}
const toOptions = (items: DictItem[]): AreaOption[] =>
  items.map((i) => ({ value: i.value, label: i.label, ...(i.children?.length ? { children: toOptions(i.children) } : {}) }));

export const AREA_OPTIONS = toOptions(areaDict.items as DictItem[]);
export const UNIT_TYPE_OPTIONS = (unitTypeDict.items as DictItem[]).map((i) => ({ value: i.value, label: i.label }));

/** The path of codes from the root to `code` in the area tree (for the cascader's value). */
export function areaPath(code: string | undefined): string[] {
  const walk = (items: DictItem[], trail: string[]): string[] | null => {
    for (const i of items) {
      if (i.value === code) return [...trail, i.value];
      const found = i.children ? walk(i.children, [...trail, i.value]) : null;
      if (found) return found;
    }
    return null;
  };
  return (code && walk(areaDict.items as DictItem[], [])) || [];
}

/**
 * The code input with its 获取验证码 button (the engine's, with its 60-second countdown). `target()`
 * returns the path part (mobile, credit code or login name) or null when the fields it needs are
 * not valid yet; `body` goes with the request.
 */
export function SmsCodeInput({ id, purpose, target, body, value, onChange }: { id?: string; purpose: string; target: () => Promise<string | null>; body?: () => Record<string, unknown>; value?: string; onChange?: (v: string) => void }) {
  const send = async () => {
    const t = await target();
    if (!t) return false;
    try {
      const reply = await post<{ message: string }>(`${COMMON}/smsAuthCode/${purpose}/${encodeURIComponent(t)}`, body?.() ?? {});
      notify.message.success(reply.message);
      return true;
    } catch {
      return false; // the api module has shown the message
    }
  };
  return <CodeInput id={id} value={value} onChange={onChange} send={send} />;
}

export interface UploadedFile {
  id: string;
  name: string;
}

/**
 * Files for an application not filed yet (POST applyUpload, no session): up to 5, pdf / jpg / png.
 * The value is [{ id, name }]; the server attaches them when the application is filed.
 */
export function ApplyFiles({ id, value, onChange }: { id?: string; value?: UploadedFile[]; onChange?: (files: UploadedFile[]) => void }) {
  const files = value ?? [];
  const [busy, setBusy] = useState(false);
  const upload = async (file: File) => {
    setBusy(true);
    try {
      const info = await postFile<UploadedFile>(ATTACHMENT_ROUTES.visitorUpload, { file });
      onChange?.([...files, { id: info.id, name: info.name }]);
    } catch {
      // shown by the api module
    } finally {
      setBusy(false);
    }
    return false;
  };
  return (
    <Upload
      id={id}
      accept=".pdf,.jpg,.jpeg,.png"
      maxCount={5}
      fileList={files.map((f) => ({ uid: f.id, name: f.name, status: 'done' as const }))}
      beforeUpload={(file) => (files.length >= 5 ? false : upload(file))}
      onRemove={(f) => onChange?.(files.filter((x) => x.id !== f.uid))}
    >
      <Button icon={<UploadOutlined />} loading={busy} disabled={files.length >= 5}>
        上传文件
      </Button>
    </Upload>
  );
}
