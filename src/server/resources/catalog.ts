/**
 * Reads the schema directory the server runs on: every `resources/*.json` (checked against the
 * resource meta-schema) and the values of every `dicts/*.json`. Any problem stops the start with
 * the file named; the full cross-file lint runs in CI (`npm run lint:schemas`).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
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

function flattenItems(items: readonly DictItem[]): DictItem[] {
  return items.flatMap((item) => [item, ...flattenItems(item.children ?? [])]);
}

/** The files under `dir` with their texts. */
const readTexts = (dir: string): { file: string; text: string }[] => jsonFiles(dir).map((file) => ({ file, text: readFileSync(file, 'utf8') }));

function parse({ file, text }: { file: string; text: string }): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: ${(err as Error).message}`);
  }
}

const ajvVersion = (): string => {
  const require = createRequire(import.meta.url);
  return (JSON.parse(readFileSync(join(dirname(require.resolve('ajv')), '..', 'package.json'), 'utf8')) as { version: string }).version;
};

/**
 * A mark, under `cacheDir`, that these exact resource texts passed these exact meta-schemas with
 * this ajv: compiling the resource meta-schema cost a warm restart 0.3–0.4 s of CPU for files
 * that had passed at the previous start. Any change of a byte (or of ajv) validates again.
 */
function validationMark(cacheDir: string, metaTexts: readonly { text: string }[], resources: readonly { file: string; text: string }[]) {
  const hash = createHash('sha256').update(ajvVersion());
  for (const { text } of metaTexts) hash.update(`\0${text}`);
  for (const { file, text } of resources) hash.update(`\0${file}\0${text}`);
  const name = `resources-valid-${hash.digest('hex').slice(0, 24)}`;
  return {
    present: () => existsSync(join(cacheDir, name)),
    write: () => {
      try {
        mkdirSync(cacheDir, { recursive: true });
        for (const old of readdirSync(cacheDir).filter((f) => f.startsWith('resources-valid-'))) rmSync(join(cacheDir, old), { force: true });
        writeFileSync(join(cacheDir, name), '');
      } catch {
        // A read-only cache: the next start validates again.
      }
    },
  };
}

/**
 * Loads the resources and dictionaries under `schemaDir` (default: the repository's schemas/).
 * `metaDir` defaults to `<schemaDir>/meta`, falling back to the repository's meta-schemas so a
 * test fixture directory needs only its resources and dicts. With `cacheDir`, resources that passed
 * their meta-schema at an earlier load are not validated again (validationMark).
 */
export function loadCatalog(schemaDir = DEFAULT_SCHEMA_DIR, { cacheDir }: { cacheDir?: string } = {}): Catalog {
  const ownMeta = join(schemaDir, 'meta');
  const metaDir = existsSync(ownMeta) ? ownMeta : join(DEFAULT_SCHEMA_DIR, 'meta');
  const texts = readTexts(join(schemaDir, 'resources'));
  const mark = cacheDir ? validationMark(cacheDir, readTexts(metaDir), texts) : undefined;
  const meta = mark?.present() ? undefined : metaValidator(readMetaSchemas(metaDir));

  const resources = texts.map((entry) => {
    const value = parse(entry);
    const problems = meta?.validate('resource', value) ?? [];
    if (problems.length > 0) {
      const detail = problems.map((p) => `/${p.path.join('/')}: ${p.message}`).join('; ');
      throw new Error(`${entry.file} is not a valid resource (${detail}); run npm run lint:schemas`);
    }
    return value as Resource;
  });
  if (meta) mark?.write();

  const dictValues = new Map<string, string[]>();
  const dictLabels = new Map<string, Map<string, string>>();
  const dictItems = new Map<string, readonly DictItem[]>();
  for (const file of jsonFiles(join(schemaDir, 'dicts'))) {
    const dict = parse({ file, text: readFileSync(file, 'utf8') }) as Dict;
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
