/**
 * The wire contract shared by the browser and the server: the JeeSite-style envelope, the session
 * and user shapes, and the original API paths. Both sides import from here, so a path
 * or a field name is written once.
 *
 * All paths below are relative to the API base (`/espServer` by default, PORTAL_API_BASE).
 */

import type { FromSchema } from 'json-schema-to-ts';
import type {
  appConfigSchema,
  attachmentInfoSchema,
  auditEntrySchema,
  changeRoleResultSchema,
  envelopeSchema,
  errorLogEntrySchema,
  flowLogEntrySchema,
  loginResultSchema,
  pageOf,
  publicKeySchema,
  roleSchema,
  unitInfoSchema,
  userInfoResultSchema,
  userInfoSchema,
} from './wire';

// The shapes are JSON Schemas in wire.ts (the server's route schemas); their types are derived
// here, so the browser's types, the server's validation and the OpenAPI document cannot drift.

/** Every JSON reply, success or failure. `result` is the string "true" or "false". */
export type Envelope<T = unknown> = FromSchema<typeof envelopeSchema> & { data?: T };

/** A page of rows. */
export type Page<T> = Omit<FromSchema<ReturnType<typeof pageOf<{ type: 'object' }>>>, 'list'> & { list: T[] };

export type Role = FromSchema<typeof roleSchema>;

export type UserInfo = FromSchema<typeof userInfoSchema>;

/** `data` of a successful POST /a/login (the same fields are also copied to the top level). */
export type LoginResult = FromSchema<typeof loginResultSchema>;

/** `data` of GET /a/stone/common/publicKey. */
export type PublicKeyInfo = FromSchema<typeof publicKeySchema>;

/** `data` of GET /a/stone/user/info. */
export type UserInfoResult = FromSchema<typeof userInfoResultSchema>;

/** `data` of POST /a/stone/user/changeRole. */
export type ChangeRoleResult = FromSchema<typeof changeRoleResultSchema>;

/** `data` of GET /a/stone/user/unit (the current user's unit). */
export type UnitInfo = FromSchema<typeof unitInfoSchema>;

/** Runtime configuration the server hands to the browser (the "externally supplied config"). */
export type AppConfig = FromSchema<typeof appConfigSchema>;

/** One entry of a record's workflow log (`/r/<resource>/flowLog/:id`): who, when, from, to, opinion. */
export type FlowLogEntry = FromSchema<typeof flowLogEntrySchema>;

/** One change of a record (`/r/<resource>/auditLog/:id`): who, when, which operation, fields before → after. */
export type AuditEntry = FromSchema<typeof auditEntrySchema>;

/** The error log entry of the original portal. */
export type ErrorLogEntry = FromSchema<typeof errorLogEntrySchema>;

/** Original API paths, relative to the API base. */
export const API = {
  publicKey: '/a/stone/common/publicKey',
  captcha: '/a/stone/common/images/captcha',
  appConfig: '/a/stone/common/appConfig',
  login: '/a/login',
  logout: '/a/logout',
  userInfo: '/a/stone/user/info',
  getUserInfo: '/a/sys/user/getUserInfo',
  changeRole: '/a/stone/user/changeRole',
  updateInfo: '/a/stone/user/updateInfo',
  updatePwd: '/a/stone/user/updatePwd',
  unit: '/a/stone/user/unit',
  /** Company info query used by logout (returns ssoUserId); the original API shows no path for it, this one is ours. */
  companyInfo: '/a/stone/unit/companyInfo',
  /** Sub-accounts of the current unit (system menu: /system/bypassAccount). */
  bypassAccountList: '/a/stone/unit/bypassAccount/list',
  saveErrorLogger: '/save_error_logger',
  /** Attachments (legacy paths; multipart upload, list by attrefsysid, delete and download by attsysid). */
  attachmentUpload: '/a/stone/attachment/upload',
  attachmentAttUpload: '/a/stone/attachment/attUpload',
  attachmentList: '/a/stone/attachment/findAttList',
  attachmentDelete: '/a/stone/attachment/delete',
  attachmentDownload: '/a/stone/attachment/download',
} as const;

/**
 * Canonical attachment routes, relative to the API base: `upload` (multipart, optional field
 * `refId`), `list?refId=`, `download/<id>`, `delete/<id>`.
 */
export const ATTACHMENT_ROUTES = {
  upload: '/attachments/upload',
  list: '/attachments/list',
  download: '/attachments/download',
  delete: '/attachments/delete',
  /** A visitor's file for an application not filed yet (no session; src/server/domain/account-apply/uploads.ts). */
  visitorUpload: '/a/stone/common/applyUpload',
} as const;

/** One stored attachment as the attachment routes answer it (legacy names attsysid / attrefsysid too). */
export type AttachmentInfo = FromSchema<typeof attachmentInfoSchema>;

/** The flag each row of a list of a resource with `readMarks` carries: true while the user has not opened it. */
export const UNREAD_FLAG = '_unread';

/** Session token names: query parameter or cookie. */
export const SESSION_PARAM = '__sid';
export const EXTEND_PARAM = '__extend';
