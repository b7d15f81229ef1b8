/**
 * One JSON file with its syntax tree, so that any finding can be reported at the real line and
 * column of the source (jsonc-parser keeps offsets; JSON.parse does not).
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';

/** A location inside a JSON document: property names and array indexes from the root. */
export type JsonPath = readonly (string | number)[];

/** 1-based line and column (UTF-16 code units, as editors count them). */
export interface Position {
  line: number;
  column: number;
}

/** Where a finding points: at a value, or at the key of the property holding it. */
export type Target = 'value' | 'key';

export interface SyntaxProblem {
  offset: number;
  message: string;
}

const STRICT_JSON = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

export class JsonSource {
  readonly tree: Node | undefined;
  /** The parsed value; undefined when the text has syntax errors. */
  readonly value: unknown;
  readonly syntaxErrors: SyntaxProblem[];
  private lineStarts: number[] | undefined;

  constructor(readonly text: string) {
    const errors: ParseError[] = [];
    this.tree = parseTree(text, errors, STRICT_JSON);
    this.syntaxErrors = errors.map((e) => ({ offset: e.offset, message: syntaxMessage(printParseErrorCode(e.error)) }));
    this.value = this.tree && errors.length === 0 ? getNodeValue(this.tree) : undefined;
  }

  /** Line and column of an offset. */
  position(offset: number): Position {
    const starts = (this.lineStarts ??= lineStarts(this.text));
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - starts[low] + 1 };
  }

  /** The node at a path, or the deepest existing ancestor when the path does not exist (missing property). */
  node(path: JsonPath): Node | undefined {
    if (!this.tree) return undefined;
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(this.tree, path.slice(0, depth));
      if (node) return node;
    }
    return this.tree;
  }

  /** Offset a finding at `path` points to: the value, or the property key when asked and present. */
  offset(path: JsonPath, target: Target = 'value'): number {
    const node = this.node(path);
    if (!node) return 0;
    const property = node.parent?.type === 'property' && node.parent.children?.[1] === node ? node.parent : undefined;
    return target === 'key' && property ? property.offset : node.offset;
  }

  /**
   * Offset of the `index`-th character of the string value at `path` (its decoded text), so that a
   * position inside an embedded expression maps onto the source even across escape sequences.
   */
  offsetInString(path: JsonPath, index: number): number {
    const node = this.node(path);
    if (!node || node.type !== 'string') return this.offset(path);
    let raw = node.offset + 1;
    for (let decoded = 0; decoded < index && raw < node.offset + node.length - 1; decoded++) {
      raw += this.text[raw] !== '\\' ? 1 : this.text[raw + 1] === 'u' ? 6 : 2;
    }
    return raw;
  }

  /** Keys of the root object in source order. */
  rootKeys(): string[] {
    return this.tree?.type === 'object' ? (this.tree.children ?? []).map((p) => p.children![0].value as string) : [];
  }

  /** Properties that repeat a key of the same object (every occurrence after the first). */
  duplicateKeys(): { key: string; offset: number }[] {
    const found: { key: string; offset: number }[] = [];
    const visit = (node: Node) => {
      if (node.type === 'object') {
        const seen = new Set<string>();
        for (const property of node.children ?? []) {
          const key = property.children![0];
          const name: unknown = key.value;
          if (typeof name !== 'string') continue;
          if (seen.has(name)) found.push({ key: name, offset: key.offset });
          seen.add(name);
        }
      }
      for (const child of node.children ?? []) visit(child);
    };
    if (this.tree) visit(this.tree);
    return found;
  }
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** jsonc-parser's error codes (`CommaExpected`) as sentences (`comma expected`). */
function syntaxMessage(code: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `invalid JSON: ${words}`;
}
