/**
 * The project's directories, found from this module's location by walking up to the project's
 * package.json, so the same code works run from source (tsx) and from the server bundle
 * (dist/server.mjs, see scripts/build-server.ts), whose modules sit at other depths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'special-equipment-portal') return dir;
    if (dirname(dir) === dir) throw new Error(`project root not found above ${start}`);
  }
}

export const PROJECT_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project. */
export const projectPath = (...parts: string[]): string => join(PROJECT_ROOT, ...parts);
