/**
 * The repository's schema files compiled into the build. Each file is its own lazily loaded
 * module, so a screen fetches only the JSON it needs and an analyst's new file ships with the next
 * build without any code. (The server reads the same directory at start, so both sides agree.)
 *
 * The original never caches a view configuration; here: a screen's configuration is part of the
 * build, in a chunk named by its content hash (a changed screen is a new file), and the page that
 * names the build's chunks, index.html, is served `Cache-Control: no-cache` (server plugin spa.ts),
 * so every page load revalidates it and the first load after a deploy uses the new screens — no
 * stale copy survives in the browser's cache. Within one page life a screen is read once (the same
 * build cannot change under it); the user's own column and filter-fold settings (list/useStoredState)
 * are preferences over the current screen, which always decides which columns exist.
 */
import { liveResource } from '../../schema/evolution';
import type { Dict, Resource, Screen } from '../../schema/types';
import { isFilteredDict } from '../../shared/dicts';
import { SchemaNotFoundError, type SchemaRegistry } from './registry';

type Loaders<T> = Record<string, () => Promise<T>>;

const screens = import.meta.glob<Screen>('../../../schemas/screens/**/*.json', { import: 'default' });
const resources = import.meta.glob<Resource>('../../../schemas/resources/*.json', { import: 'default' });
const dicts = import.meta.glob<Dict>('../../../schemas/dicts/*.json', { import: 'default' });

/** File loaders by base name (file name without directory and `.json`), but for names `skip` refuses. */
export function byName<T>(loaders: Loaders<T>, skip: (name: string) => boolean = () => false): Map<string, () => Promise<T>> {
  return new Map(
    Object.entries(loaders)
      .map(([file, load]) => [file.replace(/^.*\/|\.json$/g, ''), load] as const)
      .filter(([name]) => !skip(name)),
  );
}

function loader<T>(kind: string, loaders: Loaders<T>, skip?: (name: string) => boolean): (name: string) => Promise<T> {
  const table = byName(loaders, skip);
  return (name) => {
    const load = table.get(name);
    return load ? load() : Promise.reject(new SchemaNotFoundError(kind, name));
  };
}

const resource = loader('resource', resources);

export const bundledRegistry: SchemaRegistry = {
  screen: loader('screen', screens),
  // A retired field keeps its data on the server but is no field of any screen (src/schema/evolution.ts).
  resource: (name) => resource(name).then(liveResource),
  // The dictionary types the original filters out of dictionary lists are never served (nor linted in).
  dict: loader('dict', dicts, isFilteredDict),
};
