/**
 * Attachment files: stored under a random id (never the uploader's file name) with one
 * `sys_attachment` row each (migration 0003); where the bytes live, a folder or the database, is
 * the store's business (services/attachment-store.ts, PORTAL_ATTACHMENT_STORE). Here: the rows —
 * storing a checked upload, finding, listing, deleting and linking files. The types allowed and the
 * file names are attachment-types.ts; reading and checking an upload, attachment-upload.ts.
 *
 * - Who sees a file: the uploader's unit; a session of an oversight role type (the authority) also
 *   sees the files of units in its area, as it audits their records (see resources/scope.ts). Only
 *   the uploader's unit may delete. Anything else answers ATTACHMENT_NOT_FOUND, as an unknown id does.
 */
import type { Readable } from 'node:stream';
import type { ColumnType, ExpressionBuilder, Generated, Kysely, Selectable } from 'kysely';
import type { AttachmentInfo } from '../../shared/contract';
import { escapeLike } from '../db/sql';
import { newId } from '../db/ids';
import { AppError } from '../errors';
import { areaPrefix } from '../resources/scope';
import type { AttachmentStore } from './attachment-store';
import { discardStaged, type StagedFile } from './attachment-upload';

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
  const deleted = await attachments(db)
    .deleteFrom('sys_attachment')
    .where('id', '=', id)
    .where('unit_id', '=', viewer.unitId)
    .returning('id')
    .executeTakeFirst();
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
