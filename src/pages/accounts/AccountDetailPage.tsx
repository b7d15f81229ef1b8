/**
 * /account/account-detail?id= (账号详情, the authority): one account of its area — unit, contact,
 * state and lock, roles with their menus, open sessions — with 停用 / 启用 and 解锁.
 */
import { Alert, Button, Card, Descriptions, Popconfirm, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, post, type ApiError } from '../../app/api';
import { notify } from '../../app/notify';
import { shellEntries } from '../../app/routes';
import { ACCOUNT_API, ACCOUNT_STATUS, type AccountDetail, type AccountRow } from '../../shared/accounts';
import type { PageProps } from '../types';

/** The state tag: 已停用, 已锁定 (until), 正常. */
function StatusTag({ row }: { row: Pick<AccountRow, 'status' | 'locked' | 'lockedUntil'> }) {
  if (row.status !== ACCOUNT_STATUS.active) return <Tag color="red">已停用</Tag>;
  if (row.locked)
    return (
      <Tooltip title={`锁定至 ${dayjs(row.lockedUntil).format('HH:mm')}`}>
        <Tag color="orange">已锁定</Tag>
      </Tooltip>
    );
  return <Tag color="green">正常</Tag>;
}

export default function AccountDetailPage({ entry }: PageProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const account = useSWR<AccountDetail, ApiError>(id ? ['accounts:detail', id] : null, () =>
    get<AccountDetail>(ACCOUNT_API.get, { params: { id }, silent: true }),
  );
  const [busy, setBusy] = useState(false);
  const titles = useMemo(() => new Map(shellEntries.flatMap((e) => (e.access ?? []).map((a) => [a, e.title] as const))), []);

  const act = async (path: string, done: string) => {
    setBusy(true);
    try {
      await post(path, { id }, { silent: true });
      notify.message.success(done);
      await account.mutate();
    } catch (err) {
      notify.message.error((err as ApiError).message);
    } finally {
      setBusy(false);
    }
  };

  if (!id) return <Alert type="warning" showIcon message="未指定账号" />;
  if (account.error)
    return (
      <Alert type="error" showIcon message={account.error.message} action={<Button onClick={() => void navigate('/account/manager')}>返回账号管理</Button>} />
    );
  const a = account.data;
  if (!a) return <Skeleton active />;
  const active = a.status === ACCOUNT_STATUS.active;
  return (
    <Card
      title={`${entry.title}：${a.loginName}`}
      extra={
        <Space>
          {a.locked ? (
            <Popconfirm title="确定解锁该账号吗？" onConfirm={() => act(ACCOUNT_API.unlock, '账号已解锁')}>
              <Button loading={busy}>解锁</Button>
            </Popconfirm>
          ) : null}
          {active ? (
            <Popconfirm
              title="确定停用该账号吗？"
              description="停用后该账号立即退出登录，且不能再登录。"
              okButtonProps={{ danger: true }}
              onConfirm={() => act(ACCOUNT_API.disable, '账号已停用')}
            >
              <Button danger loading={busy}>
                停用
              </Button>
            </Popconfirm>
          ) : (
            <Popconfirm title="确定启用该账号吗？" onConfirm={() => act(ACCOUNT_API.enable, '账号已启用')}>
              <Button type="primary" loading={busy}>
                启用
              </Button>
            </Popconfirm>
          )}
          <Button onClick={() => void navigate(-1)}>返回</Button>
        </Space>
      }
    >
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label="登录账号">{a.loginName}</Descriptions.Item>
        <Descriptions.Item label="姓名">{a.name}</Descriptions.Item>
        <Descriptions.Item label="所属单位" span={2}>
          {a.orgname}（{a.orgcode}）
        </Descriptions.Item>
        <Descriptions.Item label="账号类型">{a.isUserSeed === 1 ? '单位主账号' : '子账号'}</Descriptions.Item>
        <Descriptions.Item label="状态">
          <StatusTag row={a} />
        </Descriptions.Item>
        <Descriptions.Item label="手机号码">{a.mobile ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="固定电话">{a.phone ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="连续登录失败">{a.failedCount} 次</Descriptions.Item>
        <Descriptions.Item label="当前在线会话">{a.sessions} 个</Descriptions.Item>
        <Descriptions.Item label="创建时间">{dayjs(a.createDate).format('YYYY-MM-DD HH:mm')}</Descriptions.Item>
        <Descriptions.Item label="锁定至">
          {a.lockedUntil ? <Typography.Text type="warning">{dayjs(a.lockedUntil).format('YYYY-MM-DD HH:mm')}</Typography.Text> : '—'}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        角色与菜单权限
      </Typography.Title>
      {a.roles.length === 0 ? <Typography.Text type="secondary">没有角色</Typography.Text> : null}
      {a.roles.map((r) => (
        <Card key={r.id} size="small" title={r.name} style={{ marginBottom: 12 }}>
          <Space size={[4, 8]} wrap>
            {r.menuIds.map((m) => (
              <Tag key={m}>{titles.get(m) ?? m}</Tag>
            ))}
          </Space>
        </Card>
      ))}
    </Card>
  );
}
