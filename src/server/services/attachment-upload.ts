/**
 * An attachment upload read and checked before it is stored: the multipart request read to its
 * end, its first file streamed to the store's staging directory and checked there.
 *
 * - The size limit is enforced while streaming: a file over the limit is discarded and nothing is
 *   stored (no row, no bytes).
 * - A file is first written to the store's staging directory and put into the store, under its id,
 *   once it has passed every check, so a half-written or refused upload never appears under an id.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { newId } from '../db/ids';
import { AppError } from '../errors';
import type { AttachmentStore } from './attachment-store';
import { allowedType, cleanFileName, type FileType } from './attachment-types';
import { eachPart, uploadError } from './multipart';

const HEAD_BYTES = 1024;

/** Counts, hashes and keeps the first bytes of what passes through. */
class Inspector extends Transform {
  readonly hash: Hash = createHash('sha256');
  size = 0;
  private chunks: Buffer[] = [];
  private headLength = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    if (this.headLength < HEAD_BYTES) {
      this.chunks.push(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headLength += Math.min(chunk.length, HEAD_BYTES - this.headLength);
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A file written to the staging directory and checked, not yet under its id. */
export interface StagedFile {
  tmpPath: string;
  name: string;
  size: number;
  mime: string;
  sha256: string;
}

/**
 * Streams an uploaded file to the store's staging directory and checks it: type by extension, size limit,
 * non-empty, magic bytes. On any failure the temporary file is gone and an AppError is thrown.
 * `truncated()` says whether the multipart parser cut the stream at the size limit.
 */
export async function stageUpload(store: AttachmentStore, rawName: string, stream: Readable, truncated: () => boolean): Promise<StagedFile> {
  const name = cleanFileName(rawName);
  if (!name) {
    stream.resume();
    throw new AppError('ATTACHMENT_MISSING');
  }
  let type: FileType;
  let dir: string;
  try {
    type = allowedType(name);
    dir = await store.staging();
  } catch (err) {
    stream.resume(); // drain the refused part so the rest of the request can be read
    throw err;
  }
  const tmpPath = join(dir, `${newId()}.part`);
  const inspector = new Inspector();
  try {
    await pipeline(stream, inspector, createWriteStream(tmpPath, { flags: 'wx' }));
    if (truncated() || inspector.size > store.maxBytes) throw new AppError('ATTACHMENT_TOO_LARGE', undefined, { maxMb: store.maxMb });
    if (inspector.size === 0) throw new AppError('ATTACHMENT_EMPTY');
    if (!type.sniff(inspector.head())) throw new AppError('ATTACHMENT_CONTENT_MISMATCH');
  } catch (err) {
    await rm(tmpPath, { force: true });
    throw err;
  }
  return { tmpPath, name, size: inspector.size, mime: type.mime, sha256: inspector.hash.digest('hex') };
}

export async function discardStaged(staged: StagedFile | undefined): Promise<void> {
  if (staged) await rm(staged.tmpPath, { force: true });
}

/**
 * Reads a multipart upload to its end (even after a refused file, so the reply is not sent
 * mid-upload): stages its first file (checked by stageUpload), drains any further file and
 * collects the text fields. Throws ATTACHMENT_MISSING when the request is not multipart or has no
 * file, the refusal of a refused file, MULTIPART_INVALID for a malformed body; after a throw
 * nothing stays staged. The caller stores or discards the staged file.
 */
export async function readUpload(store: AttachmentStore, request: FastifyRequest): Promise<{ staged: StagedFile; fields: Record<string, unknown> }> {
  if (!request.isMultipart()) throw new AppError('ATTACHMENT_MISSING');
  const fields: Record<string, unknown> = {};
  let staged: StagedFile | undefined;
  let failure: unknown;
  try {
    await eachPart(request, async (part) => {
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
      } else if (staged || failure) {
        part.file.resume();
      } else {
        try {
          staged = await stageUpload(store, part.filename ?? '', part.file, () => part.file.truncated);
        } catch (err) {
          failure = uploadError(err);
        }
      }
    });
  } catch (err) {
    await discardStaged(staged);
    throw err;
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- what uploadError made of the stream's error
  if (failure) throw failure;
  if (!staged) throw new AppError('ATTACHMENT_MISSING');
  return { staged, fields };
}
