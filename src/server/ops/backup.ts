/**
 * Backup and restore for operators: `npm run backup`, `npm run restore` (scripts/backup.ts,
 * scripts/restore.ts only call into ./cli.ts). The configuration is the server's (loadConfig: the
 * same environment), so a backup is taken of exactly what the server uses.
 *
 * One archive, `.tar.gz`:
 *   manifest.json            first entry: format, product version, database kind, applied
 *                            migrations, rows per table, attachment count (see Manifest)
 *   database/postgres.dump   PostgreSQL: `pg_dump -Fc` of DATABASE_URL, taken in the same
 *                            repeatable-read snapshot the row counts were read in
 *   database/pgdata/…        PGlite: the cluster files, a consistent copy (live-backup.ts)
 *   attachments/…            the files of the attachment folder (PORTAL_ATTACHMENT_DIR, default
 *                            `<PORTAL_DATA_DIR>/attachments`); the `database` attachment store keeps
 *                            its bytes in sys_attachment_blob, which travels with the database
 *
 * The folder is copied after the database snapshot: a file uploaded meanwhile is in the archive
 * without its row (harmless), one deleted meanwhile may be missing.
 *
 * Restore checks everything it can before it changes anything — the archive is ours and of this
 * configuration's database kind, not from a newer release, the target is empty (or --force), no
 * server holds the embedded data directory, the database answers, pg_restore is recent enough —
 * and unpacks the whole archive into a staging directory first, so a bad or truncated archive
 * leaves the target as it was. Then it moves the files into place (or runs pg_restore in one
 * transaction), opens the restored database and compares its row counts with the manifest's.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createWriteStream,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { sql } from 'kysely';
import type pg from 'pg';
import type { Config } from '../config';
import { createDatabase, postgresPool } from '../db/index';
import { migrations as knownMigrations } from '../db/migrations/index';
import { projectPath } from '../paths';
import { startupError } from '../startup-errors';
import { copyCluster, REQUEST_PREFIX, runningServer, type SnapshotRequest } from './live-backup';
import { NotAnArchiveError, readTarGz } from './tar';

export const BACKUP_FORMAT = 'special-equipment-portal-backup';
export const BACKUP_FORMAT_VERSION = 1;

export type DatabaseKind = 'postgres' | 'pglite';

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** package.json version of the code that wrote the backup. */
  productVersion: string;
  createdAt: string;
  database: {
    kind: DatabaseKind;
    /** PostgreSQL: the server's version; PGlite: the package's version. */
    version: string;
    /** PostgreSQL: the pg_dump that wrote the dump (pg_restore must be at least as new). */
    dumpVersion?: string;
  };
  /** Migrations applied to the database, by name. */
  migrations: string[];
  /** Rows per table (`schema.table` outside public). */
  tables: Record<string, number>;
  attachments: { store: Config['attachmentStore']; count: number; bytes: number };
}

/** A refusal or failure an operator can act on: one line, the exit status (2: bad input, 1: the environment). */
export class OpsError extends Error {
  constructor(
    readonly exitCode: 1 | 2,
    readonly zh: string,
    readonly en: string,
  ) {
    super(en);
    this.name = 'OpsError';
  }
}

export type Progress = (message: string) => void;

const kindOf = (config: Pick<Config, 'databaseUrl'>): DatabaseKind => (config.databaseUrl ? 'postgres' : 'pglite');
const kindName = (kind: DatabaseKind): string => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite（内置）');

/** A database error as the line naming DATABASE_URL (startup-errors.ts), else unchanged. */
function databaseError(err: unknown, config: Config): unknown {
  const known = startupError(err, config);
  return known ? new OpsError(1, `${known.setting} ${known.zh}`, `${known.setting} ${known.en}`) : err;
}

export function productVersion(): string {
  return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
}

/** The attachment folder of a configuration (null: an in-memory database's throw-away folder). */
export function attachmentFolder(config: Pick<Config, 'attachmentDir' | 'dataDir'>): string | null {
  if (config.attachmentDir) return config.attachmentDir;
  return config.dataDir.startsWith('memory://') ? null : join(config.dataDir, 'attachments');
}

/** Files under the attachment folder (relative paths), without the upload staging area tmp/. */
function attachmentFiles(dir: string | null): { path: string; size: number }[] {
  if (!dir || !existsSync(dir)) return [];
  const files: { path: string; size: number }[] = [];
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (!rel && name === 'tmp') continue;
      const stat = statSync(join(dir, path));
      if (stat.isDirectory()) walk(path);
      else if (stat.isFile()) files.push({ path, size: stat.size });
    }
  };
  walk('');
  return files.sort((a, b) => a.path.localeCompare(b.path));
}

type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** Applied migrations and rows per table of a database. */
async function describeDatabase(query: Query): Promise<{ migrations: string[]; tables: Record<string, number> }> {
  const tableRows = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
     where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`,
  );
  const tables: Record<string, number> = {};
  for (const row of tableRows) {
    const schema = String(row.schema);
    const name = String(row.name);
    const quoted = `"${schema.replace(/"/g, '""')}"."${name.replace(/"/g, '""')}"`;
    const [count] = await query(`select count(*)::text as n from ${quoted}`);
    tables[schema === 'public' ? name : `${schema}.${name}`] = Number(count.n);
  }
  const migrations = 'kysely_migration' in tables ? (await query('select name from kysely_migration order by name')).map((r) => String(r.name)) : [];
  return { migrations, tables };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL tools

interface Tool {
  path: string;
  major: number;
  version: string;
}

function toolVersion(path: string): Tool | null {
  const result = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const match = /\(PostgreSQL\)\s+((\d+)(\.\d+)*)/.exec(result.stdout ?? '');
  return result.status === 0 && match ? { path, major: Number(match[2]), version: match[1] } : null;
}

/**
 * `name` (pg_dump, pg_restore) of major version `atLeast` or newer: the one on PATH, else one of
 * the versioned installations Debian (/usr/lib/postgresql/N/bin) and the PGDG packages
 * (/usr/pgsql-N/bin) keep.
 */
export function findTool(name: 'pg_dump' | 'pg_restore', atLeast: number): Tool {
  const candidates: string[] = [name];
  const versioned = (root: string, pattern: RegExp, bin: (dir: string) => string) => {
    if (!existsSync(root)) return;
    const dirs = readdirSync(root)
      .map((d) => ({ d, n: Number(pattern.exec(d)?.[1]) }))
      .filter(({ n }) => Number.isInteger(n) && n > 0)
      .sort((a, b) => b.n - a.n);
    for (const { d } of dirs) candidates.push(bin(d));
  };
  versioned('/usr/lib/postgresql', /^(\d+)$/, (d) => join('/usr/lib/postgresql', d, 'bin', name));
  versioned('/usr', /^pgsql-(\d+)$/, (d) => join('/usr', d, 'bin', name));
  const found = candidates.map(toolVersion).filter((t): t is Tool => t !== null);
  const fit = found.find((t) => t.major >= atLeast);
  if (fit) return fit;
  const hint = `postgresql-client-${atLeast}`;
  if (found.length === 0) {
    throw new OpsError(
      1,
      `找不到 ${name}：请安装 PostgreSQL 客户端（Debian/Ubuntu：apt-get install ${hint}）`,
      `${name} not found: install the PostgreSQL client tools (Debian/Ubuntu: apt-get install ${hint})`,
    );
  }
  const best = found.reduce((a, b) => (b.major > a.major ? b : a));
  throw new OpsError(
    1,
    `${name} 版本 ${best.version}（${best.path}）低于所需的 ${atLeast}：请安装 ${hint} 或更新版本`,
    `${name} ${best.version} (${best.path}) is older than the required major version ${atLeast}: install ${hint} or newer`,
  );
}

/** libpq's environment for the configured TLS settings and the password (kept off the command line, which `ps` shows). */
function toolEnv(config: Config): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (config.pgSslMode) env.PGSSLMODE = config.pgSslMode;
  if (config.pgCaFile) env.PGSSLROOTCERT = config.pgCaFile;
  const password = config.databaseUrl ? new URL(config.databaseUrl).password : '';
  if (password) env.PGPASSWORD = decodeURIComponent(password);
  return env;
}

/** DATABASE_URL without its password, for a tool's --dbname. */
function toolDbname(config: Config): string {
  const url = new URL(config.databaseUrl!);
  url.password = '';
  return url.toString();
}

/** Runs a tool; rejects with its last lines of stderr. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(tool, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + String(chunk)).slice(-4000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${basename(tool)} failed (${signal ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

async function withPostgres<T>(config: Config, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const pool = await postgresPool(config.databaseUrl!, {
    poolMax: 1,
    connectTimeoutMs: config.pgConnectTimeoutMs,
    statementTimeoutMs: 0,
    sslMode: config.pgSslMode,
    caFile: config.pgCaFile,
  });
  try {
    let client: pg.PoolClient;
    try {
      client = await pool.connect();
      await client.query('select 1');
    } catch (err) {
      throw databaseError(err, config);
    }
    try {
      return await work(client);
    } finally {
      client.release();
    }
  } finally {
    await pool.end();
  }
}

const serverMajor = async (client: pg.PoolClient): Promise<number> =>
  Math.floor(Number((await client.query<{ v: string }>(`select current_setting('server_version_num') as v`)).rows[0].v) / 10000);

const queryOf =
  (client: pg.PoolClient): Query =>
  async (text) =>
    (await client.query(text)).rows as Record<string, unknown>[];

// ---------------------------------------------------------------------------------------------
// backup

export interface BackupResult {
  path: string;
  size: number;
  manifest: Manifest;
}

/** The database part of a backup, written into `work`; returns the manifest's database fields. */
async function backupPostgres(config: Config, work: string, progress: Progress): Promise<Pick<Manifest, 'database' | 'migrations' | 'tables'>> {
  return withPostgres(config, async (client) => {
    const major = await serverMajor(client);
    const version = String((await client.query<{ server_version: string }>('show server_version')).rows[0].server_version).split(' ')[0];
    const tool = findTool('pg_dump', major);
    // The counts and pg_dump see the same snapshot.
    await client.query('begin isolation level repeatable read read only');
    try {
      const snapshot = String((await client.query<{ s: string }>('select pg_export_snapshot() as s')).rows[0].s);
      const described = await describeDatabase(queryOf(client));
      progress(`pg_dump ${tool.version} → 数据库转储 / dumping the database…`);
      await run(
        tool.path,
        ['--format=custom', `--snapshot=${snapshot}`, `--file=${join(work, 'postgres.dump')}`, `--dbname=${toolDbname(config)}`],
        toolEnv(config),
      ).catch((err: unknown) => {
        throw new OpsError(1, `pg_dump 失败：${(err as Error).message}`, `pg_dump failed: ${(err as Error).message}`);
      });
      return { database: { kind: 'postgres', version, dumpVersion: tool.version }, ...described };
    } finally {
      await client.query('commit').catch(() => undefined);
    }
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Asks the server holding `dataDir` for a copy of its cluster in `stage` (live-backup.ts) and waits for it. */
async function snapshotFromServer(pid: number, dataDir: string, stage: string, progress: Progress): Promise<void> {
  const id = randomBytes(6).toString('hex');
  const request: SnapshotRequest = { stage, done: `${stage}.done` };
  const file = join(dataDir, `${REQUEST_PREFIX}${id}.json`);
  rmSync(request.done, { force: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(request));
  renameSync(tmp, file);
  progress(`服务器正在运行（pid ${pid}）：请它写出一致的数据库快照 / asking the running server (pid ${pid}) for a consistent snapshot…`);
  try {
    process.kill(pid, 'SIGUSR2');
    // No time limit: a large database takes as long as its copy takes; a server that stops meanwhile ends the wait.
    while (!existsSync(request.done)) {
      if (!processAlive(pid))
        throw new OpsError(1, `服务器（pid ${pid}）在写快照时停止了：请重试`, `the server (pid ${pid}) stopped while writing the snapshot: try again`);
      await sleep(100);
    }
  } finally {
    rmSync(file, { force: true });
  }
  const reply = JSON.parse(readFileSync(request.done, 'utf8')) as { ok: boolean; error?: string };
  rmSync(request.done, { force: true });
  if (!reply.ok) throw new OpsError(1, `服务器写快照失败：${reply.error}`, `the server failed to write the snapshot: ${reply.error}`);
}

async function backupPglite(config: Config, work: string, progress: Progress): Promise<Pick<Manifest, 'database' | 'migrations' | 'tables'>> {
  const { dataDir } = config;
  if (dataDir.startsWith('memory://')) {
    throw new OpsError(
      2,
      'PORTAL_DATA_DIR=memory:// 是内存数据库，没有可备份的数据',
      'PORTAL_DATA_DIR=memory:// is an in-memory database: there is nothing to back up',
    );
  }
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    throw new OpsError(2, `PORTAL_DATA_DIR 中没有数据库（${dataDir}）`, `PORTAL_DATA_DIR holds no database (${dataDir})`);
  }
  const stage = join(work, 'pgdata');
  const pid = runningServer(dataDir);
  if (pid !== null) await snapshotFromServer(pid, dataDir, stage, progress);
  else {
    progress(`服务器未运行：复制数据目录 / no server running: copying ${dataDir}…`);
    copyCluster(dataDir, stage);
    if (runningServer(dataDir) !== null) throw new OpsError(1, '复制期间服务器启动了：请重试', 'a server started during the copy: try again');
  }
  // The copy is this process's own: open it (recovering it if the server was killed before), count, checkpoint.
  const db = await createDatabase({ databaseUrl: null, dataDir: stage });
  try {
    const described = await describeDatabase(async (text) => (await sql.raw(text).execute(db)).rows as Record<string, unknown>[]);
    await sql`checkpoint`.execute(db);
    return { database: { kind: 'pglite', version: pgliteVersion() }, ...described };
  } finally {
    await db.destroy();
  }
}

function pgliteVersion(): string {
  try {
    return (JSON.parse(readFileSync(projectPath('node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

const stamp = (d: Date): string => d.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);

/** Writes a backup archive of the configured database and attachment folder. */
export async function backup(config: Config, options: { out?: string; progress?: Progress } = {}): Promise<BackupResult> {
  const progress = options.progress ?? (() => undefined);
  const createdAt = new Date();
  const out = resolve(options.out ?? join('backups', `portal-backup-${stamp(createdAt)}.tar.gz`));
  if (existsSync(out)) throw new OpsError(2, `文件已存在，不会覆盖：${out}`, `the file exists and is not overwritten: ${out}`);
  // A folder made here is removed again when the backup fails: a refusal changes nothing.
  const madeFolder = mkdirSync(dirname(out), { recursive: true });
  const work = mkdtempSync(join(dirname(out), '.portal-backup-'));
  let written = false;
  try {
    const database = config.databaseUrl ? await backupPostgres(config, work, progress) : await backupPglite(config, work, progress);
    const folder = attachmentFolder(config);
    const files = attachmentFiles(folder);
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      productVersion: productVersion(),
      createdAt: createdAt.toISOString(),
      ...database,
      attachments: { store: config.attachmentStore, count: files.length, bytes: files.reduce((n, f) => n + f.size, 0) },
    };
    progress(`写入备份文件 / writing the archive (${files.length} 个附件 / attachments)…`);
    const partial = `${out}.partial`;
    const { default: archiver } = await import('archiver');
    await new Promise<void>((resolvePromise, reject) => {
      const output = createWriteStream(partial);
      const archive = archiver('tar', { gzip: true, gzipOptions: { level: 6 } });
      output.once('close', () => resolvePromise());
      output.once('error', reject);
      archive.once('error', reject);
      archive.on('warning', reject);
      archive.pipe(output);
      archive.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: 'manifest.json', date: createdAt });
      if (manifest.database.kind === 'postgres') archive.file(join(work, 'postgres.dump'), { name: 'database/postgres.dump', date: createdAt });
      else archive.directory(join(work, 'pgdata'), 'database/pgdata');
      for (const f of files) archive.file(join(folder!, f.path), { name: `attachments/${f.path}` });
      void archive.finalize();
    });
    renameSync(partial, out);
    written = true;
    return { path: out, size: statSync(out).size, manifest };
  } finally {
    rmSync(work, { recursive: true, force: true });
    if (!written) {
      rmSync(`${out}.partial`, { force: true });
      if (madeFolder) rmSync(madeFolder, { recursive: true, force: true });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// restore

/** The manifest of an archive; OpsError(2) when the file is missing or not a backup of this product. */
export async function readManifest(file: string): Promise<Manifest> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new OpsError(2, `找不到备份文件：${file}`, `backup file not found: ${file}`);
  const notOurs = (why: string) => new OpsError(2, `不是本系统的备份文件（${why}）：${file}`, `not a backup of this portal (${why}): ${file}`);
  let data: Buffer | null = null;
  let first: string | null = null;
  try {
    await readTarGz(file, (entry, stop) => {
      first ??= entry.name;
      stop();
      return entry.name === 'manifest.json' && entry.type === 'file' && entry.size < 10 * 1024 * 1024 ? { keep: (d) => (data = d) } : null;
    });
  } catch (err) {
    if (err instanceof NotAnArchiveError) throw notOurs(err.message);
    throw err;
  }
  if (!data) throw notOurs(first ? `first entry is ${String(first)}, not manifest.json` : 'empty archive');
  let manifest: Manifest;
  try {
    manifest = JSON.parse((data as Buffer).toString('utf8')) as Manifest;
  } catch {
    throw notOurs('manifest.json is not JSON');
  }
  if (manifest?.format !== BACKUP_FORMAT) throw notOurs('unknown format');
  if (!(manifest.formatVersion <= BACKUP_FORMAT_VERSION)) {
    throw new OpsError(
      2,
      `备份格式版本 ${manifest.formatVersion} 比本程序新（产品版本 ${manifest.productVersion}）：请用更新的版本恢复`,
      `backup format ${manifest.formatVersion} is newer than this program understands (product ${manifest.productVersion}): restore with a newer release`,
    );
  }
  if (manifest.database?.kind !== 'postgres' && manifest.database?.kind !== 'pglite') throw notOurs('unknown database kind');
  return manifest;
}

export interface RestoreResult {
  manifest: Manifest;
  /** Rows per table of the restored database. */
  tables: Record<string, number>;
  attachments: number;
  /** What --force set aside or dropped, for the operator. */
  replaced: string[];
}

/** Entries of a directory that count as content (an attachment folder's empty tmp/ does not). */
function hasContent(dir: string | null): boolean {
  return dir !== null && attachmentFiles(dir).length > 0;
}

/** The PGlite data directory holds something other than an (empty) attachment folder. */
function dataDirInUse(dataDir: string, folder: string | null): boolean {
  if (!existsSync(dataDir)) return false;
  return readdirSync(dataDir).some((name) => {
    const path = join(dataDir, name);
    if (folder && resolve(path) === resolve(folder)) return hasContent(folder);
    return true;
  });
}

/** Moves `src` into `dest`, merging directories; across file systems by copy and delete. */
function moveTree(src: string, dest: string): void {
  if (!existsSync(dest)) {
    mkdirSync(dirname(dest), { recursive: true });
    try {
      renameSync(src, dest);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      cpSync(src, dest, { recursive: true, preserveTimestamps: true });
      rmSync(src, { recursive: true, force: true });
      return;
    }
  }
  if (statSync(src).isDirectory() && statSync(dest).isDirectory()) {
    for (const name of readdirSync(src)) moveTree(join(src, name), join(dest, name));
    rmdirSync(src);
    return;
  }
  rmSync(dest, { recursive: true, force: true });
  moveTree(src, dest);
}

/** Sets `path` aside as `<path>.replaced-<time>`; returns the new name. */
function setAside(path: string, when: Date): string {
  let aside = `${path}.replaced-${stamp(when)}`;
  for (let i = 2; existsSync(aside); i++) aside = `${path}.replaced-${stamp(when)}-${i}`;
  renameSync(path, aside);
  return aside;
}

/** Unpacks the whole archive into `stage` (database/…, attachments/…); a bad archive throws OpsError(2). */
async function unpack(file: string, stage: string, manifest: Manifest): Promise<void> {
  let attachments = 0;
  let database = false;
  try {
    await readTarGz(file, (entry) => {
      if (entry.name === 'manifest.json') return null;
      const top = entry.name.split('/')[0];
      if (top !== 'database' && top !== 'attachments') return null;
      const target = join(stage, entry.name);
      if (entry.type === 'directory') {
        mkdirSync(target, { recursive: true });
        return null;
      }
      mkdirSync(dirname(target), { recursive: true });
      if (top === 'attachments') attachments++;
      else database = true;
      return { writeTo: target };
    });
  } catch (err) {
    if (err instanceof NotAnArchiveError)
      throw new OpsError(2, `备份文件已损坏（${err.message}）：${file}`, `the backup file is damaged (${err.message}): ${file}`);
    throw err;
  }
  const expected =
    manifest.database.kind === 'postgres' ? existsSync(join(stage, 'database', 'postgres.dump')) : existsSync(join(stage, 'database', 'pgdata', 'PG_VERSION'));
  if (!database || !expected || attachments !== manifest.attachments.count) {
    throw new OpsError(2, `备份文件不完整（数据库或附件缺失）：${file}`, `the backup file is incomplete (database or attachments missing): ${file}`);
  }
}

/** Restores `file` into the configured database and attachment folder. */
export async function restore(config: Config, file: string, options: { force?: boolean; progress?: Progress } = {}): Promise<RestoreResult> {
  const progress = options.progress ?? (() => undefined);
  const force = options.force ?? false;
  const path = resolve(file);
  const manifest = await readManifest(path);
  const kind = kindOf(config);
  if (manifest.database.kind !== kind) {
    throw new OpsError(
      2,
      `备份是 ${kindName(manifest.database.kind)} 数据库的，当前配置为 ${kindName(kind)}（${kind === 'postgres' ? '已设' : '未设'} DATABASE_URL）：恢复到同类数据库`,
      `the backup is of a ${manifest.database.kind} database but this configuration uses ${kind} (DATABASE_URL ${kind === 'postgres' ? 'set' : 'unset'}): restore into the same kind`,
    );
  }
  const unknown = manifest.migrations.filter((m) => !(m in knownMigrations));
  if (unknown.length > 0) {
    throw new OpsError(
      2,
      `备份来自更新的版本 ${manifest.productVersion}（未知迁移 ${unknown.join(', ')}）：请先升级本程序`,
      `the backup comes from a newer release ${manifest.productVersion} (unknown migrations ${unknown.join(', ')}): upgrade this program first`,
    );
  }
  const folder = attachmentFolder(config);
  if (manifest.attachments.count > 0 && !folder) {
    throw new OpsError(
      2,
      `备份中有 ${manifest.attachments.count} 个附件文件，但 PORTAL_DATA_DIR=memory:// 且未设 PORTAL_ATTACHMENT_DIR：请设置附件目录`,
      `the backup holds ${manifest.attachments.count} attachment files but there is no attachment folder (PORTAL_DATA_DIR=memory://, PORTAL_ATTACHMENT_DIR unset): set PORTAL_ATTACHMENT_DIR`,
    );
  }
  if (manifest.attachments.count > 0 && config.attachmentStore === 'database') {
    progress(
      `注意：附件文件恢复到 ${folder}，而当前 PORTAL_ATTACHMENT_STORE=database 不读该目录 / note: the attachment files go to ${folder}, which PORTAL_ATTACHMENT_STORE=database does not read`,
    );
  }
  const when = new Date();
  const replaced: string[] = [];

  if (kind === 'pglite') {
    const { dataDir } = config;
    if (dataDir.startsWith('memory://'))
      throw new OpsError(
        2,
        'PORTAL_DATA_DIR=memory:// 是内存数据库，不能恢复到其中',
        'PORTAL_DATA_DIR=memory:// is an in-memory database: nothing can be restored into it',
      );
    const pid = runningServer(dataDir);
    if (pid !== null)
      throw new OpsError(
        1,
        `服务器（pid ${pid}）正在使用 PORTAL_DATA_DIR ${dataDir}：请先停止服务器`,
        `a server (pid ${pid}) is running on PORTAL_DATA_DIR ${dataDir}: stop it first`,
      );
    const folderOutside = folder !== null && relative(dataDir, folder).startsWith('..');
    const busy = dataDirInUse(dataDir, folder) || (folderOutside && hasContent(folder));
    if (busy && !force) {
      throw new OpsError(
        1,
        `目标不是空的（PORTAL_DATA_DIR ${dataDir}${folderOutside ? ` 或附件目录 ${folder}` : ''}）：确认要替换时加 --force（原有内容移到 *.replaced-<时间>）`,
        `the target is not empty (PORTAL_DATA_DIR ${dataDir}${folderOutside ? ` or the attachment folder ${folder}` : ''}): add --force to replace it (the old content is moved to *.replaced-<time>)`,
      );
    }
    mkdirSync(dirname(dataDir), { recursive: true });
    const stage = mkdtempSync(`${dataDir}.restore-`);
    try {
      progress('解包备份 / unpacking the archive…');
      await unpack(path, stage, manifest);
      // From here the target changes.
      if (busy) {
        if (existsSync(dataDir) && dataDirInUse(dataDir, folder)) replaced.push(setAside(dataDir, when));
        if (folderOutside && hasContent(folder)) replaced.push(setAside(folder, when));
      }
      mkdirSync(dataDir, { recursive: true });
      moveTree(join(stage, 'database', 'pgdata'), dataDir);
      if (folder && existsSync(join(stage, 'attachments'))) moveTree(join(stage, 'attachments'), folder);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
    progress('核对恢复的数据库 / checking the restored database…');
    const db = await createDatabase({ databaseUrl: null, dataDir });
    try {
      const { tables } = await describeDatabase(async (text) => (await sql.raw(text).execute(db)).rows as Record<string, unknown>[]);
      return finish(manifest, tables, folder, replaced);
    } finally {
      await db.destroy();
    }
  }

  // PostgreSQL
  return withPostgres(config, async (client) => {
    const major = await serverMajor(client);
    const dumpMajor = Number(/^(\d+)/.exec(manifest.database.dumpVersion ?? '')?.[1] ?? 0);
    const tool = findTool('pg_restore', Math.max(major, dumpMajor));
    const objects = Number(
      (
        await client.query<{ n: number }>(
          `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname not like 'pg\\_%' and n.nspname <> 'information_schema' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`,
        )
      ).rows[0].n,
    );
    const folderBusy = hasContent(folder);
    if ((objects > 0 || folderBusy) && !force) {
      throw new OpsError(
        1,
        `目标不是空的（${objects > 0 ? `DATABASE_URL 的数据库中有 ${objects} 个表等对象` : ''}${objects > 0 && folderBusy ? '，' : ''}${folderBusy ? `附件目录 ${folder} 中有文件` : ''}）：确认要替换时加 --force（删除数据库中全部 schema 对象后重建；附件目录移到 *.replaced-<时间>）`,
        `the target is not empty (${[objects > 0 ? `${objects} tables and other objects in the DATABASE_URL database` : '', folderBusy ? `files in the attachment folder ${folder}` : ''].filter(Boolean).join(', ')}): add --force to replace it (drops every schema object of the database and recreates them; the attachment folder is moved to *.replaced-<time>)`,
      );
    }
    const stage = mkdtempSync(join(dirname(path), '.portal-restore-'));
    try {
      progress('解包备份 / unpacking the archive…');
      await unpack(path, stage, manifest);
      const dump = join(stage, 'database', 'postgres.dump');
      await run(tool.path, ['--list', dump], toolEnv(config)).catch((err: unknown) => {
        throw new OpsError(2, `数据库转储无法读取：${(err as Error).message}`, `the database dump cannot be read: ${(err as Error).message}`);
      });
      // From here the target changes.
      if (objects > 0) {
        const schemas = (
          await client.query<{ name: string }>(`select nspname as name from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'`)
        ).rows.map((r) => r.name);
        progress(`--force：删除数据库中的全部对象（DROP SCHEMA ${schemas.join(', ')} CASCADE）/ dropping every object of the database…`);
        await client.query('begin');
        for (const schema of schemas) await client.query(`drop schema "${schema.replace(/"/g, '""')}" cascade`);
        await client.query('create schema public');
        await client.query('commit');
        replaced.push(`DATABASE_URL: schema ${schemas.join(', ')} dropped`);
      }
      if (folderBusy) replaced.push(setAside(folder!, when));
      progress(`pg_restore ${tool.version} → 恢复数据库（一个事务）/ restoring the database (one transaction)…`);
      await run(
        tool.path,
        ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${toolDbname(config)}`, dump],
        toolEnv(config),
      ).catch((err: unknown) => {
        throw new OpsError(1, `pg_restore 失败：${(err as Error).message}`, `pg_restore failed: ${(err as Error).message}`);
      });
      if (folder && existsSync(join(stage, 'attachments'))) moveTree(join(stage, 'attachments'), folder);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
    progress('核对恢复的数据库 / checking the restored database…');
    const { tables } = await describeDatabase(queryOf(client));
    return finish(manifest, tables, folder, replaced);
  });
}

/** The result, after checking the restored rows against the manifest. */
function finish(manifest: Manifest, tables: Record<string, number>, folder: string | null, replaced: string[]): RestoreResult {
  const differing = Object.entries(manifest.tables).filter(([name, n]) => tables[name] !== n);
  if (differing.length > 0) {
    const list = differing.map(([name, n]) => `${name} ${tables[name] ?? '-'}≠${n}`).join(', ');
    throw new OpsError(1, `恢复后的行数与备份不符：${list}`, `row counts after the restore differ from the backup: ${list}`);
  }
  return { manifest, tables, attachments: attachmentFiles(folder).length, replaced };
}
