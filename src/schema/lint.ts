/**
 * The schema lint: every file against its meta-schema, then what JSON Schema cannot say (names
 * resolve across files, workflows are sound, expressions parse and name real fields).
 * Pure: takes file texts, so the CLI, the tests and an in-browser playground share it.
 */
import { checkDicts } from './checks/dicts';
import { filteredDictRefs } from './checks/filtered-dicts';
import { checkMenu } from './checks/menu';
import { checkRequirements } from './checks/requirements';
import { checkEvolution } from './checks/evolution';
import { checkResources } from './checks/resources';
import { checkScreenRoutes } from './checks/screen-routes';
import { checkScreens } from './checks/screens';
import { checkSystemTables } from './checks/system-tables';
import { LintContext } from './context';
import { sortDiagnostics, type Diagnostic } from './diagnostics';
import { JsonSource, type JsonPath } from './json-source';
import { metaValidator, type MetaValidator } from './meta';
import type { MetaSchemas, SchemaFile, SchemaKind, SchemaText } from './types';

export interface LintOptions {
  /** Meta-schemas by kind (schemas/meta/<kind>.schema.json). */
  metaSchemas: MetaSchemas;
  /** Names of the validation catalogue that field `rules` may use. */
  ruleNames: Iterable<string>;
  /** Names of the server hooks resources may name in `derive` and workflow `effects`; absent: not checked. */
  hookNames?: Iterable<string>;
}

export interface LintResult {
  /** Findings in file, line, column order. */
  errors: Diagnostic[];
  /** Number of schema files linted. */
  files: number;
  /** Ids of screens that use an escape hatch (`component`, `x-formily`). */
  escapeHatches: string[];
}

/** Folder (or file) of each kind, relative to the schema directory. */
const LOCATIONS: readonly [prefix: string, kind: SchemaKind][] = [
  ['resources/', 'resource'],
  ['screens/', 'screen'],
  ['dicts/', 'dict'],
];
export const MENU_FILE = 'menu.json';
export const META_DIR = 'meta';

/** The kind of a schema file by its path, or undefined for a file in no known place. */
export function kindOf(path: string): SchemaKind | undefined {
  if (path === MENU_FILE) return 'menu';
  return LOCATIONS.find(([prefix]) => path.startsWith(prefix))?.[1];
}

/** `$schema` value a file at `path` must carry: the relative path to its meta-schema. */
export function expectedSchemaRef(path: string, kind: SchemaKind): string {
  const depth = path.split('/').length - 1;
  return `${depth === 0 ? './' : '../'.repeat(depth)}${META_DIR}/${kind}.schema.json`;
}

/** File name without folder and `.json`. */
const basenameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.json$/, '');
/** `./meta/x` and `meta/x` name the same file. */
const sameRef = (a: string, b: string) => a.replace(/^\.\//, '') === b.replace(/^\.\//, '');

/** Lints a set of schema files (paths relative to the schema directory; meta/ files are ignored). */
export function lintFiles(texts: readonly SchemaText[], options: LintOptions): LintResult {
  const ctx = new LintContext(new Set(options.ruleNames), options.hookNames ? new Set(options.hookNames) : undefined);
  const meta = metaValidator(options.metaSchemas);
  const files = texts.filter((t) => t.path.endsWith('.json') && !t.path.startsWith(`${META_DIR}/`));
  for (const text of files) loadFile(ctx, meta, text);
  checkMenu(ctx);
  checkDicts(ctx);
  checkEvolution(ctx);
  checkResources(ctx);
  checkRequirements(ctx);
  checkScreens(ctx);
  checkSystemTables(ctx);
  checkScreenRoutes(ctx);
  return { errors: sortDiagnostics(ctx.diagnostics), files: files.length, escapeHatches: [...ctx.escapeHatches].sort() };
}

/** Parses one file, runs the per-file checks and registers it under its name. */
function loadFile(ctx: LintContext, meta: MetaValidator, { path, text }: SchemaText): void {
  const source = new JsonSource(text);
  const located = { path, source };
  const kind = kindOf(path);
  if (!kind) {
    ctx.reportAt(
      located,
      0,
      'file-location',
      `not a schema location: put resources in resources/, screens in screens/, dictionaries in dicts/, the route tree in ${MENU_FILE}`,
    );
    return;
  }
  if (source.syntaxErrors.length > 0) {
    for (const error of source.syntaxErrors) ctx.reportAt(located, error.offset, 'json-syntax', error.message);
    return;
  }
  for (const { key, offset } of source.duplicateKeys())
    ctx.reportAt(located, offset, 'duplicate-key', `duplicate key '${key}' (only the last one would count)`);
  checkSchemaRef(ctx, located, kind);

  const basename = basenameOf(path);
  const file = { path, kind, basename, source, value: source.value } as SchemaFile;
  if (!meta.has(kind)) {
    ctx.reportAt(file, 0, 'meta-schema', `no meta-schema ${META_DIR}/${kind}.schema.json to validate against`);
    return;
  }
  // A filtered-out dictionary type says why it is refused; the meta-schema's finding at the same place (its name pattern) would only repeat it less clearly.
  const filtered = filteredDictRefs(kind, source.value);
  for (const ref of filtered) ctx.report(file, ref.path, 'filtered-dict', ref.message);
  const samePlace = (path: JsonPath) => filtered.some((ref) => ref.path.length === path.length && ref.path.every((key, i) => key === path[i]));
  const problems = meta.validate(kind, source.value).filter((problem) => !samePlace(problem.path));
  for (const problem of problems) ctx.report(file, problem.path, 'meta-schema', problem.message, problem.target);
  const ownFields = kind === 'screen' && problems.length === 0 ? screenFieldProblems(meta, source.value) : [];
  for (const problem of ownFields) ctx.report(file, problem.path, 'meta-schema', problem.message, problem.target);
  register(ctx, file, problems.length === 0 && filtered.length === 0 && ownFields.length === 0);
}

/** A form screen's own `fields` checked as the fields of a resource (same paths: both live under `fields`). */
function screenFieldProblems(meta: MetaValidator, value: unknown) {
  const fields = (value as { kind?: unknown; fields?: unknown }).kind === 'form' ? (value as { fields?: unknown }).fields : undefined;
  if (fields === undefined || !meta.has('resource')) return [];
  return meta.validate('resource', { name: 'screen', table: 'screen', title: '页面', fields }).filter((p) => p.path[0] === 'fields');
}

function checkSchemaRef(ctx: LintContext, file: Pick<SchemaFile, 'path' | 'source'>, kind: SchemaKind): void {
  const expected = expectedSchemaRef(file.path, kind);
  const value = (file.source.value as Record<string, unknown> | null)?.$schema;
  if (value === undefined) {
    ctx.reportAt(file, 0, 'schema-ref', `missing "$schema": "${expected}" (editors validate and complete with it)`);
  } else if (typeof value !== 'string' || !sameRef(value, expected)) {
    ctx.report(file, ['$schema'], 'schema-ref', `"$schema" must be "${expected}"`);
  } else if (file.source.rootKeys()[0] !== '$schema') {
    ctx.report(file, ['$schema'], 'schema-ref', '"$schema" must be the first property', 'key');
  }
}

/** Adds a file to its registry under the name it declares, which must be its file name. */
function register(ctx: LintContext, file: SchemaFile, valid: boolean): void {
  if (file.kind === 'menu') {
    ctx.menu = { file: file as SchemaFile<'menu'>, valid };
    return;
  }
  const key = file.kind === 'screen' ? 'id' : 'name';
  const name = (file.value as unknown as Record<string, unknown>)?.[key];
  if (typeof name !== 'string') return;
  if (name !== file.basename) ctx.report(file, [key], 'file-name', `${key} '${name}' must equal the file name '${file.basename}'`);
  const registry = ctx.registry(file.kind);
  const first = registry.get(name);
  if (first) {
    ctx.report(file, [key], 'duplicate-name', `${file.kind} '${name}' is already defined in ${first.file.path}`);
    return;
  }
  registry.set(name, { file, valid } as never);
}
