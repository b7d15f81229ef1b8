/**
 * Whether dist/ holds a complete build of the current sources: a hash of everything the two builds
 * read (front end by Vite, server bundle by scripts/build-server.ts), compared with the one
 * written in dist/.build-stamp after the last complete build. Used by `npm start`
 * (scripts/start.mjs: build only when this changed) and by the e2e set-up (no second build of
 * what npm ci's prepare step or a start already built). Plain JavaScript: start.mjs runs untranspiled.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const dist = join(root, 'dist');
export const serverBundle = join(dist, 'server.mjs');
const stampFile = join(dist, '.build-stamp');

/** Everything the two builds read: sources, screens, validators, build configuration, locked packages. */
const INPUTS = [
  'src',
  'schemas',
  'validators',
  'scripts/build-server.ts',
  'scripts/precompress.ts',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

/**
 * @param {string} path
 * @returns {Generator<string>}
 */
function* walk(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isFile()) yield path;
  else if (info.isDirectory()) for (const name of readdirSync(path).sort()) yield* walk(join(path, name));
}

/**
 * The hash of the build inputs (and the Node version).
 * @returns {string}
 */
export function inputsHash() {
  const hash = createHash('sha256');
  hash.update(process.version);
  for (const input of INPUTS)
    for (const file of walk(join(root, input))) {
      hash.update(relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  return hash.digest('hex');
}

/**
 * Whether dist/ is a complete build of inputs hashing to `stamp` (default: the current inputs).
 * @param {string} [stamp]
 * @returns {boolean}
 */
export function isBuilt(stamp = inputsHash()) {
  return existsSync(serverBundle) && existsSync(join(dist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
}

/**
 * Records that dist/ is a complete build of inputs hashing to `stamp`.
 * @param {string} stamp
 */
export function writeStamp(stamp) {
  writeFileSync(stampFile, stamp);
}
