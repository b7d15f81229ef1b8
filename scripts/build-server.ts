/**
 * Builds the server into one ES module, dist/server.mjs, with its source map beside it
 * (dist/server.mjs.map), which `npm start` runs with plain node: no TypeScript transpiler at run
 * time, ~1.5 s less CPU per start than running src/server/main.ts through tsx (bench:start).
 * Packages stay external (node_modules). Each file is written to a temporary name and renamed, the
 * map first, so processes building at once never read half a file.
 *
 * The map is a file of its own and holds no sources: V8 keeps a module's whole text for as long as
 * the process runs, and an inline map with the sources made that text 3.6 MB, held twice over as
 * two-byte strings (one Chinese character in a template literal makes the whole text two-byte):
 * ~10 MB of an idle server's heap (docs/benchmarks.md). Stack traces still
 * name the TypeScript files and lines (`--enable-source-maps` reads the map on the first trace).
 */
import { renameSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_BUNDLE = `${root}dist/server.mjs`;

/** How a server-side entry is bundled: one ES module for Node 20, packages external (also the offline package's operator scripts). */
export const NODE_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
} as const satisfies BuildOptions;

export async function buildServer(): Promise<string> {
  // Built in memory under the final name, so the bundle's map comment names dist/server.mjs.map.
  const { outputFiles } = await build({ ...NODE_BUNDLE, entryPoints: [`${root}src/server/main.ts`], outfile: SERVER_BUNDLE, write: false });
  const tag = `${process.pid}.${Date.now()}.tmp`;
  for (const file of [...outputFiles].sort((a, b) => Number(a.path.endsWith('.mjs')) - Number(b.path.endsWith('.mjs')))) {
    const tmp = `${file.path}.${tag}`;
    writeFileSync(tmp, file.contents);
    renameSync(tmp, file.path);
  }
  if (!outputFiles.some((f) => basename(f.path) === basename(SERVER_BUNDLE))) throw new Error('esbuild wrote no server bundle');
  return SERVER_BUNDLE;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer();
}
