/**
 * The route tree: no two routes share a full path or a name, and a route showing a schema screen
 * names one that exists. Collects the routes and access ids other checks resolve against.
 */
import type { LintContext } from '../context';
import type { JsonPath } from '../json-source';
import type { MenuNode } from '../types';

interface Visited {
  node: MenuNode;
  path: JsonPath;
  fullPath: string;
}

/** Child paths are relative to their parent unless absolute. */
export function joinRoute(parent: string, path: string): string {
  if (path.startsWith('/') || parent === '') return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

function walk(nodes: readonly MenuNode[], path: JsonPath, parent: string, out: Visited[]): Visited[] {
  nodes.forEach((node, i) => {
    const at = [...path, i];
    const fullPath = joinRoute(parent, node.path);
    out.push({ node, path: at, fullPath });
    if (node.children) walk(node.children, [...at, 'children'], fullPath, out);
  });
  return out;
}

export function checkMenu(ctx: LintContext): void {
  if (!ctx.menu?.valid) return;
  const { file } = ctx.menu;
  const visited = walk(file.value.public, ['public'], '', walk(file.value.routes, ['routes'], '', []));
  const paths = new Map<string, Visited>();
  const names = new Map<string, Visited>();
  ctx.routes = new Set();
  ctx.routeScreens = new Map();
  ctx.accessIds = new Set();
  for (const v of visited) {
    const samePath = paths.get(v.fullPath);
    if (samePath) ctx.report(file, [...v.path, 'path'], 'duplicate-route', `route '${v.fullPath}' is already defined (${describe(samePath)})`);
    else paths.set(v.fullPath, v);
    const sameName = names.get(v.node.name);
    if (sameName) ctx.report(file, [...v.path, 'name'], 'duplicate-route', `route name '${v.node.name}' is already used by '${sameName.fullPath}'`);
    else names.set(v.node.name, v);
    if (v.node.screen !== undefined && !ctx.screens.has(v.node.screen)) {
      ctx.report(file, [...v.path, 'screen'], 'unknown-screen', `no screen '${v.node.screen}' (schemas/screens/${v.node.screen}.json)`);
    }
    ctx.routes.add(v.fullPath);
    if (v.node.screen !== undefined) ctx.routeScreens.set(v.fullPath, v.node.screen);
    for (const id of v.node.access ?? []) ctx.accessIds.add(id);
  }
}

function describe(v: Visited): string {
  return `'${v.node.name}' at ${v.path.join('.')}`;
}
