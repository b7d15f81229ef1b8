/**
 * The wire contract shared by the browser and the server: the JeeSite-style envelope, the session
 * and user shapes, and the original API paths (SPEC.md §7). Both sides import from here, so a path
 * or a field name is written once.
 *
 * All paths below are relative to the API base (`/espServer` by default, PORTAL_API_BASE).
 */

/** Every JSON reply, success or failure. `result` is the string "true" or "false". */
export interface Envelope<T = unknown> {
  result: 'true' | 'false';
  success: boolean;
  isSuccess: boolean;
  message: string;
  errorMsg?: string;
  /** Stable error code from the server's error catalogue (absent on success). */
  code?: string;
  data?: T;
}

/** A page of rows. */
export interface Page<T> {
  pageNo: number;
  pageSize: number;
  count: number;
  list: T[];
  /** Set when more rows match than were counted: `count` is a lower bound (lists over millions of rows). */
  countCapped?: boolean;
}

export interface Role {
  id: string;
  name: string;
  /** e.g. 'unit' (using unit), 'authority' (supervision), 'maintenance'. */
  roleType: string;
  /** Permitted menu access ids (see schemas/menu.json `access`). */
  menuIdList: string[];
}

export interface UserInfo {
  id: string;
  loginName: string;
  name: string;
  phone?: string | null;
  mobile?: string | null;
  idCard?: string | null;
  userUnitAreacode?: string | null;
  currentRole: { id: string; roleType: string; name: string } | null;
  officeId?: string | null;
  /** 1 for the unit's seed user, who sees the system menu. */
  isUserSeed: 0 | 1;
  /** True when the password used at login scored below 3 (SPEC.md §4). */
  simplePwd: boolean;
  /** 1 for a sub-account (bypass account): marked in the header. */
  basicUnitFlag: 0 | 1;
  /** Name of the user's organisation, for the welcome line. */
  orgName?: string | null;
  ssoUserId?: string | null;
}

/** `data` of a successful POST /a/login (the same fields are also copied to the top level). */
export interface LoginResult {
  sessionid: string;
  sessionId: string;
  extendSessionId: string;
  user: UserInfo;
  roleList: Role[];
}

/** `data` of GET /a/stone/user/info. */
export interface UserInfoResult {
  user: UserInfo;
  roleList: Role[];
  userSsoInfo: { ssoUserId?: string | null; ssoToken?: string | null } | null;
}

/** `data` of POST /a/stone/user/changeRole. */
export interface ChangeRoleResult {
  currentRole: { id: string; roleType: string; name: string };
  menuIdList: string[];
}

/** `data` of GET /a/stone/user/unit (the current user's unit). */
export interface UnitInfo {
  id: string;
  orgname: string;
  /** Unified social credit code (GB 32100). */
  orgcode: string;
  areacode: string;
  address?: string | null;
  contact?: string | null;
  contactPhone?: string | null;
  unitType?: string | null;
}

/** Runtime configuration the server hands to the browser (the "externally supplied config"). */
export interface AppConfig {
  productName: string;
  cityName: string;
  platformTitle: string;
  feedbackUrl?: string | null;
  supportNote?: string | null;
  manualUrl?: string | null;
  /** Where a browser that never logged in is sent instead of /login (SPEC.md §2). */
  ssoEntryUrl?: string | null;
  /** External page a user with ssoUserId goes to after logout. */
  ssoLogoutUrl?: string | null;
  /** Force the change-password modal for simple passwords. */
  mustUpdatePwd: boolean;
  /** Whether the login form asks for a captcha (false only in test configuration). */
  captchaEnabled: boolean;
  /** Hours a remembered-login cookie lives (SPEC.md §9 "cookie-expiry hours"). */
  cookieExpiresHours: number;
  provinceCode: string;
  areaCode: string;
}

/** One entry of a record's workflow log (`/r/<resource>/flowLog/:id`): who, when, from, to, opinion. */
export interface FlowLogEntry {
  id: string;
  action: string;
  fromState: string | null;
  toState: string | null;
  opinion: string | null;
  userId: string;
  userName: string;
  createDate: string;
}

/** The error log entry of SPEC.md §3. */
export interface ErrorLogEntry {
  type: string;
  code: number | string;
  mes: string;
  url: string;
  time?: string;
  token?: string;
  userId?: string;
  userName?: string;
}

/** Original API paths (SPEC.md §7), relative to the API base. */
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
  /** Company info query used by logout (returns ssoUserId); path not shown in SPEC, ours. */
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
} as const;

/** One stored attachment as the attachment routes answer it (legacy names attsysid / attrefsysid too). */
export interface AttachmentInfo {
  id: string;
  attsysid: string;
  /** The record the file belongs to; null until that record is saved. */
  attrefsysid: string | null;
  name: string;
  size: number;
  mime: string;
  sha256: string;
  /** Download address (absolute path including the API base); needs the session cookie or `__sid`. */
  url: string;
  createDate: string;
}

/** Session token names: query parameter or cookie. */
export const SESSION_PARAM = '__sid';
export const EXTEND_PARAM = '__extend';
