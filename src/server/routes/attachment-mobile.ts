/**
 * Upload by phone (/attachmentUploadMobile): a desktop attachment field asks for a token, shows it
 * as a QR code, and polls for the files the phone sent with it.
 *
 *   POST /a/stone/attachment/mobileToken          signed in: { attrefsysid?, field, fieldLabel? } → { token, expiresAt }
 *   GET  /a/stone/attachment/mobileToken/files    signed in, the token's own user: the files sent with it so far
 *   GET  /a/stone/attachment/mobile/info?token=   open: what the phone shows before uploading
 *   POST /a/stone/attachment/mobile/upload?token= open, multipart: one file, stored for the token's user and unit
 *
 * The token is 32 random bytes (base64url); only its SHA-256 is stored (sys_mobile_upload_token,
 * migration 0012). It lives MOBILE_TOKEN_MINUTES and takes one upload: the claim is one
 * conditional UPDATE, so two phones racing with the same code store one file. Files pass the very
 * checks of the desktop upload (type by extension and magic bytes, PORTAL_ATTACHMENT_MAX_MB).
 * Registered by routes/attachments.ts inside its scope, so multipart parsing and the store are the same.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { ACCOUNT_API, type MobileToken, type MobileTokenInfo, type MobileTokenState } from '../../shared/accounts';
import { defineErrors, AppError } from '../errors';
import { actorOf } from '../resources/scope';
import { storeStaged, type AttachmentStore } from '../services/attachments';
import { ALLOWED_TYPES } from '../services/attachment-types';
import { discardStaged, readUpload, type StagedFile } from '../services/attachment-upload';
import { failureResponses } from '../../shared/wire';
import { MULTIPART_DOC } from '../plugins/openapi';

/** How long a QR code works. */
export const MOBILE_TOKEN_MINUTES = 10;
/** Most unexpired tokens one user may hold (a runaway page cannot fill the table). */
const MAX_ACTIVE_TOKENS = 30;

const MOBILE_ERRORS = defineErrors({
  MOBILE_TOKEN_INVALID: { status: 200, message: '二维码已失效或已使用，请在电脑上重新生成' },
  MOBILE_TOKEN_TOO_MANY: { status: 200, message: '生成的二维码过多，请稍后再试' },
});

interface TokenTable {
  token_hash: string;
  user_id: string;
  ref_id: string | null;
  field: string;
  field_label: string | null;
  expires_at: Date;
  used_at: Date | null;
  attachment_ids: string[];
  created_at: Date;
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the app database, seen with this table
const tokens = (db: Kysely<any>) => db as Kysely<{ sys_mobile_upload_token: TokenTable }>;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const REF_ID = /^[\w-]{1,64}$/;

type Input = Record<string, unknown>;
const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});
const tokenOf = (request: FastifyRequest): string => {
  const raw = { ...asObject(request.query), ...asObject(request.body) }.token;
  if (typeof raw !== 'string' || !TOKEN.test(raw)) throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_INVALID);
  return raw;
};

const attachmentMobileRoutes: FastifyPluginAsync<{ store: AttachmentStore }> = async (app, { store }) => {
  const db = tokens(app.db);
  const openRate = { max: 60, timeWindow: 60_000 };

  /** The live token (unused, unexpired) and its owner's unit, or MOBILE_TOKEN_INVALID. */
  async function liveToken(token: string) {
    const row = await db
      .selectFrom('sys_mobile_upload_token')
      .selectAll()
      .where('token_hash', '=', hashOf(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date())
      .executeTakeFirst();
    if (!row) throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_INVALID);
    const owner = await app.db
      .selectFrom('sys_user as u')
      .innerJoin('sys_unit as un', 'un.id', 'u.unit_id')
      .select(['u.unit_id', 'u.status', 'un.orgname', 'un.areacode'])
      .where('u.id', '=', row.user_id)
      .executeTakeFirst();
    // A disabled account's codes stop working with it.
    if (!owner || owner.status !== '0') throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_INVALID);
    return { ...row, ...owner };
  }

  app.post<{ Body: { attrefsysid?: string; field: string; fieldLabel?: string } }>(ACCOUNT_API.mobileToken, {
    schema: {
      summary: 'A short-lived, single-use token for uploading one file of an attachment field from a phone',
      tags: ['attachment'],
      body: {
        type: 'object',
        properties: {
          attrefsysid: { type: 'string', maxLength: 64 },
          field: { type: 'string', minLength: 1, maxLength: 100 },
          fieldLabel: { type: 'string', maxLength: 200 },
        },
        required: ['field'],
      },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const { attrefsysid, field, fieldLabel } = request.body;
      if (attrefsysid && !REF_ID.test(attrefsysid)) throw new AppError('ATTACHMENT_REF_INVALID');
      const now = new Date();
      await db
        .deleteFrom('sys_mobile_upload_token')
        .where('expires_at', '<', new Date(now.getTime() - 24 * 3600_000))
        .execute();
      const { active } = await db
        .selectFrom('sys_mobile_upload_token')
        .select((eb) => eb.fn.countAll<string | number>().as('active'))
        .where('user_id', '=', actor.userId)
        .where('expires_at', '>', now)
        .where('used_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(active) >= MAX_ACTIVE_TOKENS) throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_TOO_MANY);
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now.getTime() + MOBILE_TOKEN_MINUTES * 60_000);
      await db
        .insertInto('sys_mobile_upload_token')
        .values({
          token_hash: hashOf(token),
          user_id: actor.userId,
          ref_id: attrefsysid || null,
          field,
          field_label: fieldLabel?.trim() || null,
          expires_at: expiresAt,
          used_at: null,
          attachment_ids: sql`'[]'::jsonb` as never,
          created_at: now,
        })
        .execute();
      const result: MobileToken = { token, expiresAt: expiresAt.toISOString() };
      return reply.ok(result);
    },
  });

  app.get(ACCOUNT_API.mobileTokenFiles, {
    schema: {
      summary: 'The files a phone uploaded with a token of the current user',
      tags: ['attachment'],
      querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 64 } }, required: ['token'] },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const actor = actorOf(request);
      const row = await db
        .selectFrom('sys_mobile_upload_token')
        .selectAll()
        .where('token_hash', '=', hashOf(tokenOf(request)))
        .where('user_id', '=', actor.userId)
        .executeTakeFirst();
      if (!row) throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_INVALID);
      const ids = row.attachment_ids ?? [];
      const files = ids.length
        ? await app.db
            .selectFrom('sys_attachment' as never)
            .select(['id', 'file_name', 'size'] as never[])
            .where('id' as never, 'in', ids as never)
            .where('created_by' as never, '=', actor.userId as never)
            .execute()
        : [];
      const state: MobileTokenState = {
        files: (files as unknown as { id: string; file_name: string; size: string | number }[]).map((f) => ({
          id: f.id,
          name: f.file_name,
          url: store.downloadUrl(f.id),
          size: Number(f.size),
        })),
        used: row.used_at !== null,
        expired: row.expires_at.getTime() <= Date.now(),
      };
      return reply.ok(state);
    },
  });

  app.get(ACCOUNT_API.mobileInfo, {
    config: { public: true, rateLimit: openRate },
    schema: {
      summary: 'What the phone shows before uploading with a token (open)',
      tags: ['attachment'],
      querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 64 } }, required: ['token'] },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const row = await liveToken(tokenOf(request));
      const info: MobileTokenInfo = {
        fieldLabel: row.field_label,
        orgname: row.orgname,
        expiresAt: row.expires_at.toISOString(),
        maxMb: store.maxMb,
        accept: Object.keys(ALLOWED_TYPES),
      };
      return reply.ok(info);
    },
  });

  app.post(ACCOUNT_API.mobileUpload, {
    config: { public: true, rateLimit: openRate },
    schema: {
      summary: 'Upload one file with a mobile token (open, multipart; single use)',
      tags: ['attachment'],
      consumes: ['multipart/form-data'],
      [MULTIPART_DOC]: {
        type: 'object',
        required: ['file'],
        properties: { file: { type: 'string', format: 'binary', description: 'The photo or file (any part name; the first file part is taken).' } },
      },
      response: failureResponses,
    },
    handler: async (request, reply) => {
      const token = tokenOf(request);
      const owner = await liveToken(token);
      let staged: StagedFile | undefined = (await readUpload(store, request)).staged;
      try {
        // Claim the token: one conditional update, so it takes one file however many phones try.
        const claimed = await db
          .updateTable('sys_mobile_upload_token')
          .set({ used_at: new Date() })
          .where('token_hash', '=', hashOf(token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', new Date())
          .returning('token_hash')
          .executeTakeFirst();
        if (!claimed) throw new AppError(MOBILE_ERRORS.MOBILE_TOKEN_INVALID);
        const viewer = { userId: owner.user_id, unitId: owner.unit_id, areaCode: owner.areacode, roleType: null, oversees: false };
        const info = await storeStaged(app.db, store, viewer, staged, owner.ref_id);
        staged = undefined;
        await db
          .updateTable('sys_mobile_upload_token')
          .set({ attachment_ids: sql`${JSON.stringify([info.id])}::jsonb` as never })
          .where('token_hash', '=', hashOf(token))
          .execute();
        return reply.ok({ name: info.name, size: info.size }, '上传成功');
      } finally {
        await discardStaged(staged);
      }
    },
  });
};

export default attachmentMobileRoutes;
