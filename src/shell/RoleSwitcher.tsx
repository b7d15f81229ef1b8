import { Select, Tag } from 'antd';
import { useState } from 'react';
import { useSession } from '../app/session';
import { useShellActions } from './useShellActions';

/** The current role; a select when the user has more than one (as in the original portal). */
export default function RoleSwitcher() {
  const { role, roleList } = useSession();
  const { switchRole } = useShellActions();
  const [switching, setSwitching] = useState(false);

  if (roleList.length <= 1) {
    return role ? (
      <Tag className="shell-header__role" bordered={false}>
        {role.name}
      </Tag>
    ) : null;
  }

  const onChange = (id: string) => {
    setSwitching(true);
    switchRole(id)
      .catch(() => undefined) // the api client already showed the error
      .finally(() => setSwitching(false));
  };

  return (
    <Select
      className="shell-header__role-select"
      aria-label="切换角色"
      size="small"
      variant="filled"
      popupMatchSelectWidth={false}
      loading={switching}
      value={role?.id}
      onChange={onChange}
      options={roleList.map((r) => ({ value: r.id, label: r.name }))}
    />
  );
}
