/**
 * The repository's schema files compiled into the build. Each file is its own lazily loaded
 * module, so a screen fetches only the JSON it needs and an analyst's new file ships with the next
 * build without any code. (The server reads the same directory at start, so both sides agree.)
 */
import type { Dict, Resource, Screen } from '../../schema/types';
import { SchemaNotFoundError, type SchemaRegistry } from './registry';

type Loaders<T> = Record<string, () => Promise<T>>;

const screens = import.meta.glob<Screen>('../../../schemas/screens/**/*.json', { import: 'default' });
const resources = import.meta.glob<Resource>('../../../schemas/resources/*.json', { import: 'default' });
const dicts = import.meta.glob<Dict>('../../../schemas/dicts/*.json', { import: 'default' });

/** File loaders by base name (file name without directory and `.json`). */
function byName<T>(loaders: Loaders<T>): Map<string, () => Promise<T>> {
  return new Map(Object.entries(loaders).map(([file, load]) => [file.replace(/^.*\/|\.json$/g, ''), load]));
}

function loader<T>(kind: string, loaders: Loaders<T>): (name: string) => Promise<T> {
  const table = byName(loaders);
  return (name) => {
    const load = table.get(name);
    return load ? load() : Promise.reject(new SchemaNotFoundError(kind, name));
  };
}

export const bundledRegistry: SchemaRegistry = {
  screen: loader('screen', screens),
  resource: loader('resource', resources),
  dict: loader('dict', dicts),
};
