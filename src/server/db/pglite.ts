/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) behind a Kysely driver.
 *
 * Two things here exist because of how PGlite behaves, measured on a two-core machine:
 *
 * - A new cluster (an empty data directory or `memory://`) runs initdb inside WebAssembly, ~6 s of
 *   CPU, and then the migrations, ~1.5 s: most of a fresh start. The result is the same bytes every
 *   time, so the first start on a machine keeps it as a tarball in a cache directory, keyed by the
 *   PGlite version and the migrations, and later fresh starts load it (`loadDataDir`, ~1.5 s). Starts
 *   that run at once agree through a lock file: one builds the tarball, the others wait for it
 *   (bounded) and fall back to initialising their own.
 * - Closing a PGlite 0.4 instance while it is still initialising makes it throw WebAssembly exits in
 *   a loop that never yields the event loop (the process then hangs for good). The driver's
 *   `destroy()` therefore waits until the instance is ready and every queued query is done.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { PGlite, parse as pgliteResults, protocol, type PGliteOptions, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { projectPath } from '../paths';
import { READ_ONLY, STALE_PLAN } from './pg-prepared';

/** Reports what the start-up is doing (one short line per step). */
export type Progress = (message: string) => void;

// pg_trgm backs the trigram indexes of resource `search` fields (migration 0006).
const EXTENSIONS = { pg_trgm } satisfies PGliteOptions['extensions'];

const pgliteVersion = (): string => {
  const require = createRequire(import.meta.url);
  const pkg = JSON.parse(readFileSync(join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
};

/** Where templates are kept by default: node_modules/.cache/portal of the project. */
export const DEFAULT_CACHE_DIR = projectPath('node_modules', '.cache', 'portal');

const isMemory = (dataDir: string): boolean => dataDir.startsWith('memory://');
/** A data directory that already holds a cluster (PGlite keeps PG_VERSION at its root). */
const hasCluster = (dataDir: string): boolean => !isMemory(dataDir) && existsSync(join(dataDir, 'PG_VERSION'));

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
export const templateFileName = (recipe: TemplateRecipe): string => `pglite-${pgliteVersion()}-${createHash('sha256').update(fullKey(recipe)).digest('hex').slice(0, 16)}.tar`;
const templateFile = (dir: string, recipe: TemplateRecipe): string => join(dir, templateFileName(recipe));

/**
 * The tarball of a new cluster prepared by `recipe`, built once per machine, PGlite version and
 * recipe; null when it cannot be had in time (the caller then initialises its own). Never throws.
 */
export async function databaseTemplate(recipe: TemplateRecipe, options: TemplateOptions = {}): Promise<Blob | null> {
  const { waitMs = 90_000, staleMs = 180_000, progress } = options;
  const dir = resolve(options.cacheDir ?? DEFAULT_CACHE_DIR);
  const file = templateFile(dir, recipe);
  const lock = `${file}.lock`;
  const read = () => {
    const now = new Date();
    utimesSync(file, now, now); // in use: kept by the pruning below
    return new Blob([readFileSync(file)]);
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
          return tarball;
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

/**
 * Opens PGlite on `dataDir` (a directory, created when missing, or `memory://`) and resolves when
 * it answers. A new cluster starts from the template of `recipe` when one can be had, else it is
 * initialised and prepared here.
 */
export async function openPglite(dataDir: string, recipe: TemplateRecipe, options: { progress?: Progress; cacheDir?: string | null } = {}): Promise<PGlite> {
  const { progress } = options;
  if (!isMemory(dataDir)) mkdirSync(dataDir, { recursive: true });
  const fresh = !hasCluster(dataDir);
  const template = fresh ? await databaseTemplate(recipe, { progress, cacheDir: options.cacheDir ?? undefined }) : null;
  if (fresh) progress?.(template ? '创建数据库（复用模板）…' : '初始化内置数据库（initdb，约 10 秒）…');
  const pg = new PGlite(dataDir, { extensions: EXTENSIONS, postgresqlconf: PGLITE_CONF, ...(template ? { loadDataDir: template } : {}) });
  await pg.waitReady;
  return pg;
}

/**
 * PostgreSQL's buffer cache inside PGlite's WebAssembly memory: 32 MB instead of the default 128 MB
 * takes an idle server from ~420 to ~320 MB RSS. The files below it stay in the operating
 * system's page cache, so a miss costs a read call, not a disk seek; PostgreSQL serves the large data sets.
 */
const PGLITE_CONF = ['shared_buffers=32MB'];

/** Named statements kept prepared at most; the least recently used is closed beyond it. */
const PREPARED_LIMIT = 200;

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/**
 * The reads of the embedded database as named prepared statements, each planned once.
 * PGlite's `query` parses and plans every statement anew: for a list page that was more than half
 * of the statement's 3 ms, planning included (it also asks the file system for the size of every
 * table and index the planner looks at, a system call each through PGlite's file layer). A named
 * statement is parsed once and PostgreSQL keeps its plan, re-planning by itself after a schema
 * change. The messages are those PGlite's own `query` sends (parse, describe, bind, execute,
 * sync), with a statement name; values are serialised by the parameter types the server
 * described, as `query` does.
 *
 * The gain is the plan kept: with `plan_cache_mode=force_custom_plan` (parse saved, plan made
 * every time) the list served no more than before. A kept (generic) plan does not see the values,
 * which on large skewed tables can choose worse: on PostgreSQL with 1,000,000 rows the filtered
 * list page ran at 0.77× the hand-written route with named statements against 1.37× with a plan per
 * request, so PostgreSQL's connections keep nothing prepared. The embedded database serves the small
 * data sets (README: when to move to PostgreSQL), where one plan fits every value.
 */
class PreparedReads {
  readonly #statements = new Map<string, { name: string; types: readonly number[] }>();
  #named = 0;
  #ready = false;

  constructor(private readonly pg: PGlite) {}

  async query<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    // As PGlite's own query does: nothing may reach the protocol before the database is ready.
    if (!this.#ready) {
      await this.pg.waitReady;
      this.#ready = true;
    }
    try {
      return await this.#run<R>(text, params);
    } catch (err) {
      // A table a kept statement reads changed shape (`SELECT *` after a migration): prepare it anew, once.
      if ((err as { code?: unknown }).code !== STALE_PLAN) throw err;
      const stale = this.#statements.get(text);
      this.#statements.delete(text);
      if (stale) await this.pg.runExclusive(() => this.#close(stale.name));
      return this.#run<R>(text, params);
    }
  }

  #run<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    return this.pg.runExclusive(async () => {
      const messages: BackendMessage[] = [];
      try {
        const { name, types } = this.#statements.get(text) ?? (await this.#prepare(text));
        // Most recently used last: the first entry is the one to close.
        this.#statements.delete(text);
        this.#statements.set(text, { name, types });
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serialize = this.pg.serializers[types[i]];
          return serialize ? serialize(value) : String(value);
        });
        messages.push(...(await this.#send(protocol.serialize.bind({ statement: name, values }))));
        messages.push(...(await this.#send(protocol.serialize.describe({ type: 'P' }))));
        messages.push(...(await this.#send(protocol.serialize.execute({}))));
      } finally {
        messages.push(...(await this.#send(protocol.serialize.sync())));
      }
      return pgliteResults.parseResults(messages as never, this.pg.parsers)[0] as Results<R>;
    });
  }

  async #prepare(text: string): Promise<{ name: string; types: readonly number[] }> {
    if (this.#statements.size >= PREPARED_LIMIT) {
      const [oldest, { name }] = this.#statements.entries().next().value!;
      this.#statements.delete(oldest);
      await this.#close(name);
    }
    const name = `read_${++this.#named}`;
    await this.#send(protocol.serialize.parse({ name, text }));
    const described = await this.#send(protocol.serialize.describe({ type: 'S', name }));
    const parameters = described.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    return { name, types: parameters?.dataTypeIDs ?? [] };
  }

  async #close(name: string): Promise<void> {
    await this.#send(protocol.serialize.close({ type: 'S', name }));
    await this.#send(protocol.serialize.sync());
  }

  async #send(message: Uint8Array): Promise<BackendMessage[]> {
    return (await this.pg.execProtocol(message, { syncToFs: false })).messages;
  }
}

class PgliteConnection implements DatabaseConnection {
  /** Whether every statement of the current turn was a plain SELECT. */
  readOnly = false;
  /** Statements run so far. */
  statements = 0;
  readonly #reads: PreparedReads;

  constructor(private readonly pg: PGlite) {
    this.#reads = new PreparedReads(pg);
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.statements++;
    const read = READ_ONLY.test(query.sql);
    if (!read) this.readOnly = false;
    const result = read ? await this.#reads.query<R>(query.sql, query.parameters) : await this.pg.query<R>(query.sql, [...query.parameters]);
    return result.affectedRows !== undefined && result.affectedRows > 0 ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) } : { rows: result.rows };
  }

  // eslint-disable-next-line require-yield -- the interface asks for a generator
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite: use a cursor (DECLARE / FETCH) in a transaction');
  }
}

const URGENT = new AsyncLocalStorage<true>();

/**
 * Runs `work` with its statements on the embedded database served before the queued ones (the
 * current statement or transaction still ends first). For short reads that every request waits
 * on, such as the session epoch: they would otherwise queue behind the statements of every request
 * already waiting. No effect on PostgreSQL, whose pool has no such queue.
 */
export function urgently<T>(work: () => Promise<T>): Promise<T> {
  return URGENT.run(true, work);
}

/**
 * One connection, handed out in turn: a transaction holds it until commit or rollback, so queries
 * of other requests wait instead of running inside it. Waiters are served in arrival order, those
 * started by `urgently` first.
 *
 * PGlite runs a statement synchronously on the main thread and the turns passed on by promise
 * callbacks, which never gave the event loop back: under load the whole queue ran in one go while
 * new connections waited unaccepted and requests unread for seconds (timeouts at 100
 * connections while each request took ~10 ms). Each turn therefore starts from `setImmediate`,
 * after the loop has accepted and read what arrived, so requests are served in arrival order.
 */
class PgliteDriver implements Driver {
  readonly #connection: PgliteConnection;
  #busy = false;
  readonly #waiting: (() => void)[] = [];
  readonly #urgent: (() => void)[] = [];
  #idle: (() => void)[] = [];

  constructor(
    private readonly pg: PGlite,
    private readonly keepOpen: boolean,
  ) {
    this.#connection = new PgliteConnection(pg);
  }

  async init(): Promise<void> {}

  /**
   * Turns of the connection that may have changed data: every turn but those that ran only plain
   * SELECTs. Counted when a turn ends, so a transaction counts at its commit (or rollback).
   */
  changes = 0;

  async acquireConnection(): Promise<DatabaseConnection> {
    if (this.#busy) await new Promise<void>((resolve) => (URGENT.getStore() ? this.#urgent : this.#waiting).push(resolve));
    else this.#busy = true;
    await new Promise((resolve) => setImmediate(resolve));
    // Read-only until a statement says otherwise; a turn that runs none through executeQuery (a
    // caller using the PGlite handle directly) is counted as a change.
    this.#connection.readOnly = true;
    this.#statements = this.#connection.statements;
    return this.#connection;
  }

  #statements = 0;

  async releaseConnection(): Promise<void> {
    if (!this.#connection.readOnly || this.#connection.statements === this.#statements) this.changes++;
    const next = this.#urgent.shift() ?? this.#waiting.shift();
    if (next) return next(); // handed over: stays busy
    this.#busy = false;
    const idle = this.#idle;
    this.#idle = [];
    for (const resolve of idle) resolve();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw(settings.isolationLevel ? `start transaction isolation level ${settings.isolationLevel}` : 'begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  /** Waits for readiness and for every queued query before closing (see the file comment). */
  async destroy(): Promise<void> {
    await this.pg.waitReady.catch(() => undefined);
    if (this.#busy) await new Promise<void>((resolve) => this.#idle.push(resolve));
    if (!this.keepOpen && !this.pg.closed) await this.pg.close();
  }
}

/** The adapter of an embedded database: tells `embeddedChanges` how many changing turns its driver has run. */
class PgliteAdapter extends PostgresAdapter {
  constructor(readonly changes: () => number) {
    super();
  }
}

/**
 * How many turns on the embedded database behind `db` may have changed data (see PgliteDriver
 * `changes`); undefined on PostgreSQL. The embedded database belongs to this process alone, and
 * every statement passes through its one driver: while the number stands, no data has changed
 * since it was read — no need to ask the database whether something did.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's query layer
export function embeddedChanges(db: Kysely<any>): number | undefined {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof PgliteAdapter ? adapter.changes() : undefined;
}

export class PgliteDialect implements Dialect {
  /** `keepOpen`: destroying the Kysely instance leaves the PGlite instance open (its owner closes it). */
  constructor(
    private readonly pg: PGlite,
    private readonly options: { keepOpen?: boolean } = {},
  ) {}
  #driver: PgliteDriver | null = null;
  createAdapter() {
    return new PgliteAdapter(() => this.#driver?.changes ?? 0);
  }
  createDriver(): Driver {
    this.#driver = new PgliteDriver(this.pg, this.options.keepOpen ?? false);
    return this.#driver;
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
