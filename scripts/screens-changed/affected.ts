/**
 * Which screens a change of schema files affects, and the routes that open them. Pure: takes the
 * changed paths and the loaded schema catalogue (and the menu before the change, to tell which of
 * its entries changed), so the mapping is unit-tested without git, a server or a browser.
 *
 * - a screen file → that screen;
 * - a resource file → every screen bound to it (`resource`, a chart's or flow table's resource, a
 *   sub-table of it on a form);
 * - a dictionary file → every screen that shows, filters or groups by a field with that dictionary;
 * - menu.json → the screens of the entries that were added or changed;
 * - a list screen affected → the detail screens that embed it (`related`) as well.
 */
import { flattenRoutes, type RouteEntry } from '../../src/app/menu';
import { kindOf, MENU_FILE } from '../../src/schema/lint';
import type { Field, Menu, MenuNode, Resource, Screen } from '../../src/schema/types';

/** The schema files as the server loads them, by name. */
export interface Catalogue {
  resources: ReadonlyMap<string, Resource>;
  screens: ReadonlyMap<string, Screen>;
  menu: Menu | undefined;
}

/** What makes a screen worth a picture. */
export interface Cause {
  /** The changed file, relative to the schema directory (`dicts/area.json`). */
  file: string;
  /** Why it affects the screen, in a few words. */
  why: string;
}

export interface AffectedScreen {
  id: string;
  kind: Screen['kind'];
  title: string;
  /** Leaf routes that show the screen, in menu order (public ones, open without login, last); empty when none does. */
  routes: ScreenRoute[];
  causes: Cause[];
  /** The schema files the screen is made of (its own, its resources, its dictionaries), relative to the schema directory. */
  files: string[];
}

export interface AffectedResult {
  screens: AffectedScreen[];
  /** Changed files that affect no screen, or could not be mapped, with the reason. */
  notes: Cause[];
}

/** A route of the menu; `isPublic`: one of the routes open without logging in. */
export interface ScreenRoute extends RouteEntry {
  isPublic: boolean;
}

/** `resources/x.json` → `x`. */
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1).replace(/\.json$/, '');

/** Every leaf route of the menu, signed-in routes first, then the public ones. */
export function menuRoutes(menu: Menu | undefined): ScreenRoute[] {
  if (!menu) return [];
  return [
    ...flattenRoutes(menu.routes).map((entry) => ({ ...entry, isPublic: false })),
    ...flattenRoutes(menu.public).map((entry) => ({ ...entry, isPublic: true })),
  ];
}

/** The entries of the menu, by full path, as comparable text (children left out: each is an entry of its own). */
function menuEntries(menu: Menu | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (nodes: readonly MenuNode[], parent: string) => {
    for (const node of nodes) {
      const full = node.path.startsWith('/') || parent === '' ? node.path : `${parent.replace(/\/$/, '')}/${node.path}`;
      const { children, ...own } = node;
      out.set(full, JSON.stringify(own));
      if (children) walk(children, full);
    }
  };
  if (menu) {
    walk(menu.routes, '');
    walk(menu.public, '');
  }
  return out;
}

/** Full paths of the menu entries that are new or differ from `before` (a group's change counts for its own entry only). */
export function changedMenuPaths(before: Menu | undefined, after: Menu | undefined): Set<string> {
  const old = menuEntries(before);
  const changed = new Set<string>();
  for (const [path, text] of menuEntries(after)) if (old.get(path) !== text) changed.add(path);
  return changed;
}

const fieldName = (ref: unknown): string | undefined =>
  typeof ref === 'string'
    ? ref
    : ref && typeof ref === 'object' && typeof (ref as { field?: unknown }).field === 'string'
      ? (ref as { field: string }).field
      : undefined;

/** The fields of a resource a screen shows, filters or groups by, as [resource, field] pairs (sub-table columns under the child resource). */
export function screenFieldUses(screen: Screen, catalogue: Catalogue): [resource: string | undefined, field: string, definition: Field | undefined][] {
  const uses: [string | undefined, string, Field | undefined][] = [];
  const own = screen.kind === 'form' ? ((screen.fields ?? {}) as unknown as Record<string, Field>) : {};
  const defOf = (resource: string | undefined, name: string): Field | undefined =>
    (resource === screen.resource ? own[name] : undefined) ?? (resource ? catalogue.resources.get(resource)?.fields[name] : undefined);
  const use = (resource: string | undefined, ref: unknown) => {
    const name = fieldName(ref);
    if (name === undefined) return;
    const definition = defOf(resource, name);
    uses.push([resource, name, definition]);
    // A sub-table lists fields of the child resource.
    const columns = ref && typeof ref === 'object' ? (ref as { fields?: unknown }).fields : undefined;
    const child = definition?.type === 'children' ? definition.resource : undefined;
    if (Array.isArray(columns)) for (const column of columns) use(child, column);
  };
  const sections = (list: readonly { fields: readonly unknown[] }[] | undefined) => {
    for (const section of list ?? []) for (const ref of section.fields) use(screen.resource, ref);
  };
  switch (screen.kind) {
    case 'list':
      for (const ref of [...screen.columns, ...(screen.filters ?? [])]) use(screen.resource, ref);
      break;
    case 'form':
    case 'detail':
      sections(screen.sections);
      break;
    case 'wizard':
      for (const step of screen.steps) sections(step.sections);
      break;
    case 'document':
      for (const ref of [screen.number, ...(screen.fields ?? [])]) use(screen.resource, ref);
      break;
    case 'stats':
      for (const ref of screen.filters ?? []) use(screen.resource, ref);
      for (const chart of screen.charts ?? []) {
        const resource = chart.resource ?? screen.resource;
        for (const ref of [chart.groupBy, chart.stackBy, ...(chart.lines ?? []).map((line) => line.groupBy)]) use(resource, ref);
      }
      break;
  }
  return uses;
}

/** The resources a screen is bound to: its own, a chart's or flow table's, and the child resources of the sub-tables it shows. */
export function screenResources(screen: Screen, catalogue: Catalogue): Set<string> {
  const names = new Set<string>();
  if (screen.resource) names.add(screen.resource);
  if (screen.kind === 'stats') {
    for (const chart of screen.charts ?? []) if (chart.resource) names.add(chart.resource);
    for (const name of screen.flowTimes?.resources ?? []) names.add(name);
  }
  for (const [, , definition] of screenFieldUses(screen, catalogue)) if (definition?.type === 'children' && definition.resource) names.add(definition.resource);
  return names;
}

/** The dictionaries of the fields a screen uses. */
export function screenDicts(screen: Screen, catalogue: Catalogue): Set<string> {
  const names = new Set<string>();
  for (const [, , definition] of screenFieldUses(screen, catalogue)) if (definition?.dict) names.add(definition.dict);
  return names;
}

/**
 * The screens `changed` (paths relative to the schema directory) affects, in screen id order, each
 * with the routes that open it and why. `menuBefore` is the menu before the change; without it a
 * changed menu.json is only noted (there is nothing to compare with).
 */
export function affectedScreens(changed: Iterable<string>, catalogue: Catalogue, menuBefore?: Menu | null): AffectedResult {
  const causes = new Map<string, Cause[]>();
  const notes: Cause[] = [];
  const add = (id: string, cause: Cause) => {
    const list = causes.get(id) ?? [];
    if (!list.some((c) => c.file === cause.file && c.why === cause.why)) list.push(cause);
    causes.set(id, list);
  };
  const routes = menuRoutes(catalogue.menu);
  const screens = [...catalogue.screens.values()];

  for (const file of [...new Set(changed)].sort()) {
    const kind = kindOf(file);
    const name = nameOf(file);
    const before = notes.length;
    if (kind === 'screen') {
      if (catalogue.screens.has(name)) add(name, { file, why: 'screen changed' });
      else notes.push({ file, why: 'screen removed' });
    } else if (kind === 'resource') {
      for (const screen of screens) if (screenResources(screen, catalogue).has(name)) add(screen.id, { file, why: `bound to resource ${name}` });
    } else if (kind === 'dict') {
      for (const screen of screens) if (screenDicts(screen, catalogue).has(name)) add(screen.id, { file, why: `uses dictionary ${name}` });
    } else if (kind === 'menu' && file === MENU_FILE) {
      if (menuBefore === undefined) {
        notes.push({ file, why: 'menu changed, but there is no earlier menu to compare with (--base)' });
        continue;
      }
      const paths = changedMenuPaths(menuBefore ?? undefined, catalogue.menu);
      for (const route of routes) if (route.screen && paths.has(route.fullPath)) add(route.screen, { file, why: `menu entry ${route.fullPath}` });
    } else {
      notes.push({ file, why: 'not a screen, resource, dictionary or the menu' });
      continue;
    }
    if (notes.length === before && ![...causes.values()].some((list) => list.some((c) => c.file === file))) notes.push({ file, why: 'no screen uses it' });
  }

  // A detail embedding an affected list (`related`) shows that list too.
  for (const screen of screens) {
    if (screen.kind !== 'detail') continue;
    for (const related of screen.related ?? []) {
      for (const cause of causes.get(related.screen) ?? [])
        if (related.screen !== screen.id) add(screen.id, { file: cause.file, why: `embeds ${related.screen}` });
    }
  }

  const affected = [...causes.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, list]): AffectedScreen => {
      const screen = catalogue.screens.get(id)!;
      const files = [
        `screens/${id}.json`,
        ...[...screenResources(screen, catalogue)].sort().map((r) => `resources/${r}.json`),
        ...[...screenDicts(screen, catalogue)].sort().map((d) => `dicts/${d}.json`),
      ];
      return { id, kind: screen.kind, title: screen.title, routes: routes.filter((r) => r.screen === id), causes: list, files };
    });
  return { screens: affected, notes };
}
