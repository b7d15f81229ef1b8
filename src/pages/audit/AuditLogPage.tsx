/**
 * 安全审计日志 (the authority): who did what to which record, and security events, in the units of
 * its area — searched by unit, user, operation, business (resource, by its Chinese title), record
 * number and time; newest first, paged by the server; 导出 downloads the same search as XLSX.
 * Each change reads `字段：旧值 → 新值`. The server decides who may see it and which rows
 * (routes/audit-log.ts); this page only asks.
 */
import { DownloadOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, DatePicker, Empty, Form, Input, Select, Space, Table, Typography, type TableProps } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import dayjs, { type Dayjs } from 'dayjs';
import { formatDateTime } from '../../engine/render/values';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, getBlob, type ApiError } from '../../app/api';
import { notify } from '../../app/notify';
import type { Page } from '../../shared/contract';
import type { PageProps } from '../types';

interface Change {
  field?: string;
  label?: string;
  from?: string;
  to?: string;
}

interface AuditRow {
  id: string;
  seq: number;
  time: string;
  unitName: string | null;
  userName: string | null;
  resource: string;
  resourceTitle: string;
  recordId: string;
  operation: string;
  operationLabel: string;
  changes: Change[];
}

interface Option {
  value: string;
  label: string;
}

const FILTERS = ['unitName', 'userName', 'operation', 'resource', 'recordId', 'from', 'to'] as const;

/** A long value (a commitment's text) is cut in the list; the cell's tooltip and the export hold it whole. */
const LONG = 60;
const short = (text: string) => (text.length > LONG ? `${text.slice(0, LONG)}…` : text);

function Changes({ changes }: { changes: Change[] }) {
  if (!changes.length) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {changes.map((c, i) => (
        <div key={i} style={{ wordBreak: 'break-all' }} title={(c.from?.length ?? 0) > LONG || (c.to?.length ?? 0) > LONG ? `${c.from ? `${c.from} → ` : ''}${c.to ?? ''}` : undefined}>
          <Typography.Text strong>{c.label ?? c.field}</Typography.Text>：
          {c.from ? (
            <>
              <Typography.Text type="secondary">{short(c.from)}</Typography.Text> → {short(c.to || '（空）')}
            </>
          ) : (
            short(c.to ?? '')
          )}
        </div>
      ))}
    </div>
  );
}

export default function AuditLogPage({ entry }: PageProps) {
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm();
  const [exporting, setExporting] = useState(false);
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? ''])) as Record<(typeof FILTERS)[number], string>;
  const query = { ...filters, pageNo: Number(params.get('pageNo') ?? 1) || 1, pageSize: Number(params.get('pageSize') ?? 20) || 20, order: params.get('order') === 'asc' ? 'asc' : 'desc' };
  const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const list = useSWR<Page<AuditRow>, ApiError>(['audit:list', JSON.stringify(clean)], () => get<Page<AuditRow>>('/audit/list', { params: clean, silent: true }), { keepPreviousData: true });
  const options = useSWR<{ resources: Option[]; operations: Option[] }, ApiError>('audit:options', () => get<{ resources: Option[]; operations: Option[] }>('/audit/options', { silent: true }));

  const setQuery = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    setParams(merged, { replace: true });
  };

  const download = async () => {
    setExporting(true);
    try {
      const search = new URLSearchParams(Object.entries(clean).filter(([k]) => k !== 'pageNo' && k !== 'pageSize').map(([k, v]) => [k, String(v)]));
      const blob = await getBlob(`/audit/export?${search.toString()}`, { silent: true });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `${entry.title}.xlsx`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (err) {
      notify.message.error((err as ApiError).message);
    } finally {
      setExporting(false);
    }
  };

  const timeOrder: SortOrder = query.order === 'asc' ? 'ascend' : 'descend';
  const columns: TableProps<AuditRow>['columns'] = [
    { title: '时间', dataIndex: 'time', key: 'time', width: 150, sorter: true, sortOrder: timeOrder, sortDirections: ['descend', 'ascend', 'descend'], render: formatDateTime },
    { title: '单位', dataIndex: 'unitName', width: 160, ellipsis: true, render: (v: string | null) => v ?? '—' },
    { title: '操作人', dataIndex: 'userName', width: 90, ellipsis: true, render: (v: string | null) => v ?? '—' },
    { title: '操作', dataIndex: 'operationLabel', width: 90 },
    { title: '业务', dataIndex: 'resourceTitle', width: 120, ellipsis: true },
    {
      title: '记录编号',
      dataIndex: 'recordId',
      width: 110,
      ellipsis: true,
      render: (v: string) => (
        <Typography.Link title={`只看该记录：${v}`} onClick={() => { form.setFieldValue('recordId', v); setQuery({ recordId: v, pageNo: undefined }); }}>
          {v}
        </Typography.Link>
      ),
    },
    { title: '变更内容', dataIndex: 'changes', width: 300, render: (v: Change[]) => <Changes changes={v} /> },
  ];

  const range: [Dayjs | null, Dayjs | null] | null = query.from || query.to ? [query.from ? dayjs(query.from) : null, query.to ? dayjs(query.to) : null] : null;
  const data = list.data;
  return (
    <Card
      title={entry.title}
      extra={
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void download()}>
          导出
        </Button>
      }
    >
      <Form
        form={form}
        name="auditFilter"
        layout="inline"
        initialValues={{ ...Object.fromEntries(Object.entries(filters).map(([k, v]) => [k, v || undefined])), range }}
        onFinish={(v: Record<string, unknown>) => {
          const [from, to] = (v.range as [Dayjs | null, Dayjs | null] | null) ?? [null, null];
          const text = (k: string) => String(v[k] ?? '').trim();
          setQuery({ unitName: text('unitName'), userName: text('userName'), operation: text('operation'), resource: text('resource'), recordId: text('recordId'), from: from?.format('YYYY-MM-DD') ?? '', to: to?.format('YYYY-MM-DD') ?? '', pageNo: undefined });
        }}
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="unitName" label="单位">
          <Input allowClear placeholder="单位名称" style={{ width: 170 }} />
        </Form.Item>
        <Form.Item name="userName" label="操作人">
          <Input allowClear style={{ width: 100 }} />
        </Form.Item>
        <Form.Item name="operation" label="操作">
          <Select allowClear placeholder="全部" style={{ width: 130 }} options={options.data?.operations ?? []} />
        </Form.Item>
        <Form.Item name="resource" label="业务">
          <Select allowClear showSearch optionFilterProp="label" placeholder="全部" style={{ width: 170 }} options={options.data?.resources ?? []} />
        </Form.Item>
        <Form.Item name="recordId" label="记录编号">
          <Input allowClear style={{ width: 150 }} />
        </Form.Item>
        <Form.Item name="range" label="时间">
          <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
        </Form.Item>
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                form.resetFields();
                form.setFieldsValue({ ...Object.fromEntries(FILTERS.map((k) => [k, undefined])), range: null });
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              重置
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<AuditRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={list.isLoading || list.isValidating}
        scroll={{ x: 1020 }}
        locale={{ emptyText: list.error ? <Empty description={list.error.message} /> : <Empty description="没有符合条件的审计记录" /> }}
        onChange={(pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          setQuery({ pageNo: pagination.current, pageSize: pagination.pageSize, order: s?.order === 'ascend' ? 'asc' : undefined });
        }}
        pagination={{ current: query.pageNo, pageSize: query.pageSize, total: Number(data?.count ?? 0), showSizeChanger: true, showTotal: (total: number) => `共 ${total} 条` }}
      />
    </Card>
  );
}
