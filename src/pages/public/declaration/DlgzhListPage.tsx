/**
 * /dlgzhList (申报列表, open): the declarations of a mobile proved by its SMS code (once per 30
 * minutes in this browser tab), newest first, each opening /dlgzhDetail.
 */
import { Button, Card, Empty, Form, Table, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, post, type ApiError } from '../../../app/api';
import type { Page } from '../../../shared/contract';
import {
  DECLARATION_API,
  DECLARATION_CATEGORIES,
  DECLARATION_STATE_COLORS,
  DECLARATION_STATES,
  type Declaration,
  type DeclarationAccess,
} from '../../../shared/declaration';
import type { PageProps } from '../../types';
import { clearAccess, loadAccess, saveAccess } from './access';
import { MobileProofFields } from './SmsCodeInput';
import '../public.css';

export function Prove({ onProved }: { onProved(access: DeclarationAccess): void }) {
  const [form] = Form.useForm<{ mobile: string; code: string }>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Form
      form={form}
      name="dlgzhProve"
      layout="vertical"
      disabled={busy}
      onFinish={async (v) => {
        setBusy(true);
        setError(null);
        try {
          const access = await post<DeclarationAccess>(DECLARATION_API.login, v, { silent: true });
          saveAccess(access);
          onProved(access);
        } catch (err) {
          setError((err as ApiError).message);
        } finally {
          setBusy(false);
        }
      }}
    >
      <Typography.Paragraph type="secondary">请输入申报时填写的手机号码，并用短信验证码验证。</Typography.Paragraph>
      <MobileProofFields form={form} />
      {error ? (
        <div style={{ color: '#ff4d4f', marginBottom: 16 }} role="alert">
          {error}
        </div>
      ) : null}
      <Button type="primary" htmlType="submit" loading={busy} block>
        查询我的申报
      </Button>
    </Form>
  );
}

export default function DlgzhListPage({ entry }: PageProps) {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [access, setAccess] = useState(loadAccess);
  const pageNo = Number(params.get('pageNo') ?? 1) || 1;
  const list = useSWR<Page<Declaration>, ApiError>(
    access ? ['dlgzh:list', access.access, pageNo] : null,
    () => get<Page<Declaration>>(DECLARATION_API.list, { params: { access: access!.access, pageNo, pageSize: 10 }, silent: true }),
    {
      onError: () => undefined,
    },
  );
  const expired = list.error !== undefined;
  return (
    <div className="public-page">
      <Card
        title={entry.title}
        className="public-page__card"
        extra={
          <Button type="primary" onClick={() => void navigate('/dlgzh')}>
            新的申报
          </Button>
        }
      >
        {!access || expired ? (
          <>
            {expired ? <Typography.Paragraph type="warning">{list.error?.message}</Typography.Paragraph> : null}
            <Prove
              onProved={(a) => {
                setAccess(a);
                void list.mutate();
              }}
            />
          </>
        ) : (
          <>
            <Typography.Paragraph>
              手机号码：{access.mobile}{' '}
              <Typography.Link
                onClick={() => {
                  clearAccess();
                  setAccess(null);
                }}
              >
                换一个号码
              </Typography.Link>
            </Typography.Paragraph>
            <Table<Declaration>
              rowKey="id"
              size="small"
              loading={list.isLoading}
              dataSource={list.data?.list ?? []}
              locale={{ emptyText: <Empty description="这个手机号码还没有申报" /> }}
              pagination={{
                current: pageNo,
                pageSize: 10,
                total: Number(list.data?.count ?? 0),
                onChange: (p) => setParams({ pageNo: String(p) }, { replace: true }),
              }}
              onRow={(row) => ({ onClick: () => void navigate(`/dlgzhDetail?id=${row.id}`), style: { cursor: 'pointer' } })}
              columns={[
                { title: '申报编号', dataIndex: 'declNo', width: 150 },
                { title: '标题', dataIndex: 'title', ellipsis: true },
                { title: '类别', dataIndex: 'category', width: 110, render: (v: string) => DECLARATION_CATEGORIES[v] ?? v },
                {
                  title: '状态',
                  dataIndex: 'status',
                  width: 80,
                  render: (v: string) => <Tag color={DECLARATION_STATE_COLORS[v]}>{DECLARATION_STATES[v] ?? v}</Tag>,
                },
                { title: '申报时间', dataIndex: 'createDate', width: 140, render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm') },
              ]}
            />
          </>
        )}
      </Card>
    </div>
  );
}
