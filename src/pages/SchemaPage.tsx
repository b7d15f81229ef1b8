/**
 * A menu leaf with `"screen"`: the schema engine renders it. The app supplies the engine's data
 * transport (the one api module, silent because the engine shows its own messages), the current
 * role type, where each screen lives in the menu, and the tab's before-close check for dirty forms.
 */
import { useCallback, useRef } from 'react';
import { useSession } from '../app/session';
import { EngineProvider, SchemaScreen } from '../engine';
import { useBeforeClose } from '../shell/tabs/beforeClose';
import { dataProvider, screenPath } from './schemaEngine';
import type { PageProps } from './types';

export default function SchemaPage({ entry }: PageProps) {
  const { token, role } = useSession();
  const roleType = role?.roleType;
  const dirty = useRef(false);
  useBeforeClose(() => dirty.current);
  const onDirtyChange = useCallback((isDirty: boolean) => {
    dirty.current = isDirty;
  }, []);
  return (
    <EngineProvider dataProvider={dataProvider} roleType={roleType} screenPath={screenPath} cacheScope={`${token}:${role?.id ?? ''}`}>
      <SchemaScreen screenId={entry.screen!} onDirtyChange={onDirtyChange} />
    </EngineProvider>
  );
}
