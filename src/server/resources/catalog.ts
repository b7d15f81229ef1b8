/**
 * Reads the schema directory the server runs on: every `resources/*.json` (checked against the
 * resource meta-schema) and the values of every `dicts/*.json`. Any problem stops the start with
 * the file named; the full cross-file lint runs in CI (`npm run lint:schemas`).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { metaValidator } from '../../schema/meta';
import { readMetaSchemas } from '../../schema/node';
import type { Dict, DictItem, Resource } from '../../schema/types';
import { isFilteredDict } from '../../shared/dicts';
import { projectPath } from '../paths';

/** The repository's schemas/ directory. */
export const DEFAULT_SCHEMA_DIR = projectPath('schemas');

export interface Catalog {
  resources: Resource[];
  /** Every value (nested ones included) of each dictionary, by dictionary name. */
  dictValues: ReadonlyMap<string, readonly string[]>;
  /** Value → label of every item (nested ones included) of each dictionary, for rendering codes (exports). */
  dictLabels: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The item tree (with each item's `data`) of each dictionary, by name: what server hooks read. */
  dictItems: ReadonlyMap<string, readonly DictItem[]>;
}

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

function flattenItems(items: readonly DictItem[]): DictItem[] {
  return items.flatMap((item) => [item, ...flattenItems(item.children ?? [])]);
}

/**
 * Loads the resources and dictionaries under `schemaDir` (default: the repository's schemas/).
 * `metaDir` defaults to `<schemaDir>/meta`, falling back to the repository's meta-schemas so a
 * test fixture directory needs only its resources and dicts.
 */
export function loadCatalog(schemaDir = DEFAULT_SCHEMA_DIR): Catalog {
  const ownMeta = join(schemaDir, 'meta');
  const meta = metaValidator(readMetaSchemas(existsSync(ownMeta) ? ownMeta : join(DEFAULT_SCHEMA_DIR, 'meta')));

  const resources = jsonFiles(join(schemaDir, 'resources')).map((file) => {
    const value = readJson(file);
    const problems = meta.validate('resource', value);
    if (problems.length > 0) {
      const detail = problems.map((p) => `/${p.path.join('/')}: ${p.message}`).join('; ');
      throw new Error(`${file} is not a valid resource (${detail}); run npm run lint:schemas`);
    }
    return value as Resource;
  });

  const dictValues = new Map<string, string[]>();
  const dictLabels = new Map<string, Map<string, string>>();
  const dictItems = new Map<string, readonly DictItem[]>();
  for (const file of jsonFiles(join(schemaDir, 'dicts'))) {
    const dict = readJson(file) as Dict;
    if (typeof dict?.name !== 'string' || !Array.isArray(dict.items)) throw new Error(`${file} is not a dictionary (name, items)`);
    // The filtered dictionary types: never offered (the lint refuses such a file, and any field naming one).
    if (isFilteredDict(dict.name)) continue;
    const items = flattenItems(dict.items);
    dictValues.set(
      dict.name,
      items.map((item) => item.value),
    );
    dictLabels.set(dict.name, new Map(items.map((item) => [item.value, item.label])));
    dictItems.set(dict.name, dict.items);
  }
  return { resources, dictValues, dictLabels, dictItems };
}
