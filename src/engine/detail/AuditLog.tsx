/**
 * 修改记录 of a record: who changed which fields when, newest first, in a collapsed panel that loads
 * when opened (most readers never need it). Each field shows its text before → after.
 */
import { Collapse, Empty, Table, Typography } from 'antd';
import { useState } from 'react';
import { useEngine } from '../context';
import { useAuditLog } from '../data/hooks';
import type { AuditEntry } from '../data/provider';
import { actionLabel } from '../../schema/model';
import type { Resource } from '../../schema/types';
import { formatDateTime } from '../render/values';
import { LoadFailed, LoadingBlock } from '../ui';

const SAVES: Record<string, string> = { insert: '新增', update: '修改' };
const BLANK = '空';

function operationLabel(resource: Resource, operation: string): string {
  return SAVES[operation] ?? actionLabel(operation, resource.workflow?.actions[operation]?.label) ?? operation;
}

function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return <Typography.Text type="secondary">无字段变化</Typography.Text>;
  return (
    <div>
      {entry.changes.map((c) => (
        <div key={c.field} style={{ wordBreak: 'break-all' }}>
          <Typography.Text type="secondary">{c.label}：</Typography.Text>
          {entry.operation === 'insert' ? c.to || BLANK : `${c.from || BLANK} → ${c.to || BLANK}`}
        </div>
      ))}
    </div>
  );
}

function AuditTable({ resource, id }: { resource: Resource; id: string }) {
  const { data, error, isLoading, mutate } = useAuditLog(resource.name, id, true);
  if (error) return <LoadFailed error={error} onRetry={() => void mutate()} />;
  if (isLoading || !data) return <LoadingBlock rows={3} />;
  if (data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无修改记录" />;
  return (
    <Table<AuditEntry>
      rowKey="id"
      size="small"
      pagination={data.length > 10 ? { pageSize: 10, size: 'small', showSizeChanger: false } : false}
      dataSource={data}
      columns={[
        { title: '时间', dataIndex: 'createDate', width: 170, render: (v: string) => formatDateTime(v) },
        { title: '操作人', dataIndex: 'userName', width: 120, render: (v: string | null) => v ?? '系统' },
        { title: '操作', dataIndex: 'operation', width: 110, render: (v: string) => operationLabel(resource, v) },
        { title: '修改内容', key: 'changes', render: (_: unknown, entry) => <Changes entry={entry} /> },
      ]}
    />
  );
}

export default function AuditLog({ resource, id }: { resource: Resource; id: string }) {
  const { dataProvider } = useEngine();
  const [open, setOpen] = useState(false);
  if (!dataProvider.auditLog) return null;
  return (
    <Collapse
      ghost
      style={{ marginBottom: 16 }}
      onChange={(keys) => setOpen(keys.length > 0)}
      items={[{ key: 'audit', label: '修改记录', children: open ? <AuditTable resource={resource} id={id} /> : null }]}
    />
  );
}
