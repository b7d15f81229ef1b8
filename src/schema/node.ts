/** Node-side entry of the schema lint: reads a schema directory from disk. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { META_DIR, lintFiles, type LintResult } from './lint';
import type { MetaSchemas, SchemaKind, SchemaText } from './types';

const KINDS: readonly SchemaKind[] = ['resource', 'screen', 'dict', 'menu'];

/** Every .json file under `dir` except the meta-schemas, in path order. */
export function readSchemaTexts(dir: string): SchemaText[] {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => !path.startsWith(`${META_DIR}/`))
    .sort();
  return files.map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
}

/** The meta-schemas present in `metaDir` (`<kind>.schema.json`). */
export function readMetaSchemas(metaDir: string): MetaSchemas {
  const schemas: MetaSchemas = {};
  for (const kind of KINDS) {
    const file = join(metaDir, `${kind}.schema.json`);
    if (existsSync(file)) schemas[kind] = JSON.parse(readFileSync(file, 'utf8')) as object;
  }
  return schemas;
}

export interface LintDirOptions {
  /** Names of the validation catalogue. */
  ruleNames: Iterable<string>;
  /** Names of the server hooks; absent: hook names are not checked. */
  hookNames?: Iterable<string>;
  /** Where the meta-schemas are read from; default `<dir>/meta`. */
  metaDir?: string;
}

/** Lints a schema directory (resources/, screens/, dicts/, menu.json). */
export function lintSchemas(dir: string, options: LintDirOptions): LintResult {
  const metaSchemas = readMetaSchemas(options.metaDir ?? join(dir, META_DIR));
  return lintFiles(readSchemaTexts(dir), { metaSchemas, ruleNames: options.ruleNames, hookNames: options.hookNames });
}
