/**
 * A small streaming reader of the .tar.gz archives `npm run backup` writes (archiver, that is
 * tar-stream: ustar headers, a pax `x` record before a name too long for the header, GNU `L`
 * records from other tools). Only what a backup holds is understood: regular files and
 * directories; other entries are skipped. Nothing is buffered but the current header, so an
 * archive of any size is read with little memory.
 *
 * Every header's checksum is verified and the archive must end with its end-of-archive blocks:
 * a file that is not a gzipped tar, or one cut short, throws NotAnArchiveError.
 */
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { createGunzip } from 'node:zlib';

export interface TarEntry {
  /** The path inside the archive, without a leading `./` or a trailing `/`. */
  name: string;
  size: number;
  type: 'file' | 'directory' | 'other';
}

/** What to do with an entry's bytes: keep them (small entries), write them to a new file, or skip them. */
export type EntryAction = { keep: (data: Buffer) => void } | { writeTo: string } | null;

export class NotAnArchiveError extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'NotAnArchiveError';
  }
}

const BLOCK = 512;

const text = (block: Buffer, start: number, length: number): string => {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
};

function numeric(block: Buffer, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (field[0] & 0x80) {
    // base-256 (GNU) for values that do not fit in octal
    let n = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i];
    return n;
  }
  const digits = text(block, start, length).trim();
  if (!/^[0-7]*$/.test(digits)) throw new NotAnArchiveError('bad number in a tar header');
  return digits ? parseInt(digits, 8) : 0;
}

function checksumOk(block: Buffer): boolean {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i];
  return numeric(block, 148, 8) === sum;
}

/** A name safe to join under a directory: relative (`rooted`: a leading `/` means the archive's root), no `..` segment. */
function safeName(raw: string, rooted: boolean): string {
  const name = raw.replace(rooted ? /^(\.?\/)+/ : /^(\.\/)+/, '').replace(/\/+$/, '');
  if (name.startsWith('/') || name.split('/').some((s) => s === '..') || name.includes('\0')) throw new NotAnArchiveError(`unsafe path in the archive: ${raw}`);
  return name;
}

/** The `path` of a pax extended header (records `<length> <key>=<value>\n`). */
function paxPath(data: Buffer): string | null {
  let path: string | null = null;
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    if (space === -1) break;
    const length = Number(data.subarray(at, space).toString('ascii'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = data.subarray(space + 1, at + length - 1).toString('utf8');
    const eq = record.indexOf('=');
    if (eq > 0 && record.slice(0, eq) === 'path') path = record.slice(eq + 1);
    at += length;
  }
  return path;
}

/**
 * Reads the gzipped tar at `path`, calling `onEntry` for each file and directory in order; its
 * answer says what becomes of the entry's bytes. `stop()` (given to onEntry) ends the reading
 * after the current entry. `plain`: the tar is not gzipped and its names may start with `/` for
 * its root (PGlite's dump of a data directory, db/pglite-template.ts).
 */
export async function readTarGz(path: string, onEntry: (entry: TarEntry, stop: () => void) => EntryAction, { plain = false } = {}): Promise<void> {
  const gunzip = plain ? createReadStream(path) : createReadStream(path).pipe(createGunzip());
  let buffer: Buffer = Buffer.alloc(0);
  /** The entry whose bytes are being read. */
  let current: { remaining: number; padding: number; fd: number | null; chunks: Buffer[] | null; done: ((data: Buffer) => void) | null } | null = null;
  /** A long name from a pax or GNU record, for the next entry. */
  let nextName: string | null = null;
  let ended = false;
  let stopped = false;
  const stop = () => {
    stopped = true;
  };

  const finishEntry = () => {
    if (!current) return;
    if (current.fd !== null) closeSync(current.fd);
    if (current.done) current.done(Buffer.concat(current.chunks ?? []));
    current = null;
  };

  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (current) {
          if (current.remaining > 0) {
            const n = Math.min(current.remaining, buffer.length);
            if (n === 0) break;
            const part = buffer.subarray(0, n);
            if (current.fd !== null) writeSync(current.fd, part);
            else if (current.chunks) current.chunks.push(Buffer.from(part));
            buffer = buffer.subarray(n);
            current.remaining -= n;
            if (current.remaining > 0) break;
          }
          const skip = Math.min(current.padding, buffer.length);
          buffer = buffer.subarray(skip);
          current.padding -= skip;
          if (current.padding > 0) break;
          finishEntry();
          if (stopped) return;
          continue;
        }
        if (ended || buffer.length < BLOCK) break;
        const header = buffer.subarray(0, BLOCK);
        buffer = buffer.subarray(BLOCK);
        if (header.every((b) => b === 0)) {
          ended = true; // the end-of-archive blocks; what follows is padding
          break;
        }
        if (!checksumOk(header)) throw new NotAnArchiveError('not a tar archive (bad header checksum)');
        const size = numeric(header, 124, 12);
        const flag = String.fromCharCode(header[156] || 0x30);
        const padding = (BLOCK - (size % BLOCK)) % BLOCK;
        if (flag === 'x' || flag === 'L') {
          current = {
            remaining: size,
            padding,
            fd: null,
            chunks: [],
            done: (data) => (nextName = flag === 'x' ? (paxPath(data) ?? nextName) : text(data, 0, data.length)),
          };
          continue;
        }
        const prefix = header.subarray(257, 262).toString('ascii') === 'ustar' ? text(header, 345, 155) : '';
        const raw = nextName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
        nextName = null;
        const type: TarEntry['type'] = flag === '0' || flag === '7' ? 'file' : flag === '5' ? 'directory' : 'other';
        const entry: TarEntry = { name: safeName(raw, plain), size: type === 'directory' ? 0 : size, type };
        const action = type === 'other' ? null : onEntry(entry, stop);
        const fd = action && 'writeTo' in action ? openSync(action.writeTo, 'wx') : null;
        current = { remaining: size, padding, fd, chunks: action && 'keep' in action ? [] : null, done: action && 'keep' in action ? action.keep : null };
      }
      if (ended) break;
    }
    if (current || !ended) throw new NotAnArchiveError('the archive is incomplete (cut short)');
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || /unexpected end of file|incorrect header check/i.test((err as Error).message)) {
      throw new NotAnArchiveError('not a gzip file, or one cut short');
    }
    throw err;
  } finally {
    if (current?.fd != null) closeSync(current.fd);
    gunzip.destroy();
  }
}
