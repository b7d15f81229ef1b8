/**
 * The project's directories, found from this module's location by walking up to the project's
 * package.json, so the same code works run from source (tsx), from the server bundle
 * (dist/server.mjs, see scripts/build-server.ts), whose modules sit at other depths, and from an
 * installed offline package (scripts/package.ts: package.json, dist/, schemas/ and node_modules/,
 * but no sources).
 */
import { createHash } from 'node:crypto';
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

/** Whether the TypeScript sources are here (a checkout), not only the bundles (an installed package). */
export const hasSources = (): boolean => existsSync(projectPath('src', 'server'));

let runningCode: string | undefined;
/**
 * A hash of the file this code runs from: in an installed package the bundle (dist/server.mjs,
 * dist/admin.mjs), which then stands for the sources that key the database templates
 * (db/index.ts MIGRATED, db/demo/template.ts). Read once.
 */
export function runningCodeHash(): string {
  runningCode ??= createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex');
  return runningCode;
}
