/**
 * /dev/playground (seed user only): paste a screen JSON, see its lint errors and the screen live.
 * The repository's schema files are bundled into this page's chunk only.
 */
import { ruleNames } from '../../../validators';
import { useSession } from '../../app/session';
import Playground from '../../engine/playground/Playground';
import type { MetaSchemas, SchemaKind, SchemaText } from '../../schema';
import { dataProvider, screenPath } from '../schemaEngine';

const raw = import.meta.glob<string>(['../../../schemas/**/*.json', '!../../../schemas/meta/**'], { query: '?raw', import: 'default', eager: true });
const metas = import.meta.glob<object>('../../../schemas/meta/*.schema.json', { import: 'default', eager: true });

const files: SchemaText[] = Object.entries(raw).map(([file, text]) => ({ path: file.replace(/^.*\/schemas\//, ''), text }));
const metaSchemas: MetaSchemas = Object.fromEntries(
  Object.entries(metas).map(([file, schema]) => [file.replace(/^.*\/|\.schema\.json$/g, '') as SchemaKind, schema]),
);

export default function PlaygroundPage() {
  const { token, role } = useSession();
  return (
    <Playground
      files={files}
      metaSchemas={metaSchemas}
      ruleNames={ruleNames}
      initialScreen="demo-notice-list"
      dataProvider={dataProvider}
      roleType={role?.roleType}
      screenPath={screenPath}
      cacheScope={`${token}:${role?.id ?? ''}`}
    />
  );
}
