/**
 * State shared by the lint's checks: the files by name, the menu's routes and access ids, and the
 * list of findings with their source locations.
 */
import type { Diagnostic, LintCode } from './diagnostics';
import type { JsonPath, Target } from './json-source';
import type { SchemaFile, SchemaKind } from './types';

/** A named file; `valid` once it passed its meta-schema (only valid files are checked in depth). */
export interface Entry<K extends SchemaKind> {
  file: SchemaFile<K>;
  valid: boolean;
}

export class LintContext {
  readonly diagnostics: Diagnostic[] = [];
  readonly resources = new Map<string, Entry<'resource'>>();
  readonly screens = new Map<string, Entry<'screen'>>();
  readonly dicts = new Map<string, Entry<'dict'>>();
  menu: Entry<'menu'> | undefined;
  /** Full paths of every menu route; undefined without a valid menu (route checks are skipped). */
  routes: Set<string> | undefined;
  /** The screen each route shows, by full path (routes with `screen` only); undefined without a valid menu. */
  routeScreens: Map<string, string> | undefined;
  /** Access ids named in the menu; undefined without a valid menu. */
  accessIds: Set<string> | undefined;
  /** Screens using an escape hatch (`component` or `x-formily`), by id. */
  readonly escapeHatches = new Set<string>();

  /**
   * @param ruleNames the validation catalogue
   * @param hookNames the server hooks (`derive`, `effects`); undefined where they are not known (the playground): not checked
   */
  constructor(
    readonly ruleNames: ReadonlySet<string>,
    readonly hookNames?: ReadonlySet<string>,
  ) {}

  report(file: Pick<SchemaFile, 'path' | 'source'>, path: JsonPath, code: LintCode, message: string, target: Target = 'value'): void {
    this.reportAt(file, file.source.offset(path, target), code, message);
  }

  reportAt(file: Pick<SchemaFile, 'path' | 'source'>, offset: number, code: LintCode, message: string): void {
    const { line, column } = file.source.position(offset);
    this.diagnostics.push({ file: file.path, line, column, code, message });
  }

  /** The registry of files of a kind that carry a name (menu has none). */
  registry<K extends Exclude<SchemaKind, 'menu'>>(kind: K): Map<string, Entry<K>> {
    const registries = { resource: this.resources, screen: this.screens, dict: this.dicts };
    return registries[kind] as unknown as Map<string, Entry<K>>;
  }
}
