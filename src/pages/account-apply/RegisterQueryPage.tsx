/**
 * /registerAuditQuery and /regCheackList: progress and result of an application by credit code
 * and an SMS code sent to its contact mobile; a returned application is corrected here and
 * submitted again: the open form register-correct-form, embedded and prefilled with the
 * application and the query's code (the code proves it, used up by the resubmission).
 */
import { Alert, Button, Descriptions, Form, Input, Tag, Timeline } from 'antd';
import { useState } from 'react';
import '../../app/dayjs';
import { post } from '../../app/api';
import { EngineProvider, SchemaScreen } from '../../engine';
import { openDataProvider } from '../schemaEngine';
import type { PageProps } from '../types';
import { COMMON, OpenPage, required, ruleOf, SmsCodeInput } from './common';

/** The screen a returned application is corrected with (schemas/screens). */
const CORRECTION_SCREEN = 'register-correct-form';
/** What the query answers about an application that account/resubmit takes from the stored one, not from the form. */
const STORED_ONLY = new Set(['status', 'applyNo', 'version', 'createDate', 'updateDate']);

interface Found {
  application: Record<string, unknown> & { id: string; status: string; applyNo?: string; orgname?: string; loginName?: string };
  flowLog: { action: string; toState: string | null; opinion: string | null; createDate: string }[];
}

const STATUS: Record<string, { label: string; color: string }> = {
  submitted: { label: '待审核', color: 'processing' },
  approved: { label: '已通过', color: 'success' },
  returned: { label: '已退回', color: 'error' },
  withdrawn: { label: '已作废', color: 'default' },
};

export default function RegisterQueryPage(_props: PageProps) {
  const [query] = Form.useForm<{ orgcode: string; smsCode: string }>();
  // The code of the query that found it: the correction posts it (a new query starts a new form).
  const [found, setFound] = useState<(Found & { smsCode: string; seq: number }) | null>(null);
  const [busy, setBusy] = useState(false);
  const orgcode = async () => {
    try {
      return (await query.validateFields(['orgcode'])).orgcode;
    } catch {
      return null;
    }
  };
  const search = async (v: { orgcode: string; smsCode: string }) => {
    setBusy(true);
    try {
      const result = await post<Found>(`${COMMON}/account/query`, v);
      setFound((last) => ({ ...result, smsCode: v.smsCode, seq: (last?.seq ?? 0) + 1 }));
    } catch {
      setFound(null);
    } finally {
      setBusy(false);
    }
  };
  const a = found?.application;
  const status = a ? STATUS[a.status] : undefined;
  return (
    <OpenPage title="注册进度查询">
      <Form form={query} layout="inline" onFinish={(v) => void search(v)} style={{ marginBottom: 16, rowGap: 8 }}>
        <Form.Item name="orgcode" rules={[required('请输入统一社会信用代码'), ruleOf('unifiedCreditCode')]}>
          <Input
            placeholder="统一社会信用代码"
            maxLength={18}
            style={{ width: 200 }}
            onChange={(e) => query.setFieldValue('orgcode', e.target.value.toUpperCase())}
          />
        </Form.Item>
        <Form.Item name="smsCode" rules={[required('请输入短信验证码')]} style={{ width: 300 }}>
          <SmsCodeInput purpose="query" target={orgcode} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          查询
        </Button>
      </Form>
      {!a ? (
        <Alert type="info" showIcon message="验证码将发送至申请时填写的联系人手机。" />
      ) : (
        <>
          <Descriptions bordered size="small" column={2} style={{ marginBottom: 16 }}>
            <Descriptions.Item label="申请编号">{a.applyNo}</Descriptions.Item>
            <Descriptions.Item label="审核状态">{status ? <Tag color={status.color}>{status.label}</Tag> : a.status}</Descriptions.Item>
            <Descriptions.Item label="单位名称">{a.orgname}</Descriptions.Item>
            <Descriptions.Item label="登录账号">{a.loginName}</Descriptions.Item>
          </Descriptions>
          <Timeline
            style={{ marginBottom: 8 }}
            items={found.flowLog.map((e) => ({
              color: e.toState === 'returned' ? 'red' : e.toState === 'approved' ? 'green' : 'blue',
              children: `${e.createDate.slice(0, 16).replace('T', ' ')} ${STATUS[e.toState ?? '']?.label ?? ''}${e.opinion ? `：${e.opinion}` : ''}`,
            }))}
          />
          {a.status === 'returned' ? (
            <EngineProvider dataProvider={openDataProvider} cacheScope="open">
              <SchemaScreen
                key={found.seq}
                screenId={CORRECTION_SCREEN}
                mode="add"
                embedded
                prefill={{ ...Object.fromEntries(Object.entries(a).filter(([name]) => !STORED_ONLY.has(name))), smsCode: found.smsCode }}
              />
            </EngineProvider>
          ) : null}
        </>
      )}
    </OpenPage>
  );
}
