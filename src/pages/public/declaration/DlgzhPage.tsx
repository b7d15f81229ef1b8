/**
 * /dlgzh (简易申报, open): an outside party files a short declaration — who, what kind, a title,
 * where, what — proved by its mobile's SMS code. On success it shows the declaration number and
 * opens its list (/dlgzhList) without a second code.
 */
import { Button, Card, Form, Input, Result, Select, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { post, type ApiError } from '../../../app/api';
import { DECLARATION_API, DECLARATION_CATEGORIES, type DeclarationAccess } from '../../../shared/declaration';
import type { PageProps } from '../../types';
import { loadAccess, saveAccess } from './access';
import { MobileProofFields } from './SmsCodeInput';
import '../public.css';

interface Values {
  mobile: string;
  code: string;
  declarant: string;
  category: string;
  title: string;
  address?: string;
  content: string;
}

export default function DlgzhPage({ entry }: PageProps) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const existing = loadAccess();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (values: Values) => {
    setSaving(true);
    setError(null);
    try {
      const body = existing ? { ...values, access: existing.access, mobile: undefined, code: undefined } : values;
      const result = await post<{ declNo: string } & DeclarationAccess>(DECLARATION_API.save, body, { silent: true });
      if (result.expiresAt) saveAccess({ access: result.access, mobile: result.mobile, expiresAt: result.expiresAt });
      setDone(result.declNo);
    } catch (err) {
      setError((err as ApiError).message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="public-page">
      <Card title={entry.title} className="public-page__card">
        {done ? (
          <Result
            status="success"
            title="申报已提交"
            subTitle={`申报编号：${done}。监管部门受理后会通过短信告知处理情况。`}
            extra={[
              <Button type="primary" key="list" onClick={() => void navigate('/dlgzhList')}>
                查看我的申报
              </Button>,
              <Button key="again" onClick={() => { form.resetFields(); setDone(null); }}>
                再报一件
              </Button>,
            ]}
          />
        ) : (
          <Form form={form} name="dlgzh" layout="vertical" onFinish={(v) => void submit(v)} disabled={saving}>
            {existing ? null : <MobileProofFields form={form} />}
            <Form.Item name="declarant" label="申报人（单位或个人）" rules={[{ required: true, whitespace: true, message: '请输入申报人' }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="category" label="事项类别" rules={[{ required: true, message: '请选择事项类别' }]}>
              <Select options={Object.entries(DECLARATION_CATEGORIES).map(([value, label]) => ({ value, label }))} placeholder="请选择" />
            </Form.Item>
            <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请输入标题' }]}>
              <Input maxLength={100} showCount />
            </Form.Item>
            <Form.Item name="address" label="地点">
              <Input maxLength={200} placeholder="例如：宁波市鄞州区某小区3号楼电梯" />
            </Form.Item>
            <Form.Item name="content" label="申报内容" rules={[{ required: true, whitespace: true, message: '请输入申报内容' }]}>
              <Input.TextArea rows={5} maxLength={2000} showCount />
            </Form.Item>
            {error ? <div style={{ color: '#ff4d4f', marginBottom: 16 }} role="alert">{error}</div> : null}
            <Space>
              <Button type="primary" htmlType="submit" loading={saving}>
                提交申报
              </Button>
              <Button onClick={() => void navigate('/dlgzhList')}>我的申报</Button>
            </Space>
          </Form>
        )}
      </Card>
    </div>
  );
}
