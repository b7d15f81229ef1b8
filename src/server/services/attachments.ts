/**
 * Attachment files: stored under a random id (never the uploader's file name) with one
 * `sys_attachment` row each (migration 0003); where the bytes live, a folder or the database, is
 * the store's business (services/attachment-store.ts, PORTAL_ATTACHMENT_STORE). The rules, as data
 * and small functions:
 *
 * - Allowed types are listed by extension (ALLOWED_TYPES); the first bytes must match the type the
 *   extension claims (a renamed text file is not a PDF). The stored MIME type comes from this
 *   table, never from the client's Content-Type.
 * - The size limit is enforced while streaming: a file over the limit is discarded and nothing is
 *   stored (no row, no bytes).
 * - Who sees a file: the uploader's unit; a session of an oversight role type (the authority) also
 *   sees the files of units in its area, as it audits their records (see resources/scope.ts). Only
 *   the uploader's unit may delete. Anything else answers ATTACHMENT_NOT_FOUND, as an unknown id does.
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
import type { ColumnType, ExpressionBuilder, Generated, Kysely, Selectable } from 'kysely';
import type { AttachmentInfo } from '../../shared/contract';
import { escapeLike } from '../db/sql';
import { newId } from '../db/ids';
import { AppError } from '../errors';
import { areaPrefix } from '../resources/scope';
import type { AttachmentStore } from './attachment-store';
import { eachPart, uploadError } from './multipart';

export type { AttachmentStore } from './attachment-store';

// ---------------------------------------------------------------------------------------------
// types

export interface AttachmentTable {
  id: string;
  ref_id: string | null;
  unit_id: string;
  area_code: string;
  file_name: string;
  /** bigint: the driver may read it as a string. */
  size: ColumnType<string | number, number, number>;
  mime: string;
  sha256: string;
  created_by: string;
  created_at: Generated<Date>;
  /** The unit owning the record the file is linked to, when that is not the uploader's (migration 0007). */
  record_unit_id: ColumnType<string | null, string | null | undefined, string | null>;
}

type AttachmentRow = Selectable<AttachmentTable>;
type Tables = { sys_attachment: AttachmentTable };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- works over the app database or a transaction
type AnyDb = Kysely<any>;
const attachments = (db: AnyDb) => db as Kysely<Tables>;

/** Who is asking: the session's unit, area and role type. */
export interface Viewer {
  userId: string;
  unitId: string;
  areaCode: string;
  roleType: string | null;
  /** The viewer's role type oversees its area (PORTAL_OVERSIGHT_ROLE_TYPES). */
  oversees: boolean;
}

// ---------------------------------------------------------------------------------------------
// types allowed, by extension, with the magic bytes each must start with

interface FileType {
  mime: string;
  /** Whether the first bytes of the file are of this type. */
  sniff(head: Buffer): boolean;
}

const startsWith = (head: Buffer, bytes: readonly number[]) => head.length >= bytes.length && bytes.every((b, i) => head[i] === b);
/** PDF readers accept the header anywhere in the first 1024 bytes. */
const isPdf = (head: Buffer) => head.subarray(0, 1024).includes('%PDF-');
const isJpeg = (head: Buffer) => startsWith(head, [0xff, 0xd8, 0xff]);
const isPng = (head: Buffer) => startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** OLE2 compound file (legacy Office). */
const isOle = (head: Buffer) => startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** ZIP local file header (Office Open XML). */
const isZip = (head: Buffer) => startsWith(head, [0x50, 0x4b, 0x03, 0x04]);

export const ALLOWED_TYPES: Readonly<Record<string, FileType>> = {
  pdf: { mime: 'application/pdf', sniff: isPdf },
  jpg: { mime: 'image/jpeg', sniff: isJpeg },
  jpeg: { mime: 'image/jpeg', sniff: isJpeg },
  png: { mime: 'image/png', sniff: isPng },
  doc: { mime: 'application/msword', sniff: isOle },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', sniff: isZip },
};

const HEAD_BYTES = 1024;
const MAX_NAME_LENGTH = 255;

/** The file name as shown to people: the last path segment, without control characters, at most 255 characters (extension kept). */
export function cleanFileName(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const base = (raw.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (base.length <= MAX_NAME_LENGTH) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 && base.length - dot <= 10 ? base.slice(dot) : '';
  return base.slice(0, MAX_NAME_LENGTH - ext.length) + ext;
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** The type a file name claims, or ATTACHMENT_TYPE_NOT_ALLOWED. */
export function allowedType(name: string): FileType {
  const type = ALLOWED_TYPES[extensionOf(name)];
  if (!type) throw new AppError('ATTACHMENT_TYPE_NOT_ALLOWED', undefined, { allowed: Object.keys(ALLOWED_TYPES) });
  return type;
}

// ---------------------------------------------------------------------------------------------
// staging

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
  if (failure) throw failure;
  if (!staged) throw new AppError('ATTACHMENT_MISSING');
  return { staged, fields };
}

// ---------------------------------------------------------------------------------------------
// rows

function toInfo(store: AttachmentStore, row: AttachmentRow): AttachmentInfo {
  return {
    id: row.id,
    attsysid: row.id,
    attrefsysid: row.ref_id,
    name: row.file_name,
    size: Number(row.size),
    mime: row.mime,
    sha256: row.sha256,
    url: store.downloadUrl(row.id),
    createDate: row.created_at.toISOString(),
  };
}

/**
 * Puts a staged file into the store under a new id and records it for the viewer's unit. The row
 * is written first, in a transaction that commits only once the bytes are stored (in the folder,
 * or as chunks in that very transaction), so a failure leaves neither a row without bytes nor
 * bytes under an id. The staged file is gone afterwards, stored or not.
 */
export async function storeStaged(db: AnyDb, store: AttachmentStore, viewer: Viewer, staged: StagedFile, refId: string | null): Promise<AttachmentInfo> {
  const id = newId();
  let row: AttachmentRow;
  try {
    row = await attachments(db)
      .transaction()
      .execute(async (trx) => {
        const inserted = await trx
          .insertInto('sys_attachment')
          .values({
            id,
            ref_id: refId,
            unit_id: viewer.unitId,
            area_code: viewer.areaCode,
            file_name: staged.name,
            size: staged.size,
            mime: staged.mime,
            sha256: staged.sha256,
            created_by: viewer.userId,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await store.put(trx, id, staged.tmpPath);
        return inserted;
      });
  } catch (err) {
    await store.forget(id);
    await discardStaged(staged);
    throw err;
  }
  // The folder moved the staged file; the database copied it.
  await discardStaged(staged);
  return toInfo(store, row);
}

/** The condition "visible to the viewer": own unit, or (oversight role types) the viewer's area. */
function visibleTo(viewer: Viewer) {
  return (eb: ExpressionBuilder<Tables, 'sys_attachment'>) => {
    const own = eb.or([eb('unit_id', '=', viewer.unitId), eb('record_unit_id', '=', viewer.unitId)]);
    if (!viewer.oversees) return own;
    return eb.or([own, eb('area_code', 'like', `${escapeLike(areaPrefix(viewer.areaCode))}%`)]);
  };
}

/** One attachment the viewer may see, or ATTACHMENT_NOT_FOUND. */
export async function findVisible(db: AnyDb, store: AttachmentStore, viewer: Viewer, id: string): Promise<AttachmentInfo> {
  const row = await attachments(db).selectFrom('sys_attachment').selectAll().where('id', '=', id).where(visibleTo(viewer)).executeTakeFirst();
  if (!row) throw new AppError('ATTACHMENT_NOT_FOUND');
  return toInfo(store, row);
}

/** The attachments of a record the viewer may see, oldest first. */
export async function listByRef(db: AnyDb, store: AttachmentStore, viewer: Viewer, refId: string): Promise<AttachmentInfo[]> {
  const rows = await attachments(db)
    .selectFrom('sys_attachment')
    .selectAll()
    .where('ref_id', '=', refId)
    .where(visibleTo(viewer))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => toInfo(store, row));
}

/** Deletes an attachment of the viewer's own unit (row, then bytes); ATTACHMENT_NOT_FOUND otherwise. */
export async function deleteOwn(db: AnyDb, store: AttachmentStore, viewer: Viewer, id: string): Promise<void> {
  const deleted = await attachments(db).deleteFrom('sys_attachment').where('id', '=', id).where('unit_id', '=', viewer.unitId).returning('id').executeTakeFirst();
  if (!deleted) throw new AppError('ATTACHMENT_NOT_FOUND');
  await store.remove(id);
}

/**
 * Attaches uploaded files to the record they were uploaded for (attrefsysid), once that record has
 * an id: only files of the viewer's unit that are not yet attached elsewhere. `recordUnitId`, the
 * unit owning the record when it is not the viewer's, may then see them too. Returns how many.
 */
export async function linkToRecord(db: AnyDb, viewer: Viewer, refId: string, ids: readonly string[], recordUnitId?: string | null): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await attachments(db)
    .updateTable('sys_attachment')
    .set({ ref_id: refId, record_unit_id: recordUnitId && recordUnitId !== viewer.unitId ? recordUnitId : null })
    .where('id', 'in', [...ids])
    .where('unit_id', '=', viewer.unitId)
    .where((eb) => eb.or([eb('ref_id', 'is', null), eb('ref_id', '=', refId)]))
    .returning('id')
    .execute();
  return rows.length;
}

/** The stored bytes of an attachment (after `findVisible`), streamed; rejects with ATTACHMENT_NOT_FOUND when they are gone. */
export function openFile(store: AttachmentStore, info: Pick<AttachmentInfo, 'id' | 'size'>): Promise<Readable> {
  return store.open(info.id, info.size);
}

/** `attachment` with an ASCII fallback and the UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(name: string): string {
  const ext = extensionOf(name);
  // Old clients get the name itself when it is plain ASCII, else a neutral one with the extension.
  const fallback = /^[\w][\w.-]*$/.test(name) ? name : `attachment${ext ? `.${ext}` : ''}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
