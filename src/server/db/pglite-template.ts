/**
 * The template cache of the embedded database: a new cluster prepared once and kept as a tarball.
 *
 * A new cluster (an empty data directory or `memory://`) runs initdb inside WebAssembly, ~6 s of
 * CPU, and then the migrations, ~1.5 s: most of a fresh start. The result is the same bytes every
 * time, so the first start on a machine keeps it as a tarball in a cache directory, keyed by the
 * PGlite version and the migrations, and later fresh starts load it (`loadDataDir`, ~1.5 s). Starts
 * that run at once agree through a lock file: one builds the tarball, the others wait for it
 * (bounded) and fall back to initialising their own. Measured on a two-core machine.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { readTarGz } from '../ops/tar';
import { projectPath } from '../paths';

/** Reports what the start-up is doing (one short line per step). */
export type Progress = (message: string) => void;

// pg_trgm backs the trigram indexes of resource `search` fields (migration 0006).
export const EXTENSIONS = { pg_trgm } satisfies PGliteOptions['extensions'];

const pgliteVersion = (): string => {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
};

/** Where templates are kept by default: node_modules/.cache/portal of the project. */
export const DEFAULT_CACHE_DIR = projectPath('node_modules', '.cache', 'portal');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a new database is prepared with before it is kept as a template (the migrations). */
export interface TemplateRecipe {
  /** Changes whenever `prepare` would produce something else (e.g. a hash of the migrations). */
  key: string;
  /** The template this one starts from (none: a new cluster from initdb). */
  base?: TemplateRecipe;
  prepare(pg: PGlite): Promise<void>;
}

export interface TemplateOptions {
  cacheDir?: string;
  /** How long a start waits for another process building the template before preparing its own. */
  waitMs?: number;
  /** A lock older than this is taken to be left by a killed process. */
  staleMs?: number;
  progress?: Progress;
}

const fullKey = (recipe: TemplateRecipe): string => (recipe.base ? `${fullKey(recipe.base)}\n--\n` : '') + recipe.key;
/** The template's file name in the cache directory (its lock file adds `.lock`). */
export const templateFileName = (recipe: TemplateRecipe): string =>
  `pglite-${pgliteVersion()}-${createHash('sha256').update(fullKey(recipe)).digest('hex').slice(0, 16)}.tar`;
const templateFile = (dir: string, recipe: TemplateRecipe): string => join(dir, templateFileName(recipe));

/**
 * The tarball of a new cluster prepared by `recipe`, built once per machine, PGlite version and
 * recipe; null when it cannot be had in time (the caller then initialises its own). Never throws.
 */
export async function databaseTemplate(recipe: TemplateRecipe, options: TemplateOptions = {}): Promise<Blob | null> {
  const file = await databaseTemplateFile(recipe, options);
  try {
    return file ? new Blob([readFileSync(file)]) : null;
  } catch {
    return null; // removed meanwhile
  }
}

/**
 * Writes the cluster of the template tarball `file` into the empty directory `dataDir`, streamed
 * (one read chunk in memory at a time), PG_VERSION last: a directory cut short holds no cluster and is
 * filled again. PGlite then opens it as an existing cluster. Loading the tarball through PGlite
 * instead (`loadDataDir`) keeps ~55 MB of copies of the files alive in the process for good and
 * more in native memory: an idle server after a fresh start held 522 MB RSS against 300 MB after
 * a restart on the same directory (docs/benchmarks.md).
 */
export async function extractTemplate(file: string, dataDir: string): Promise<void> {
  let version: Buffer | null = null;
  await readTarGz(
    file,
    (entry) => {
      const path = join(dataDir, entry.name);
      if (entry.type === 'directory') {
        mkdirSync(path, { recursive: true });
        return null;
      }
      mkdirSync(dirname(path), { recursive: true });
      rmSync(path, { force: true });
      return entry.name === 'PG_VERSION' ? { keep: (data) => (version = data) } : { writeTo: path };
    },
    { plain: true },
  );
  if (!version) throw new Error(`${file} holds no PG_VERSION: not a cluster`);
  writeFileSync(join(dataDir, 'PG_VERSION'), version);
}

/** The file of the template of `recipe` (built here when missing), as `databaseTemplate`; null when it cannot be had. Never throws. */
export async function databaseTemplateFile(recipe: TemplateRecipe, options: TemplateOptions = {}): Promise<string | null> {
  const { waitMs = 90_000, staleMs = 180_000, progress } = options;
  const dir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  const file = templateFile(dir, recipe);
  const lock = `${file}.lock`;
  const read = () => {
    const now = new Date();
    utimesSync(file, now, now); // in use: kept by the pruning below
    return file;
  };
  try {
    if (existsSync(file)) return read();
    mkdirSync(dir, { recursive: true });
    const deadline = Date.now() + waitMs;
    let told = false;
    for (;;) {
      let fd: number | null = null;
      try {
        fd = openSync(lock, 'wx');
      } catch {
        /* another process builds it */
      }
      if (fd !== null) {
        closeSync(fd);
        try {
          if (existsSync(file)) return read();
          const base = recipe.base ? await databaseTemplate(recipe.base, options) : null;
          progress?.(`生成数据库模板 ${file}（一次性，此后的全新启动直接复用）…`);
          const pg = new PGlite('memory://', { extensions: EXTENSIONS, ...(base ? { loadDataDir: base } : {}) });
          await recipe.prepare(pg);
          // Uncompressed: a start reads it back in a fraction of the time gunzip takes.
          const tarball = await pg.dumpDataDir('none');
          await pg.close();
          const tmp = `${file}.${process.pid}.tmp`;
          writeFileSync(tmp, new Uint8Array(await tarball.arrayBuffer()));
          renameSync(tmp, file);
          pruneTemplates(dir);
          return file;
        } finally {
          rmSync(lock, { force: true });
        }
      }
      if (existsSync(file)) return read();
      let age = 0;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue; // released between our two looks: try to take it
      }
      if (age > staleMs) {
        rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) return null;
      if (!told) progress?.('等待另一个进程生成数据库模板…');
      told = true;
      await sleep(200);
    }
  } catch (err) {
    progress?.(`数据库模板不可用（${(err as Error).message}），改为直接初始化`);
    return null;
  }
}

/** Templates unused for this long are removed when a new one is written (each is ~40 MB). */
const PRUNE_AFTER_MS = 3 * 86_400_000;

function pruneTemplates(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/^pglite-.+\.tar$/.test(name)) continue;
    const path = join(dir, name);
    if (Date.now() - statSync(path).mtimeMs > PRUNE_AFTER_MS) rmSync(path, { force: true });
  }
}
