/**
 * The sub-account form: login name (fixed once created), name, mobile, phone, the role's name and
 * its menus as a tree of the manager's own grantable menu ids (the server checks them again).
 * A new account's initial password is shown once, in a dialog, after saving.
 */
import { Alert, Button, Col, Form, Input, Row, Space, Tree, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import useSWR from 'swr';
import { get, post, type ApiError } from '../../app/api';
import { notify } from '../../app/notify';
import { menuFile } from '../../app/routes';
import { fieldRule, VALIDATE_DEBOUNCE } from '../../shell/account/fieldRules';
import type { AccountDetail, AccountSaveInput, AccountSaveResult } from '../../shared/accounts';
import { grantableTree, menuIdsOf } from './menuTree';

export interface AccountFormPaths {
  menus: string;
  save: string;
  get: string;
}

interface Props {
  paths: AccountFormPaths;
  /** The account to edit; absent: a new one. */
  id?: string;
  onSaved(result: AccountSaveResult): void;
  onCancel?(): void;
}

interface Values {
  loginName: string;
  name: string;
  mobile: string;
  phone?: string;
  roleName: string;
}

/** Shows a new account's initial password (once). */
export function showInitialPassword(loginName: string, password: string): Promise<void> {
  return new Promise((resolve) => {
    notify.modal.success({
      title: '账号已创建',
      content: (
        <Space direction="vertical">
          <span>
            登录账号：<Typography.Text strong>{loginName}</Typography.Text>
          </span>
          <span>
            初始密码：
            <Typography.Text strong copyable data-testid="initial-password">
              {password}
            </Typography.Text>
          </span>
          <Typography.Text type="secondary">初始密码仅显示这一次，请告知使用人；首次登录时须修改密码。</Typography.Text>
        </Space>
      ),
      okText: '我已记下',
      onOk: () => resolve(),
    });
  });
}

export default function AccountForm({ paths, id, onSaved, onCancel }: Props) {
  const [form] = Form.useForm<Values>();
  const menus = useSWR<string[], ApiError>(['accounts:menus', paths.menus], () => get<string[]>(paths.menus, { silent: true }));
  const existing = useSWR<AccountDetail, ApiError>(id ? ['accounts:get', paths.get, id] : null, () =>
    get<AccountDetail>(paths.get, { params: { id }, silent: true }),
  );
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tree = useMemo(() => grantableTree(menuFile.routes, new Set(menus.data ?? [])), [menus.data]);

  useEffect(() => {
    const a = existing.data;
    if (!a) return;
    const own = a.roles.find((r) => r.own) ?? a.roles[0];
    form.setFieldsValue({ loginName: a.loginName, name: a.name, mobile: a.mobile ?? '', phone: a.phone ?? '', roleName: own?.name ?? '' });
    const grantable = new Set(menus.data ?? []);
    setChecked((own?.menuIds ?? []).filter((m) => grantable.size === 0 || grantable.has(m)));
  }, [existing.data, menus.data, form]);

  const submit = async (values: Values) => {
    setError(null);
    const menuIds = menuIdsOf(checked);
    if (menuIds.length === 0) {
      setError('请至少选择一个菜单权限');
      return;
    }
    setSaving(true);
    try {
      const body: AccountSaveInput = { ...values, ...(id ? { id } : {}), menuIds };
      const result = await post<AccountSaveResult>(paths.save, body, { silent: true });
      if (result.initialPassword) await showInitialPassword(values.loginName, result.initialPassword);
      onSaved(result);
    } catch (err) {
      setError((err as ApiError).message);
    } finally {
      setSaving(false);
    }
  };

  const loadError = menus.error ?? existing.error;
  return (
    <Form form={form} name="account" layout="vertical" onFinish={(v) => void submit(v)} validateTrigger={['onChange', 'onBlur']} disabled={saving}>
      {loadError ? <Alert type="error" showIcon message={loadError.message} style={{ marginBottom: 16 }} /> : null}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item
            name="loginName"
            label="登录账号"
            extra={id ? '登录账号创建后不能修改' : '4-30位字母、数字或 _ . @ -'}
            rules={[
              { required: true, message: '请输入登录账号' },
              { pattern: /^[A-Za-z0-9_.@-]{4,30}$/, message: '登录账号为4-30位字母、数字或 _ . @ -' },
            ]}
          >
            <Input disabled={!!id} autoComplete="off" maxLength={30} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="name" label="姓名" rules={[{ required: true, whitespace: true, message: '请输入姓名' }]}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="mobile"
            label="手机号码"
            validateDebounce={VALIDATE_DEBOUNCE}
            rules={[{ required: true, message: '请输入手机号码' }, fieldRule('mobile')]}
          >
            <Input maxLength={11} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="phone" label="固定电话" validateDebounce={VALIDATE_DEBOUNCE} rules={[fieldRule('phoneOrLandline')]}>
            <Input maxLength={30} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item
            name="roleName"
            label="角色名称"
            extra="例如：设备管理员、报检经办人"
            rules={[{ required: true, whitespace: true, message: '请输入角色名称' }]}
          >
            <Input maxLength={50} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label="菜单权限" required extra="只能从本账号拥有的菜单中选择；勾选分组即授予其下全部页面。">
        <div style={{ maxHeight: 320, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }} data-testid="menu-tree">
          {tree.length ? (
            <Tree
              checkable
              selectable={false}
              treeData={tree}
              checkedKeys={checked}
              onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
              defaultExpandAll={false}
            />
          ) : (
            <Typography.Text type="secondary">{menus.isLoading ? '加载中…' : '没有可分配的菜单'}</Typography.Text>
          )}
        </div>
      </Form.Item>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 16 }} /> : null}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving}>
          保存
        </Button>
        {onCancel ? <Button onClick={onCancel}>取消</Button> : null}
      </Space>
    </Form>
  );
}
