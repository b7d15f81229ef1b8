/**
 * /account/add-account (新增账号, the authority): a staff account of its own unit, with a role
 * limited to the authority's own menus; the initial password is shown once.
 */
import { Card } from 'antd';
import { useNavigate } from 'react-router-dom';
import { notify } from '../../app/notify';
import { ACCOUNT_API } from '../../shared/accounts';
import type { PageProps } from '../types';
import AccountForm from './AccountForm';

const PATHS = { menus: ACCOUNT_API.menus, save: ACCOUNT_API.save, get: ACCOUNT_API.get };

export default function AccountAddPage({ entry }: PageProps) {
  const navigate = useNavigate();
  return (
    <Card title={entry.title} style={{ maxWidth: 900 }}>
      <AccountForm
        paths={PATHS}
        onCancel={() => void navigate('/account/manager')}
        onSaved={(result) => {
          notify.message.success('账号已创建');
          void navigate(`/account/account-detail?id=${result.id}`);
        }}
      />
    </Card>
  );
}
