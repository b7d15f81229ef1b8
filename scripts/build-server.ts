/**
 * Builds the server into one ES module, dist/server.mjs (with a source map), which `npm start`
 * runs with plain node: no TypeScript transpiler at run time, ~1.5 s less CPU per start than
 * running src/server/main.ts through tsx (bench:start). Packages stay external (node_modules).
 * Written to a temporary file and renamed, so processes building at once never read half a file.
 */
import { renameSync } from 'node:fs';
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
  sourcemap: 'inline',
  logLevel: 'warning',
} as const satisfies BuildOptions;

export async function buildServer(): Promise<string> {
  const tmp = `${root}dist/server.${process.pid}.${Date.now()}.tmp.mjs`;
  await build({ ...NODE_BUNDLE, entryPoints: [`${root}src/server/main.ts`], outfile: tmp });
  renameSync(tmp, SERVER_BUNDLE);
  return SERVER_BUNDLE;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildServer();
}
