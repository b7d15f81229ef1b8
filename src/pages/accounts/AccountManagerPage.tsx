/**
 * Account lists, one page for three menu entries:
 *
 * - /system/bypassAccount (子账号维护, the unit's main account): its sub-accounts — 新增, 编辑
 *   (a dialog with the role's menus), 停用 / 启用;
 * - /account/manager (账号管理, the authority): the accounts of the units in its area — 详情,
 *   停用 / 启用, 解锁 of an account locked by wrong passwords; 新增账号 adds a staff account;
 * - /account/manager-bypassAccount (子账号管理, the authority): the same over sub-accounts only.
 *
 * Paging and sorting by the server, filters in the URL, destructive actions confirmed.
 */
import { PlusOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Card, Checkbox, Empty, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography, type TableProps } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import useSWR from 'swr';
import { get, post, type ApiError } from '../../app/api';
import { canAccess } from '../../app/access';
import { notify } from '../../app/notify';
import { accessSubject } from '../../app/session';
import type { SortOrder } from 'antd/es/table/interface';
import type { Page } from '../../shared/contract';
import { ACCOUNT_API, ACCOUNT_STATUS, type AccountRow } from '../../shared/accounts';
import type { PageProps } from '../types';
import AccountForm from './AccountForm';

type Mode = 'unit' | 'main' | 'sub';

const modeOf = (name: string): Mode => (name === 'system-bypassAccount' ? 'unit' : name === 'account-manager-bypassAccount' ? 'sub' : 'main');

const UNIT_FORM = { menus: ACCOUNT_API.subMenus, save: ACCOUNT_API.subSave, get: ACCOUNT_API.subGet };
export const DETAIL_ROUTE = '/account/account-detail';
export const ADD_ROUTE = '/account/add-account';

/** The state tag: 已停用, 已锁定 (until), 正常. */
export function StatusTag({ row }: { row: Pick<AccountRow, 'status' | 'locked' | 'lockedUntil'> }) {
  if (row.status !== ACCOUNT_STATUS.active) return <Tag color="red">已停用</Tag>;
  if (row.locked)
    return (
      <Tooltip title={`锁定至 ${dayjs(row.lockedUntil).format('HH:mm')}`}>
        <Tag color="orange">已锁定</Tag>
      </Tooltip>
    );
  return <Tag color="green">正常</Tag>;
}

export default function AccountManagerPage({ entry }: PageProps) {
  const mode = modeOf(entry.name);
  const authority = mode !== 'unit';
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [form] = Form.useForm();
  const [editing, setEditing] = useState<{ id?: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const query = {
    pageNo: Number(params.get('pageNo') ?? 1) || 1,
    pageSize: Number(params.get('pageSize') ?? 10) || 10,
    loginName: params.get('loginName') ?? '',
    name: params.get('name') ?? '',
    orgname: params.get('orgname') ?? '',
    status: params.get('status') ?? '',
    locked: params.get('locked') === 'true' ? 'true' : '',
    orderBy: params.get('orderBy') ?? '',
    ...(mode === 'sub' ? { kind: 'sub' } : {}),
  };
  const listPath = authority ? ACCOUNT_API.list : ACCOUNT_API.subList;
  const clean = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const list = useSWR<Page<AccountRow>, ApiError>(
    ['accounts:list', listPath, JSON.stringify(clean)],
    () => get<Page<AccountRow>>(listPath, { params: clean, silent: true }),
    { keepPreviousData: true },
  );

  const setQuery = (next: Record<string, string | number | undefined>) => {
    const merged = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === undefined || v === '') merged.delete(k);
      else merged.set(k, String(v));
    }
    setParams(merged, { replace: true });
  };

  const act = async (path: string, row: AccountRow) => {
    setBusy(row.id);
    try {
      await post(path, { id: row.id }, { silent: true }).then(() => undefined);
      notify.message.success(path.endsWith('disable') ? '账号已停用' : path.endsWith('enable') ? '账号已启用' : '账号已解锁');
      await list.mutate();
    } catch (err) {
      notify.message.error((err as ApiError).message);
    } finally {
      setBusy(null);
    }
  };
  const paths = authority
    ? { disable: ACCOUNT_API.disable, enable: ACCOUNT_API.enable, unlock: ACCOUNT_API.unlock }
    : { disable: ACCOUNT_API.subDisable, enable: ACCOUNT_API.subEnable, unlock: null };
  const mayAdd = authority ? canAccess({ access: ['account:add-account'] }, accessSubject()) : true;
  const sortOrder = (field: string): SortOrder => {
    const [f, d] = query.orderBy.split(' ');
    return f === field ? (d === 'desc' ? 'descend' : 'ascend') : null;
  };

  const columns: TableProps<AccountRow>['columns'] = [
    {
      title: '登录账号',
      dataIndex: 'loginName',
      width: 140,
      sorter: true,
      sortOrder: sortOrder('loginName'),
      render: (v: string, row) => (authority ? <Typography.Link onClick={() => void navigate(`${DETAIL_ROUTE}?id=${row.id}`)}>{v}</Typography.Link> : v),
    },
    { title: '姓名', dataIndex: 'name', width: 100, sorter: true, sortOrder: sortOrder('name') },
    ...(authority
      ? [
          { title: '所属单位', dataIndex: 'orgname', ellipsis: true, sorter: true, sortOrder: sortOrder('orgname') },
          { title: '账号类型', dataIndex: 'isUserSeed', width: 90, render: (v: number) => (v === 1 ? '主账号' : '子账号') },
        ]
      : []),
    { title: '手机号码', dataIndex: 'mobile', width: 120, render: (v: string | null) => v ?? '—' },
    { title: '角色', dataIndex: 'roleNames', ellipsis: true, render: (v: string) => v || '—' },
    { title: '状态', dataIndex: 'status', width: 90, sorter: true, sortOrder: sortOrder('status'), render: (_: string, row) => <StatusTag row={row} /> },
    {
      title: '创建时间',
      dataIndex: 'createDate',
      width: 150,
      sorter: true,
      sortOrder: sortOrder('createDate'),
      render: (v: string) => dayjs(v).format('YYYY-MM-DD HH:mm'),
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      width: authority ? 170 : 130,
      render: (_: unknown, row) => {
        const disabled = row.status !== ACCOUNT_STATUS.active;
        return (
          <Space size={4}>
            {authority ? (
              <Button type="link" size="small" onClick={() => void navigate(`${DETAIL_ROUTE}?id=${row.id}`)}>
                详情
              </Button>
            ) : (
              <Button type="link" size="small" onClick={() => setEditing({ id: row.id })}>
                编辑
              </Button>
            )}
            {disabled ? (
              <Popconfirm title={`确定启用账号 ${row.loginName} 吗？`} onConfirm={() => act(paths.enable, row)}>
                <Button type="link" size="small" loading={busy === row.id}>
                  启用
                </Button>
              </Popconfirm>
            ) : (
              <Popconfirm
                title={`确定停用账号 ${row.loginName} 吗？`}
                description="停用后该账号立即退出登录，且不能再登录。"
                okButtonProps={{ danger: true }}
                onConfirm={() => act(paths.disable, row)}
              >
                <Button type="link" size="small" danger loading={busy === row.id}>
                  停用
                </Button>
              </Popconfirm>
            )}
            {paths.unlock && row.locked ? (
              <Popconfirm title={`确定解锁账号 ${row.loginName} 吗？`} onConfirm={() => act(paths.unlock, row)}>
                <Button type="link" size="small">
                  解锁
                </Button>
              </Popconfirm>
            ) : null}
          </Space>
        );
      },
    },
  ];

  const data = list.data;
  return (
    <Card
      title={entry.title}
      extra={
        mayAdd ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => (authority ? void navigate(ADD_ROUTE) : setEditing({}))}>
            {authority ? '新增账号' : '新增子账号'}
          </Button>
        ) : null
      }
    >
      <Form
        form={form}
        name="accountFilter"
        layout="inline"
        initialValues={{ loginName: query.loginName, name: query.name, orgname: query.orgname, status: query.status, locked: query.locked === 'true' }}
        onFinish={(v: Record<string, unknown>) =>
          setQuery({
            loginName: String(v.loginName ?? '').trim(),
            name: String(v.name ?? '').trim(),
            orgname: String(v.orgname ?? '').trim(),
            status: String(v.status ?? ''),
            locked: v.locked ? 'true' : '',
            pageNo: undefined,
          })
        }
        style={{ marginBottom: 16, rowGap: 8 }}
      >
        <Form.Item name="loginName" label="登录账号">
          <Input allowClear style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="name" label="姓名">
          <Input allowClear style={{ width: 110 }} />
        </Form.Item>
        {authority ? (
          <Form.Item name="orgname" label="单位名称">
            <Input allowClear style={{ width: 180 }} />
          </Form.Item>
        ) : null}
        <Form.Item name="status" label="状态">
          <Select
            style={{ width: 100 }}
            options={[
              { value: '', label: '全部' },
              { value: '0', label: '正常' },
              { value: '2', label: '已停用' },
            ]}
          />
        </Form.Item>
        {authority ? (
          <Form.Item name="locked" valuePropName="checked">
            <Checkbox>只看已锁定</Checkbox>
          </Form.Item>
        ) : null}
        <Form.Item>
          <Space>
            <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
              查询
            </Button>
            <Button
              icon={<ReloadOutlined />}
              onClick={() => {
                form.setFieldsValue({ loginName: '', name: '', orgname: '', status: '', locked: false });
                setParams(new URLSearchParams(), { replace: true });
              }}
            >
              重置
            </Button>
          </Space>
        </Form.Item>
      </Form>
      <Table<AccountRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={list.isLoading || list.isValidating}
        scroll={{ x: authority ? 1150 : 950 }}
        locale={{
          emptyText: list.error ? (
            <Empty description={list.error.message} />
          ) : (
            <Empty description={authority ? '没有符合条件的账号' : '还没有子账号，点击“新增子账号”创建'} />
          ),
        }}
        onChange={(pagination, _filters, sorter) => {
          const s = Array.isArray(sorter) ? sorter[0] : sorter;
          const orderBy = s?.order ? `${String(s.field)} ${s.order === 'descend' ? 'desc' : 'asc'}` : '';
          setQuery({ pageNo: pagination.current, pageSize: pagination.pageSize, orderBy });
        }}
        pagination={{
          current: query.pageNo,
          pageSize: query.pageSize,
          total: Number(data?.count ?? 0),
          showSizeChanger: true,
          showTotal: (total: number) => `共 ${total} 条`,
        }}
      />
      <Modal
        open={editing !== null}
        title={editing?.id ? '编辑子账号' : '新增子账号'}
        footer={null}
        width={720}
        destroyOnHidden
        onCancel={() => setEditing(null)}
      >
        {editing ? (
          <AccountForm
            paths={UNIT_FORM}
            id={editing.id}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              notify.message.success('保存成功');
              void list.mutate();
            }}
          />
        ) : null}
      </Modal>
    </Card>
  );
}
