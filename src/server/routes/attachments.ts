/**
 * Attachment routes (any logged-in session; the rules are in services/attachments.ts):
 *
 *   POST /attachments/upload              multipart: one file, optional field refId / attrefsysid
 *   GET|POST /attachments/list?refId=      the record's attachments the session may see
 *   GET  /attachments/download/<id>        the bytes (Content-Disposition with the UTF-8 name)
 *   POST /attachments/delete/<id>          own unit only
 *
 * and the legacy paths of the original clients: /a/stone/attachment/upload and attUpload (upload),
 * findAttList (attrefsysid), delete (id or attsysid), download?attsysid=. Multipart parsing is
 * registered here only, so no other route accepts multipart bodies.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import attachmentMobileRoutes from './attachment-mobile';
import { API, ATTACHMENT_ROUTES } from '../../shared/contract';
import { isId } from '../db/ids';
import { AppError } from '../errors';
import { actorOf } from '../resources/scope';
import { deleteOwn, findVisible, listByRef, openFile, storeStaged, type Viewer } from '../services/attachments';
import { contentDisposition } from '../services/attachment-types';
import { discardStaged, readUpload, type StagedFile } from '../services/attachment-upload';
import { attachmentInfoSchema, envelopeOf, failureResponses } from '../../shared/wire';
import { MULTIPART_DOC } from '../plugins/openapi';

/** The parts of an upload, as the document shows them. */
const UPLOAD_PARTS = {
  type: 'object',
  required: ['file'],
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      description:
        'The file (any part name; the first file part is taken, further ones are drained and ignored). Its name gives the extension checked against the allowed types.',
    },
    refId: { type: 'string', description: 'The record the file belongs to (optional; usually set later by saving the record with the file id).' },
    attrefsysid: { type: 'string', description: 'Legacy name of refId.' },
  },
} as const;

const TAGS = ['attachment'];
/** A record id as legacy clients send it (ours are 32 hex; older systems' may differ). */
const REF_ID = /^[\w-]{1,64}$/;

/** `data` of a refusal, e.g. `{ maxMb }` of ATTACHMENT_TOO_LARGE. */
const failureDetail = { type: 'object', additionalProperties: true } as const;

type Input = Record<string, unknown>;
const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});
/** Query string and body merged (body wins), as legacy clients send either. */
const inputOf = (request: FastifyRequest): Input => ({ ...asObject(request.query), ...asObject(request.body) });

function viewerOf(request: FastifyRequest): Viewer {
  const actor = actorOf(request);
  return { userId: actor.userId, unitId: actor.unitId, areaCode: actor.areaCode, roleType: actor.roleType, oversees: actor.oversees };
}

/** The record id named by `refId` / `attrefsysid`, or null; a malformed one is a bad request. */
function refIdOf(input: Input): string | null {
  const raw = input.refId ?? input.attrefsysid;
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string' || !REF_ID.test(raw)) throw new AppError('ATTACHMENT_REF_INVALID');
  return raw;
}

/** The attachment id from the path, else `id` / `attsysid`; anything that is not an id is simply not found. */
function attachmentIdOf(request: FastifyRequest): string {
  const input = inputOf(request);
  const id = asObject(request.params).id ?? input.attsysid ?? input.id;
  if (!isId(id)) throw new AppError('ATTACHMENT_NOT_FOUND');
  return id;
}

const attachmentRoutes: FastifyPluginAsync = async (app) => {
  // The app's one store (plugins/attachment-store.ts): a folder or the database.
  const store = app.attachmentStore;
  await app.register(multipart, {
    // Over-size files are cut by the parser and refused by the service with the Chinese message.
    throwFileSizeLimit: false,
    limits: { fileSize: store.maxBytes, files: 1, fields: 20, fieldSize: 4096, parts: 25, headerPairs: 100 },
  });
  // Upload by phone (QR code of an attachment field): same parser, same store and checks.
  await app.register(attachmentMobileRoutes, { store });

  const upload = async (request: FastifyRequest, reply: FastifyReply) => {
    const viewer = viewerOf(request);
    const read = await readUpload(store, request);
    const { fields } = read;
    let staged: StagedFile | undefined = read.staged;
    try {
      const refId = refIdOf({ ...asObject(request.query), ...fields });
      const info = await storeStaged(app.db, store, viewer, staged, refId);
      staged = undefined;
      return reply.ok(info, '上传成功');
    } finally {
      await discardStaged(staged);
    }
  };
  const uploadOptions = {
    schema: {
      summary: 'Upload one attachment (multipart; field refId / attrefsysid optional)',
      tags: TAGS,
      consumes: ['multipart/form-data'],
      [MULTIPART_DOC]: UPLOAD_PARTS,
      // Refusals (too large, wrong type) are business failures sent with HTTP 200 and their own detail.
      response: { 200: envelopeOf({ anyOf: [attachmentInfoSchema, failureDetail] }), ...failureResponses },
    },
    handler: upload,
  };
  for (const url of [ATTACHMENT_ROUTES.upload, API.attachmentUpload, API.attachmentAttUpload]) app.post(url, uploadOptions);

  const listOptions = {
    schema: {
      summary: 'Attachments of a record (refId / attrefsysid) visible to the session',
      tags: TAGS,
      response: { 200: envelopeOf({ type: 'array', items: attachmentInfoSchema }), ...failureResponses },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const viewer = viewerOf(request);
      const refId = refIdOf(inputOf(request));
      if (!refId) throw new AppError('ATTACHMENT_REF_INVALID');
      return reply.ok(await listByRef(app.db, store, viewer, refId));
    },
  };
  for (const url of [ATTACHMENT_ROUTES.list, API.attachmentList]) app.route({ ...listOptions, method: ['GET', 'POST'], url });

  const downloadOptions = {
    schema: { summary: 'Download an attachment (the session must see it)', tags: TAGS, response: failureResponses },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const info = await findVisible(app.db, store, viewerOf(request), attachmentIdOf(request));
      const stream = await openFile(store, info);
      return reply
        .header('content-type', info.mime)
        .header('content-length', info.size)
        .header('content-disposition', contentDisposition(info.name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-cache')
        .send(stream);
    },
  };
  app.get(`${ATTACHMENT_ROUTES.download}/:id`, downloadOptions);
  app.get(API.attachmentDownload, downloadOptions);

  const deleteOptions = {
    schema: { summary: 'Delete an attachment of the own unit', tags: TAGS, response: { 200: envelopeOf(), ...failureResponses } },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      await deleteOwn(app.db, store, viewerOf(request), attachmentIdOf(request));
      return reply.ok(null, '删除成功');
    },
  };
  app.post(`${ATTACHMENT_ROUTES.delete}/:id`, deleteOptions);
  app.post(API.attachmentDelete, deleteOptions);
};

export default attachmentRoutes;
