/**
 * The menu of schemas/menu.json as a tree of grantable access ids (a sub-account's role): groups
 * and leaves with their titles, keeping only leaves whose access id the manager may grant.
 * Pure (unit-tested).
 */
import type { MenuNode } from '../../app/menu';

export interface MenuTreeNode {
  key: string;
  title: string;
  children?: MenuTreeNode[];
}

/** Leaves keyed by their first access id; groups by `group:<path>`, kept only when a leaf survives. */
export function grantableTree(nodes: readonly MenuNode[], grantable: ReadonlySet<string>, parent = ''): MenuTreeNode[] {
  const out: MenuTreeNode[] = [];
  for (const node of nodes) {
    if (node.href) continue;
    if (node.children?.length) {
      const children = grantableTree(node.children, grantable, `${parent}${node.path}/`);
      if (children.length) out.push({ key: `group:${parent}${node.path}`, title: node.title, children });
      continue;
    }
    const id = node.access?.find((a) => grantable.has(a));
    if (id) out.push({ key: id, title: node.hideInMenu ? `${node.title}（页面）` : node.title });
  }
  return out;
}

/** The access ids among checked keys (group keys dropped). */
export const menuIdsOf = (keys: readonly string[]): string[] => [...new Set(keys.filter((k) => !k.startsWith('group:')))].sort();
