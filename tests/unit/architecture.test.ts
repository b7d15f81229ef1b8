/**
 * The layout of src/ holds, found by walking every import of every .ts/.tsx file:
 * - no import cycle (type-only imports included: they tie modules as much for a reader);
 * - the server and the shared rooms (src/server, src/shared, src/schema, validators/) import
 *   nothing from a React room (src/engine, src/app, src/shell, src/pages) and no React package.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const REACT_ROOMS = ['src/engine', 'src/app', 'src/shell', 'src/pages'].map((d) => join(root, d) + '/');
const REACT_PACKAGES = /^(react|react-dom|react-router-dom|antd|@ant-design\/|@formily\/(react|antd-v5)|swr)(\/|$)/;
const PACKAGE_SPECIFIERS = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'".][^'"]*)['"]/g;

const SPECIFIERS = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The files a module imports (relative specifiers resolved as TypeScript does; packages left out). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(SPECIFIERS)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) continue;
    const base = resolve(dirname(file), spec);
    const target = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((p) => existsSync(p) && statSync(p).isFile());
    if (target && /\.tsx?$/.test(target)) found.push(target);
  }
  return found;
}

/** Every cycle's smallest witness, as `a → b → … → a` with paths relative to the project. */
export function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((p) => relative(root, p)).join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the layout of src/', () => {
  const graph = new Map(files(src).map((f) => [f, importsOf(f)]));

  it('reads the imports it checks', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
  });

  it('the cycle finder finds a planted cycle', () => {
    expect(
      cycles(
        new Map([
          [join(root, 'a.ts'), [join(root, 'b.ts')]],
          [join(root, 'b.ts'), [join(root, 'a.ts')]],
        ]),
      ),
    ).toEqual(['a.ts → b.ts → a.ts']);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('keeps the server and the shared rooms free of React rooms and React packages', () => {
    const serverSide = [
      ...files(join(root, 'src/server')),
      ...files(join(root, 'src/shared')),
      ...files(join(root, 'src/schema')),
      ...files(join(root, 'validators')),
    ];
    expect(serverSide.length).toBeGreaterThan(80);
    const hits = serverSide.flatMap((file) => [
      ...importsOf(file)
        .filter((target) => REACT_ROOMS.some((room) => target.startsWith(room)))
        .map((target) => `${relative(root, file)} imports ${relative(root, target)}`),
      ...[...readFileSync(file, 'utf8').matchAll(PACKAGE_SPECIFIERS)]
        .filter((m) => REACT_PACKAGES.test(m[1]))
        .map((m) => `${relative(root, file)} imports ${m[1]}`),
    ]);
    expect(hits).toEqual([]);
  });
});
