/**
 * The menu of schemas/menu.json as a tree of options of grantable access ids (a sub-account's
 * role): groups and leaves with their titles, keeping only leaves whose access id the manager may
 * grant. The server sends it as the account form's option tree. Pure (unit-tested).
 */
import type { MenuNode } from '../schema/generated/menu';
import type { OptionNode } from './option-node';

export type { OptionNode };

/** Leaves valued by their first grantable access id; groups by `group:<path>`, kept only when a leaf survives. */
export function grantableTree(nodes: readonly MenuNode[], grantable: ReadonlySet<string>, parent = ''): OptionNode[] {
  const out: OptionNode[] = [];
  for (const node of nodes) {
    if (node.href) continue;
    if (node.children?.length) {
      const children = grantableTree(node.children, grantable, `${parent}${node.path}/`);
      if (children.length) out.push({ value: `group:${parent}${node.path}`, label: node.title, children });
      continue;
    }
    const id = node.access?.find((a) => grantable.has(a));
    if (id) out.push({ value: id, label: node.hideInMenu ? `${node.title}（页面）` : node.title });
  }
  return out;
}

/** The title of each access id (its first menu node's), for naming granted menus. */
export function accessTitles(nodes: readonly MenuNode[], into = new Map<string, string>()): Map<string, string> {
  for (const node of nodes) {
    for (const id of node.access ?? []) if (!into.has(id)) into.set(id, node.title);
    accessTitles(node.children ?? [], into);
  }
  return into;
}
