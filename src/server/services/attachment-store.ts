/**
 * Where the bytes of attachments live (PORTAL_ATTACHMENT_STORE), behind one interface; the rules
 * (types and size limit: attachment-types.ts; who sees what and the sys_attachment rows: attachments.ts).
 *
 * - `folder` (default): a directory, PORTAL_ATTACHMENT_DIR or `<PORTAL_DATA_DIR>/attachments` (a
 *   temporary one for `memory://`, removed when the app closes); a file is `<dir>/<id[0..2]>/<id>`,
 *   staged in `<dir>/tmp/` and renamed into place. Several processes must share the directory.
 * - `database`: the bytes in the database itself, table sys_attachment_blob (migration 0019), in
 *   chunks of CHUNK_BYTES written in the transaction that writes the row and streamed back one
 *   chunk at a time (a download holds one chunk in memory, not the file). Several processes share
 *   nothing but the database, and a backup of the database holds the files. Uploads are staged in a
 *   private directory under the system's temporary directory.
 *
 * Either way an upload is first written to the staging directory and checked there; `put` then
 * stores it under its id inside the transaction of its row, so a failure leaves neither a row
 * without bytes nor bytes without a row.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, open, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { ATTACHMENT_ROUTES } from '../../shared/contract';
import { StartupError, type Config } from '../config';
import { AppError } from '../errors';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works over the app database or a transaction
type AnyDb = Kysely<any>;

export interface AttachmentStore {
  readonly kind: 'folder' | 'database';
  /** Largest accepted file in bytes. */
  readonly maxBytes: number;
  /** The configured limit in MB, for the error's data. */
  readonly maxMb: number;
  /** Where an upload is written while it is checked (stageUpload). */
  readonly stagingDir: string;
  /** `stagingDir`, created again when something removed it (a cleaner of old temporary folders). */
  staging(): Promise<string>;
  /** Absolute download path of an attachment id (the API base included). */
  downloadUrl(id: string): string;
  /**
   * Stores the staged file at `stagedPath` under `id`, as part of the transaction `trx` that writes
   * the id's sys_attachment row. When that transaction does not commit, the caller calls `forget`.
   */
  put(trx: AnyDb, id: string, stagedPath: string): Promise<void>;
  /** Removes what `put` left outside the database for an id whose row was not committed. */
  forget(id: string): Promise<void>;
  /** The `size` stored bytes of an attachment as a stream; rejects with ATTACHMENT_NOT_FOUND when there are none. */
  open(id: string, size: number): Promise<Readable>;
  /** Removes the bytes of an attachment whose row has been deleted. */
  remove(id: string): Promise<void>;
  /** Readiness (`/health/ready`): resolves when files can be stored, throws saying why not. */
  check(): Promise<void>;
  /** Releases what the store holds (a temporary directory). */
  close(): Promise<void>;
}

type Limits = Pick<Config, 'attachmentMaxMb' | 'apiBase'>;

function common(config: Limits) {
  return {
    maxMb: config.attachmentMaxMb,
    maxBytes: Math.floor(config.attachmentMaxMb * 1024 * 1024),
    downloadUrl: (id: string) => `${config.apiBase}${ATTACHMENT_ROUTES.download}/${id}`,
  };
}

/** The store a configuration names, ready to use; a folder that cannot be written is a StartupError. */
export async function openAttachmentStore(
  db: AnyDb,
  config: Pick<Config, 'attachmentStore' | 'attachmentDir' | 'attachmentMaxMb' | 'dataDir' | 'apiBase' | 'databaseUrl'>,
): Promise<AttachmentStore> {
  return config.attachmentStore === 'database' ? openDatabaseStore(db, config, { embedded: !config.databaseUrl }) : openFolderStore(config);
}

// ---------------------------------------------------------------------------------------------
// folder

/**
 * Creates `dir` and its missing parents. Not `mkdir(…, { recursive: true })`: Node's loops for ever
 * on a file system that answers ENOENT to every new folder (/proc), which must fail instead.
 */
async function makeDir(dir: string): Promise<void> {
  const code = (err: unknown) => (err as NodeJS.ErrnoException).code;
  try {
    await mkdir(dir);
  } catch (err) {
    if (code(err) === 'EEXIST') return;
    const parent = dirname(dir);
    if (code(err) !== 'ENOENT' || parent === dir) throw err;
    await makeDir(parent);
    await mkdir(dir).catch((again: unknown) => {
      if (code(again) !== 'EEXIST') throw again;
    });
  }
}

/** `dir` itself, created again when it was removed (its parent must be there: never a folder in place of an unmounted share). */
const remakeDir = (dir: string) =>
  mkdir(dir).then(
    () => dir,
    (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
      return dir;
    },
  );

const probeName = () => `probe-${randomBytes(8).toString('hex')}`;

/** Writes and removes a small file in `dir`. */
async function probe(dir: string): Promise<void> {
  const path = join(dir, probeName());
  await writeFile(path, 'ok', { flag: 'wx' });
  await rm(path, { force: true });
}

export async function openFolderStore(
  config: Pick<Config, 'attachmentDir' | 'attachmentMaxMb' | 'dataDir' | 'apiBase'>,
): Promise<AttachmentStore & { dir: string }> {
  const temporary = !config.attachmentDir && config.dataDir.startsWith('memory://');
  const dir = config.attachmentDir ?? (temporary ? await mkdtemp(join(tmpdir(), 'portal-attachments-')) : join(config.dataDir, 'attachments'));
  const stagingDir = join(dir, 'tmp');
  try {
    await makeDir(stagingDir);
    await probe(stagingDir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartupError('PORTAL_ATTACHMENT_DIR', `附件目录不可写（${dir}）：${code}`, `attachment folder cannot be written (${dir}): ${code}`, {
      cause: err,
    });
  }
  const filePath = (id: string) => join(dir, id.slice(0, 2), id);
  return {
    kind: 'folder',
    dir,
    stagingDir,
    staging: () => remakeDir(stagingDir),
    ...common(config),
    async put(_trx, id, stagedPath) {
      await makeDir(join(dir, id.slice(0, 2)));
      await rename(stagedPath, filePath(id));
    },
    forget: (id) => rm(filePath(id), { force: true }),
    async open(id) {
      const stream = createReadStream(filePath(id));
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (err) => reject(err));
      }).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') throw new AppError('ATTACHMENT_NOT_FOUND');
        throw err;
      });
      return stream;
    },
    remove: (id) => rm(filePath(id), { force: true }),
    async check() {
      try {
        await probe(await remakeDir(stagingDir));
      } catch (err) {
        throw new Error(`attachment folder ${dir} cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { cause: err });
      }
    },
    close: async () => {
      if (temporary) await rm(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// database

/** Bytes per row of sys_attachment_blob: a 20 MB file is 40 rows, a download holds one. */
export const CHUNK_BYTES = 512 * 1024;

interface BlobTable {
  id: string;
  seq: number;
  data: Uint8Array;
}
const blobs = (db: AnyDb) => db as Kysely<{ sys_attachment_blob: BlobTable }>;

/**
 * How the bytes cross to the database. PostgreSQL's driver sends a Buffer as a binary parameter
 * and reads bytea as hex, parsed natively. PGlite's own bytea conversion runs byte by byte in
 * JavaScript (a 512 KiB chunk: ~0.9 s to write, ~0.3 s to read); as base64 text, which the database
 * decodes and encodes, the same chunk takes ~0.09 s and ~0.04 s (measured with PGlite 0.4.6).
 */
interface Transfer {
  write(bytes: Buffer): Uint8Array | RawBuilder<Uint8Array>;
  chunkAfter(db: AnyDb, id: string, seq: number): Promise<{ seq: number; data: Buffer } | undefined>;
}

const nextChunk = (db: AnyDb, id: string, seq: number) =>
  blobs(db).selectFrom('sys_attachment_blob').where('id', '=', id).where('seq', '>', seq).orderBy('seq').limit(1);

const BINARY: Transfer = {
  write: (bytes) => bytes,
  async chunkAfter(db, id, seq) {
    const row = await nextChunk(db, id, seq).select(['seq', 'data']).executeTakeFirst();
    return row && { seq: row.seq, data: Buffer.isBuffer(row.data) ? row.data : Buffer.from(row.data.buffer, row.data.byteOffset, row.data.byteLength) };
  },
};

const BASE64: Transfer = {
  write: (bytes) => sql<Uint8Array>`decode(${bytes.toString('base64')}, 'base64')`,
  async chunkAfter(db, id, seq) {
    // encode() breaks lines every 76 characters; Buffer.from skips them.
    const row = await nextChunk(db, id, seq)
      .select(['seq', sql<string>`encode(data, 'base64')`.as('data')])
      .executeTakeFirst();
    return row && { seq: row.seq, data: Buffer.from(row.data, 'base64') };
  },
};

/**
 * The chunks of an attachment, read one query at a time as the consumer asks for more. Ends in an
 * error when they do not add up to the recorded size (the row was deleted during the download).
 */
class ChunkStream extends Readable {
  private seq: number;
  private sent = 0;

  constructor(
    private readonly db: AnyDb,
    private readonly transfer: Transfer,
    private readonly id: string,
    private readonly size: number,
    first: { seq: number; data: Buffer },
  ) {
    // One chunk buffered: the next is read when the response has taken this one.
    super({ highWaterMark: 1 });
    this.seq = first.seq;
    this.sent = first.data.length;
    this.push(first.data);
  }

  override _read(): void {
    this.transfer.chunkAfter(this.db, this.id, this.seq).then(
      (chunk) => {
        if (this.destroyed) return;
        if (!chunk) {
          if (this.sent !== this.size) this.destroy(new Error(`attachment ${this.id}: ${this.sent} of ${this.size} bytes stored`));
          else this.push(null);
          return;
        }
        this.seq = chunk.seq;
        this.sent += chunk.data.length;
        if (this.sent > this.size) this.destroy(new Error(`attachment ${this.id}: more than its ${this.size} bytes stored`));
        else this.push(chunk.data);
      },
      (err: unknown) => this.destroy(err as Error),
    );
  }
}

/** `embedded`: the database is PGlite (see Transfer). */
export async function openDatabaseStore(db: AnyDb, config: Limits, { embedded }: { embedded: boolean }): Promise<AttachmentStore> {
  const transfer = embedded ? BASE64 : BINARY;
  let stagingDir: string;
  try {
    stagingDir = await mkdtemp(join(tmpdir(), 'portal-staging-'));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new StartupError(
      'TMPDIR',
      `临时目录不可写（${tmpdir()}），上传文件无处暂存：${code}`,
      `temporary folder ${tmpdir()} cannot be written, uploads cannot be staged: ${code}`,
      { cause: err },
    );
  }
  return {
    kind: 'database',
    stagingDir,
    staging: () => remakeDir(stagingDir),
    ...common(config),
    async put(trx, id, stagedPath) {
      const file = await open(stagedPath, 'r');
      try {
        for (let seq = 0; ; seq++) {
          const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
          const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, seq * CHUNK_BYTES);
          if (bytesRead === 0) break;
          await blobs(trx)
            .insertInto('sys_attachment_blob')
            .values({ id, seq, data: transfer.write(buffer.subarray(0, bytesRead)) })
            .execute();
          if (bytesRead < CHUNK_BYTES) break;
        }
      } finally {
        await file.close();
      }
    },
    // The chunks were written in the row's transaction: they went with it.
    forget: async () => undefined,
    async open(id, size) {
      const first = await transfer.chunkAfter(db, id, -1);
      if (!first) throw new AppError('ATTACHMENT_NOT_FOUND');
      return new ChunkStream(db, transfer, id, size, first);
    },
    // Deleting the row deleted its chunks with it (ON DELETE CASCADE).
    remove: async () => undefined,
    async check() {
      await blobs(db).selectFrom('sys_attachment_blob').select('seq').limit(1).execute();
      await probe(await remakeDir(stagingDir));
    },
    close: () => rm(stagingDir, { recursive: true, force: true }),
  };
}
