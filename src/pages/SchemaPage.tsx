/**
 * A menu leaf with `"screen"`: the schema engine renders it. The app supplies the engine's data
 * transport (the one api module, silent because the engine shows its own messages), the current
 * role type, where each screen lives in the menu, the tab's before-close check for dirty forms, and
 * the user's unit and user values that fields with `session` start from.
 */
import { Spin } from 'antd';
import { useCallback, useContext, useEffect, useMemo, useRef, type RefObject } from 'react';
import { useBlocker } from 'react-router-dom';
import { useAppConfig } from '../app/config';
import '../app/dayjs';
import { notify } from '../app/notify';
import { useUnit } from '../app/queries';
import { useSession } from '../app/session';
import { EngineProvider, SchemaScreen } from '../engine';
import { TabKeyContext, useBeforeClose } from '../shell/tabs/beforeClose';
import { tabStore } from '../shell/tabs/store';
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
  const owner = useMemo(() => ({ unitId: unit.data?.id, areaCode: unit.data?.areacode }), [unit.data]);
  const { attachmentMaxMb } = useAppConfig();
  // A form left for the page it came from closes its tab once that page shows.
  const tabKey = useContext(TabKeyContext);
  const onLeave = useCallback(() => {
    if (tabKey) tabStore.closeWhenLeft(tabKey);
  }, [tabKey]);
  const dirty = useRef(false);
  useBeforeClose(() => dirty.current);
  const onDirtyChange = useCallback((isDirty: boolean) => {
    dirty.current = isDirty;
  }, []);
  // A new record's form takes the unit's values when it is created: wait for them (they are cached after the first page).
  if (unit.isLoading) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  return (
    <EngineProvider
      dataProvider={dataProvider}
      roleType={roleType}
      screenPath={screenPath}
      cacheScope={`${token}:${role?.id ?? ''}`}
      sessionValues={sessionValues}
      owner={owner}
      onLeave={onLeave}
      uploadMaxMb={attachmentMaxMb}
    >
      <SchemaScreen screenId={entry.screen!} onDirtyChange={onDirtyChange} />
      {entry.notCache ? <LeaveGuard dirty={dirty} /> : null}
    </EngineProvider>
  );
}

/**
 * A page that is not kept alive loses its input when the user goes elsewhere: ask first. (Kept-alive
 * pages keep their input in their tab; only one such page shows at a time, as the router allows
 * one blocker.)
 */
function LeaveGuard({ dirty }: { dirty: RefObject<boolean> }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty.current && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    notify.modal.confirm({
      title: '提示',
      content: '填写的内容尚未保存，确定要离开吗？',
      okText: '离开',
      cancelText: '留下',
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker]);
  return null;
}
