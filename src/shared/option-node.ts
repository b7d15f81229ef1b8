/** One option of a tree of options: a leaf's value is what is chosen; a group only gathers leaves. The server answers them, the engine's `optionTree` field shows them. */
export interface OptionNode {
  value: string;
  label: string;
  children?: OptionNode[];
}
