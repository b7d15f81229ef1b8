/**
 * The unit main account's sub-account form in a dialog (新增子账号 / 编辑子账号), opened by the
 * list screen unit-sub-account-list (`dialog: "SubAccountForm"`). A page piece rather than a
 * schema: the menu tree of grantable access ids and the one-time initial password are account
 * matters the form engine has no field for.
 */
import { Modal } from 'antd';
import { notify } from '../../app/notify';
import type { ListDialogProps } from '../../engine';
import { ACCOUNT_API } from '../../shared/accounts';
import AccountForm from './AccountForm';

const PATHS = { menus: ACCOUNT_API.subMenus, save: ACCOUNT_API.subSave, get: ACCOUNT_API.subGet };

export default function SubAccountDialog({ id, onClose, onSaved }: ListDialogProps) {
  return (
    <Modal open title={id ? '编辑子账号' : '新增子账号'} footer={null} width={720} destroyOnHidden onCancel={onClose}>
      <AccountForm
        paths={PATHS}
        id={id}
        onCancel={onClose}
        onSaved={() => {
          notify.message.success('保存成功');
          onSaved();
        }}
      />
    </Modal>
  );
}
