/**
 * A public route with `"screen"` (an open form such as /register, an open list or detail with a
 * `proof` such as /dlgzhList): the schema engine without a session — the open transport (visitor
 * uploads, no phone upload), no role, no unit values — so it never calls an endpoint that needs a
 * login. Its own chunk: the login page does not load it.
 */
import { useAppConfig } from '../app/config';
import '../app/dayjs';
import { EngineProvider, SchemaScreen } from '../engine';
import { openDataProvider, openScreenPath } from './schemaEngine';
import type { PageProps } from './types';

export default function OpenSchemaPage({ entry }: PageProps) {
  const { attachmentMaxMb } = useAppConfig();
  return (
    <EngineProvider dataProvider={openDataProvider} cacheScope="open" uploadMaxMb={attachmentMaxMb} screenPath={openScreenPath}>
      {/* One screen per route: going from one open route to another (a filed form to its record) mounts the next afresh. */}
      <SchemaScreen key={entry.fullPath} screenId={entry.screen!} mode="add" />
    </EngineProvider>
  );
}
