/**
 * The engine is general: nothing under src/engine, src/schema or src/server/resources (generated types
 * included, which carry the meta-schemas' descriptions) may name the special-equipment domain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const DOMAIN_WORDS = /equip|eqm|elevator|boiler|equclacode|设备|电梯|锅炉|起重|压力容器/i;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : /\.(ts|tsx|css)$/.test(entry.name) ? [path] : [];
  });
}

describe('the engine never mentions the domain', () => {
  it.each(['src/engine', 'src/schema', 'src/server/resources'])('%s', (dir) => {
    const hits = files(join(root, dir)).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (DOMAIN_WORDS.test(line) ? [`${relative(root, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });
});
