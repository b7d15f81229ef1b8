/**
 * A consistent copy of the embedded database while the server runs, for `npm run backup`.
 *
 * PGlite runs inside the server process: a second process must not open a data directory the
 * server holds (two PostgreSQL instances on one directory corrupt it), and copying its files from
 * outside may catch a statement half-way through writing them. So the server makes the copy:
 *
 * - While it runs, the server keeps `<dataDir>/portal.pid` (its process id and command line; removed
 *   when it exits). The backup script reads it to know whether a server holds the directory: a
 *   process that no longer exists, or another program that was given the same id, is a stale file.
 * - The script writes a request `<dataDir>/portal.backup-request-<id>.json` naming an empty
 *   directory (`stage`) and a `done` file, then sends SIGUSR2. The server takes the database's one
 *   connection (PgliteDriver hands it out in turn, and a transaction holds it until it ends: no
 *   statement runs and no transaction is half-way while it is held), runs CHECKPOINT, copies the
 *   cluster's files into `stage` and gives the connection back, then writes `done` ({ ok, error }).
 *   Requests and replies are files, so concurrent backups do not mix up.
 *
 * Why a file copy and not PGlite's dumpDataDir(): dumpDataDir reads the whole data directory into
 * memory and tars everything in it, and by default the attachment folder lives inside it
 * (`<dataDir>/attachments`, possibly gigabytes). With every statement held back, the files on disk
 * are exactly what dumpDataDir would have read (PGlite's NODEFS writes straight through to them),
 * and only PostgreSQL's own entries (CLUSTER_ENTRY) are copied. Queries wait for the length of
 * the copy (about a second for the demo database).
 *
 * Nothing here runs on PostgreSQL (`pg_dump` takes its own consistent snapshot) or on `memory://`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';

/** The file a running server keeps in its data directory. */
export const PID_FILE = 'portal.pid';
/** Request files: `portal.backup-request-<id>.json`. */
export const REQUEST_PREFIX = 'portal.backup-request-';

/** What the backup script asks of the server. */
export interface SnapshotRequest {
  /** An empty directory to copy the cluster into. */
  stage: string;
  /** Written when the copy is complete: { ok: true } or { ok: false, error }. */
  done: string;
}

/** The top-level entries of a PostgreSQL data directory; anything else there (attachments, pid and request files) is not the database's. */
const CLUSTER_ENTRY = /^(PG_VERSION|base|global|pg_[a-z_]+|postgresql\.conf|postgresql\.auto\.conf|pg_hba\.conf|pg_ident\.conf)$/;

/** Copies the cluster files of `dataDir` into `stage` (created). The caller makes sure no statement runs meanwhile. */
export function copyCluster(dataDir: string, stage: string): void {
  mkdirSync(stage, { recursive: true });
  for (const name of readdirSync(dataDir)) {
    if (CLUSTER_ENTRY.test(name)) cpSync(join(dataDir, name), join(stage, name), { recursive: true, preserveTimestamps: true });
  }
}

/** This process's command line as /proc shows it (null off Linux). */
function ownCommandLine(): string | null {
  try {
    return readFileSync('/proc/self/cmdline', 'utf8');
  } catch {
    return null;
  }
}

/**
 * The process id of the server holding `dataDir`, or null when none does (no pid file, or a
 * stale one: the process is gone, or the id now belongs to another program).
 */
export function runningServer(dataDir: string): number | null {
  let recorded: { pid?: unknown; cmdline?: unknown };
  try {
    recorded = JSON.parse(readFileSync(join(dataDir, PID_FILE), 'utf8')) as typeof recorded;
  } catch {
    return null;
  }
  const pid = Number(recorded.pid);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return null; // EPERM: alive, another user's
  }
  if (typeof recorded.cmdline === 'string') {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== recorded.cmdline) return null;
    } catch {
      // no /proc (or not readable): trust the signal test
    }
  }
  return pid;
}

/**
 * Serves backup requests while the server runs (main.ts calls it once the server is ready): writes
 * the pid file, answers SIGUSR2. Does nothing on PostgreSQL or an in-memory database.
 */
export function serveLiveBackups(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's query layer
  db: Kysely<any>,
  config: { databaseUrl: string | null; dataDir: string },
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): void {
  if (config.databaseUrl || config.dataDir.startsWith('memory://')) return;
  const { dataDir } = config;
  const pidFile = join(dataDir, PID_FILE);
  let busy = false;
  let again = false;

  const serve = async (): Promise<void> => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        for (const name of readdirSync(dataDir).filter((n) => n.startsWith(REQUEST_PREFIX) && n.endsWith('.json'))) {
          let request: SnapshotRequest;
          try {
            request = JSON.parse(readFileSync(join(dataDir, name), 'utf8')) as SnapshotRequest;
            rmSync(join(dataDir, name), { force: true });
          } catch {
            continue; // half-written by its script, or taken already: the next signal brings it again
          }
          const started = performance.now();
          let reply: { ok: boolean; error?: string };
          try {
            await db.connection().execute(async (connection) => {
              await sql`checkpoint`.execute(connection);
              copyCluster(dataDir, request.stage);
            });
            reply = { ok: true };
            log.info({ stage: request.stage, ms: Math.round(performance.now() - started) }, 'backup: database snapshot written');
          } catch (err) {
            reply = { ok: false, error: (err as Error).message };
            log.error({ err, stage: request.stage }, 'backup: database snapshot failed');
          }
          writeFileSync(`${request.done}.tmp`, JSON.stringify(reply));
          renameSync(`${request.done}.tmp`, request.done);
        }
      } while (again);
    } finally {
      busy = false;
    }
  };

  // The handler first, then the pid file: a pid file always means SIGUSR2 is answered (its default action would end the process).
  process.on('SIGUSR2', () => void serve().catch((err: unknown) => log.error({ err }, 'backup: request failed')));
  writeFileSync(pidFile, JSON.stringify({ pid: process.pid, cmdline: ownCommandLine() }));
  process.on('exit', () => {
    try {
      if (existsSync(pidFile) && (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid?: number }).pid === process.pid) rmSync(pidFile);
    } catch {
      // leaving it is harmless: a stale file is recognised as such
    }
  });
}
