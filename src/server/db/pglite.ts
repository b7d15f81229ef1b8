/**
 * The embedded database: PGlite (PostgreSQL compiled to WebAssembly) behind a Kysely driver. Here:
 * opening it, its one connection handed out in turn, and the dialect; the template a new cluster
 * starts from is pglite-template.ts, the reads as prepared statements pglite-reads.ts.
 *
 * Closing a PGlite 0.4 instance while it is still initialising makes it throw WebAssembly exits in
 * a loop that never yields the event loop (the process then hangs for good). The driver's
 * `destroy()` therefore waits until the instance is ready and every queued query is done.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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
import { READ_ONLY } from './pg-prepared';
import { PreparedReads } from './pglite-reads';
import { databaseTemplate, databaseTemplateFile, EXTENSIONS, extractTemplate, type Progress, type TemplateRecipe } from './pglite-template';

const isMemory = (dataDir: string): boolean => dataDir.startsWith('memory://');
/** A data directory that already holds a cluster (PGlite keeps PG_VERSION at its root). */
const hasCluster = (dataDir: string): boolean => !isMemory(dataDir) && existsSync(join(dataDir, 'PG_VERSION'));

/**
 * Opens PGlite on `dataDir` (a directory, created when missing, or `memory://`) and resolves when
 * it answers. A new cluster starts from the template of `recipe` when one can be had, else it is
 * initialised and prepared here.
 */
export async function openPglite(dataDir: string, recipe: TemplateRecipe, options: { progress?: Progress; cacheDir?: string | null } = {}): Promise<PGlite> {
  const { progress } = options;
  const templateOptions = { progress, cacheDir: options.cacheDir ?? undefined };
  if (!isMemory(dataDir)) mkdirSync(dataDir, { recursive: true });
  let template: Blob | null = null;
  if (!hasCluster(dataDir)) {
    if (isMemory(dataDir)) template = await databaseTemplate(recipe, templateOptions);
    else {
      // On disk the template's files are written straight into the directory (extractTemplate).
      const file = await databaseTemplateFile(recipe, templateOptions);
      if (file) {
        progress?.('创建数据库（复用模板）…');
        await extractTemplate(file, dataDir).catch(async (err: Error) => {
          progress?.(`数据库模板解包失败（${err.message}），改由 PGlite 载入`);
          template = await databaseTemplate(recipe, templateOptions);
        });
      }
    }
    if (!hasCluster(dataDir)) progress?.(template ? '创建数据库（复用模板）…' : '初始化内置数据库（initdb，约 10 秒）…');
  }
  const pg = new PGlite(dataDir, { extensions: EXTENSIONS, postgresqlconf: PGLITE_CONF, ...(template ? { loadDataDir: template } : {}) });
  await pg.waitReady;
  return pg;
}

/**
 * PostgreSQL's buffer cache inside PGlite's WebAssembly memory: 8 MB instead of the default 128 MB.
 * PostgreSQL zeroes its shared memory when it starts, so all of it is resident from the first
 * second. 128 → 32 MB took an idle server from ~420 to ~320 MB RSS; 32 → 8 MB takes the
 * WebAssembly memory's resident part from 47 to 21 MB (/proc/<pid>/smaps; 16 MB: 31 MB). The files
 * below it stay in the operating system's page cache, so a miss costs a read call, not a disk
 * seek: 100 connections on the demo list served the same with 8 MB as with 16 MB (636–660 req/s),
 * and the 200,000-row export took 12.9 s against 11.9 s with 32 MB on a quieter machine.
 * PostgreSQL serves the large data sets.
 */
const PGLITE_CONF = ['shared_buffers=8MB'];

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
    return result.affectedRows !== undefined && result.affectedRows > 0
      ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) }
      : { rows: result.rows };
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
