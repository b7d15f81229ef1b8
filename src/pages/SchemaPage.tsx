/**
 * A menu leaf with `"screen"`: the schema engine renders it. The app supplies the engine's data
 * transport (the one api module, silent because the engine shows its own messages), the current
 * role type, where each screen lives in the menu, the tab's before-close check for dirty forms, and
 * the user's unit and user values that fields with `session` start from.
 */
import { Spin } from 'antd';
import { useCallback, useMemo, useRef } from 'react';
import { useUnit } from '../app/queries';
import { useSession } from '../app/session';
import { EngineProvider, SchemaScreen } from '../engine';
import { useBeforeClose } from '../shell/tabs/beforeClose';
import { dataProvider, screenPath } from './schemaEngine';
import type { PageProps } from './types';

export default function SchemaPage({ entry }: PageProps) {
  const { token, role, user } = useSession();
  const roleType = role?.roleType;
  const unit = useUnit();
  const sessionValues = useMemo(
    () => ({
      'unit.orgname': unit.data?.orgname,
      'unit.orgcode': unit.data?.orgcode,
      'unit.areacode': unit.data?.areacode,
      'unit.address': unit.data?.address,
      'unit.contact': unit.data?.contact,
      'unit.contactPhone': unit.data?.contactPhone,
      'user.name': user?.name,
      'user.mobile': user?.mobile,
    }),
    [unit.data, user],
  );
  const dirty = useRef(false);
  useBeforeClose(() => dirty.current);
  const onDirtyChange = useCallback((isDirty: boolean) => {
    dirty.current = isDirty;
  }, []);
  // A new record's form takes the unit's values when it is created: wait for them (they are cached after the first page).
  if (unit.isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  return (
    <EngineProvider dataProvider={dataProvider} roleType={roleType} screenPath={screenPath} cacheScope={`${token}:${role?.id ?? ''}`} sessionValues={sessionValues}>
      <SchemaScreen screenId={entry.screen!} onDirtyChange={onDirtyChange} />
    </EngineProvider>
  );
}
