/**
 * A menu leaf with `"screen"`: the schema engine renders it. The app supplies the engine's data
 * transport (the one api module, silent because the engine shows its own messages), the current
 * role type, where each screen lives in the menu, and the tab's before-close check for dirty forms.
 */
import { useCallback, useRef } from 'react';
import { apiUrl, get, post, postFile } from '../app/api';
import { shellEntries } from '../app/routes';
import { useSession } from '../app/session';
import { createRestDataProvider, EngineProvider, SchemaScreen } from '../engine';
import { useBeforeClose } from '../shell/tabs/beforeClose';
import type { PageProps } from './types';

const dataProvider = createRestDataProvider({
  get: (path, signal) => get(path, { silent: true, signal }),
  post: (path, body, signal) => post(path, body, { silent: true, signal }),
  postFile: (path, fields, signal) => postFile(path, fields, { silent: true, signal }),
  url: apiUrl,
});

const screenPaths = new Map(shellEntries.filter((e) => e.screen).map((e) => [e.screen!, e.fullPath]));
const screenPath = (id: string) => screenPaths.get(id);

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
