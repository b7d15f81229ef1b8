/**
 * Vite plugin: after the build, writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip,
 * level 9) beside every text asset of the output directory, which the server sends as they are
 * (@fastify/static `preCompressed`, src/server/plugins/spa.ts) to a browser that accepts them —
 * compression paid once per build, never per request (it keeps the login page's transferred
 * JavaScript small). Files under 1 KiB, and files compression does not make smaller, stay uncompressed.
 * The work runs in libuv's thread pool, all files at once.
 *
 * Brotli's best quality costs ~5 s of CPU for the whole front end, so results are kept in
 * node_modules/.cache/portal-precompress by the content's hash: a rebuild after a change compresses
 * only the chunks that changed (chunk names carry a content hash, most stay the same). Entries not
 * used for a week are removed.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|wasm)$/i;
const MIN_BYTES = 1024;
const CACHE_DIR = fileURLToPath(new URL('../node_modules/.cache/portal-precompress/', import.meta.url));
const CACHE_DAYS = 7;

/** `compress(body)` from the cache, or computed and cached (written to a temporary name, then renamed). */
async function cached(key: string, compress: () => Promise<Buffer>): Promise<Buffer> {
  const path = join(CACHE_DIR, key);
  try {
    const hit = await readFile(path);
    const now = new Date();
    await utimes(path, now, now).catch(() => undefined);
    return hit;
  } catch {
    const made = await compress();
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, made);
    await rename(tmp, path);
    return made;
  }
}

async function pruneCache(): Promise<void> {
  const limit = Date.now() - CACHE_DAYS * 86_400_000;
  for (const name of await readdir(CACHE_DIR).catch(() => [] as string[])) {
    const path = join(CACHE_DIR, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < limit) await rm(path, { force: true });
  }
}

async function* files(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

/** Compresses every compressible file under `dir`; returns how many files were compressed. */
export async function precompressDir(dir: string): Promise<number> {
  await mkdir(CACHE_DIR, { recursive: true });
  await pruneCache();
  const jobs: Promise<void>[] = [];
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue;
    jobs.push(
      (async () => {
        if ((await stat(path)).size < MIN_BYTES) return;
        const body = await readFile(path);
        const hash = createHash('sha256').update(body).digest('hex');
        const [br, gzipped] = await Promise.all([
          cached(`${hash}.br`, () =>
            brotli(body, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
              },
            }),
          ),
          cached(`${hash}.gz`, () => gz(body, { level: 9 })),
        ]);
        if (br.length < body.length) await writeFile(`${path}.br`, br);
        if (gzipped.length < body.length) await writeFile(`${path}.gz`, gzipped);
      })(),
    );
  }
  await Promise.all(jobs);
  return jobs.length;
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
