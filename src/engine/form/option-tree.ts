/**
 * A tree of options (a field's `optionTree`): groups gather leaves, and the value is the list of
 * the checked leaves' values. Pure (unit-tested): which keys are leaves, and what a check means.
 */
import type { OptionNode } from '../../shared/option-node';

export type { OptionNode };

/** The values of every leaf of the tree. */
export function leafValues(nodes: readonly OptionNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (node.children?.length) leafValues(node.children, into);
    else into.add(node.value);
  }
  return into;
}

/** The field's value from checked keys: the leaves among them (groups dropped), unique, sorted. */
export function checkedLeaves(keys: readonly unknown[], leaves: ReadonlySet<string>): string[] {
  return [...new Set(keys.map(String).filter((k) => leaves.has(k)))].sort();
}

/** A value as a list of texts (anything else: none). */
export const valueList = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A node as antd's Tree takes it. */
export interface TreeDataNode {
  key: string;
  title: string;
  children?: TreeDataNode[];
}

/** Tree nodes as antd's Tree takes them. */
export const treeData = (nodes: readonly OptionNode[]): TreeDataNode[] =>
  nodes.map((n) => ({ key: n.value, title: n.label, ...(n.children?.length ? { children: treeData(n.children) } : {}) }));
