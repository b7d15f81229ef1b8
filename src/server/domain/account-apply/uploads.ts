/**
 * Files a visitor attaches to an application before it exists (the licence of a registration,
 * the identity document of a password reset):
 *
 *   POST /a/stone/common/applyUpload   multipart, one file → { id, name, url, size }
 *
 * Stored like every attachment (services/attachments.ts: type by content, size limit) but owned by
 * no unit (the visitor id); `claimUploads` attaches unclaimed visitor files of the last day to
 * the application when it is filed, in the area of the application, so the authority of that area
 * sees them and nobody else does. Limited per IP.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { ATTACHMENT_ROUTES } from '../../../shared/contract';
import { failureResponses } from '../../../shared/wire';
import { AppError } from '../../errors';
import { storeStaged, type AttachmentTable } from '../../services/attachments';
import { discardStaged, readUpload, type StagedFile } from '../../services/attachment-upload';
import { countHit } from '../../services/rate-counter';
import { ACCOUNT_APPLY_ERRORS } from './errors';

export const VISITOR_ID = '0'.repeat(32);
/** Uploads per minute per IP. */
const UPLOADS_PER_MINUTE = 20;
/** How long an unclaimed visitor upload may still be attached. */
const CLAIM_WINDOW_MS = 24 * 60 * 60_000;

export interface FileRef {
  id: string;
  name: string;
  url: string;
  size: number;
}

/** The ids of a field value as the form sends it ([{ id, ... }]). */
export function uploadIds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((f) => (f && typeof f === 'object' ? (f as { id?: unknown }).id : undefined))
    .filter((id): id is string => typeof id === 'string' && /^[0-9a-f]{32}$/.test(id))
    .slice(0, 5);
}

/** Attaches the visitor's unclaimed files `ids` to record `refId` in `areaCode`; returns them as a field value. */
export async function claimUploads(trx: unknown, apiBase: string, ids: readonly string[], refId: string, areaCode: string): Promise<FileRef[]> {
  if (ids.length === 0) return [];
  const db = trx as Kysely<{ sys_attachment: AttachmentTable }>;
  const rows = await db
    .updateTable('sys_attachment')
    .set({ ref_id: refId, area_code: areaCode })
    .where('id', 'in', [...ids])
    .where('unit_id', '=', VISITOR_ID)
    .where('ref_id', 'is', null)
    .where('created_at', '>', new Date(Date.now() - CLAIM_WINDOW_MS))
    .returning(['id', 'file_name', 'size'])
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.file_name, url: `${apiBase}${ATTACHMENT_ROUTES.download}/${r.id}`, size: Number(r.size) }));
}

export const applyUploadRoutes: FastifyPluginAsync = async (app) => {
  const store = app.attachmentStore;
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: store.maxBytes, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 100 },
  });
  app.post(
    ATTACHMENT_ROUTES.visitorUpload,
    {
      config: { public: true },
      schema: {
        summary: 'Upload one file for an application not yet filed (visitor)',
        tags: ['account-apply'],
        consumes: ['multipart/form-data'],
        response: failureResponses,
      },
    },
    async (request, reply) => {
      if ((await countHit(app.db, `open:upload:${request.ip}`, 60_000)).count > UPLOADS_PER_MINUTE) throw new AppError(ACCOUNT_APPLY_ERRORS.OPEN_TOO_FREQUENT);
      let staged: StagedFile | undefined = (await readUpload(store, request)).staged;
      try {
        const info = await storeStaged(app.db, store, { userId: VISITOR_ID, unitId: VISITOR_ID, areaCode: '', roleType: null, oversees: false }, staged, null);
        staged = undefined;
        return reply.ok({ id: info.id, name: info.name, url: info.url, size: info.size }, '上传成功');
      } finally {
        await discardStaged(staged);
      }
    },
  );
};
