/**
 * The wire shapes of the contract as JSON Schema, written once. The server registers them as route
 * schemas (request validation, reply serialisation, the OpenAPI document); contract.ts derives the
 * TypeScript types both sides use from the same objects (json-schema-to-ts `FromSchema`, types
 * only). A field added here is in the types, the validation and the documentation at once.
 *
 * Plain data: no imports, so the browser bundle takes none of it unless it reads a schema.
 */

const str = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const int = { type: 'integer' } as const;

export const roleRefSchema = {
  type: 'object',
  properties: { id: str, roleType: str, name: str },
  required: ['id', 'roleType', 'name'],
  additionalProperties: false,
} as const;

export const roleSchema = {
  type: 'object',
  properties: {
    id: str,
    name: str,
    roleType: { type: 'string', description: "e.g. 'unit' (using unit), 'authority' (supervision), 'maintenance'." },
    menuIdList: { type: 'array', items: str, description: 'Permitted menu access ids (see schemas/menu.json `access`).' },
  },
  required: ['id', 'name', 'roleType', 'menuIdList'],
  additionalProperties: false,
} as const;

export const userInfoSchema = {
  type: 'object',
  properties: {
    id: str,
    loginName: str,
    name: str,
    phone: nullableString,
    mobile: nullableString,
    idCard: nullableString,
    userUnitAreacode: nullableString,
    currentRole: { anyOf: [roleRefSchema, { type: 'null' }] },
    officeId: nullableString,
    isUserSeed: { type: 'integer', enum: [0, 1], description: "1 for the unit's seed user, who sees the system menu." },
    simplePwd: { type: 'boolean', description: 'True when the password used at login scored below 3 (as in the original portal).' },
    passwordMustChange: {
      type: 'boolean',
      description:
        'True when the password must be changed first (passwordChangeReason): the change-password dialog is forced and every other call is refused until the user changes it.',
    },
    passwordChangeReason: {
      type: ['string', 'null'],
      enum: ['administrator', 'expired', null],
      description:
        'Why the password must be changed: `administrator` (set with `npm run admin`) or `expired` (older than PORTAL_PASSWORD_MAX_AGE_DAYS); null when it need not.',
    },
    basicUnitFlag: { type: 'integer', enum: [0, 1], description: '1 for a sub-account (bypass account): marked in the header.' },
    orgName: { type: ['string', 'null'], description: "Name of the user's organisation, for the welcome line." },
    ssoUserId: nullableString,
  },
  required: ['id', 'loginName', 'name', 'currentRole', 'isUserSeed', 'simplePwd', 'basicUnitFlag'],
  additionalProperties: false,
} as const;

const unitInfoProperties = {
  id: str,
  orgname: str,
  orgcode: { type: 'string', description: 'Unified social credit code (GB 32100).' },
  areacode: str,
  address: nullableString,
  contact: nullableString,
  contactPhone: nullableString,
  unitType: nullableString,
} as const;

/** `data` of GET /a/stone/user/unit (the current user's unit). */
export const unitInfoSchema = {
  type: 'object',
  properties: unitInfoProperties,
  required: ['id', 'orgname', 'orgcode', 'areacode'],
  additionalProperties: false,
} as const;

/** The unit with the SSO user id (company info, asked for by logout). */
export const companyInfoSchema = {
  type: 'object',
  properties: { ...unitInfoProperties, ssoUserId: nullableString },
  required: unitInfoSchema.required,
  additionalProperties: false,
} as const;

export const loginResultProperties = {
  sessionid: str,
  sessionId: str,
  extendSessionId: str,
  user: userInfoSchema,
} as const;

/** `data` of a successful POST /a/login (the same fields are also copied to the top level). */
export const loginResultSchema = {
  type: 'object',
  properties: { ...loginResultProperties, roleList: { type: 'array', items: roleSchema } },
  required: ['sessionid', 'sessionId', 'extendSessionId', 'user', 'roleList'],
  additionalProperties: false,
} as const;

/** `data` of GET /a/stone/user/info. */
export const userInfoResultSchema = {
  type: 'object',
  properties: {
    user: userInfoSchema,
    roleList: { type: 'array', items: roleSchema },
    userSsoInfo: {
      anyOf: [{ type: 'object', properties: { ssoUserId: nullableString, ssoToken: nullableString }, additionalProperties: false }, { type: 'null' }],
    },
  },
  required: ['user', 'roleList', 'userSsoInfo'],
  additionalProperties: false,
} as const;

/** `data` of POST /a/stone/user/changeRole. */
export const changeRoleResultSchema = {
  type: 'object',
  properties: { currentRole: roleRefSchema, menuIdList: { type: 'array', items: str } },
  required: ['currentRole', 'menuIdList'],
  additionalProperties: false,
} as const;

/** `data` of GET /a/stone/common/publicKey: the key the login page encrypts its fields with. */
export const publicKeySchema = {
  type: 'object',
  properties: {
    publicKey: { type: 'string', description: 'RSA-OAEP: SPKI PEM. SM2: the uncompressed point in hex (04‖x‖y).' },
    algorithm: {
      type: 'string',
      enum: ['RSA-OAEP', 'SM2'],
      description: 'RSA-OAEP (SHA-256, base64 fields) by default; SM2 (C1C3C2, hex fields) with PORTAL_CRYPTO=sm.',
    },
  },
  required: ['publicKey', 'algorithm'],
  additionalProperties: false,
} as const;

/** Runtime configuration the server hands to the browser (the "externally supplied config"). */
export const appConfigSchema = {
  type: 'object',
  properties: {
    productName: str,
    cityName: str,
    platformTitle: str,
    feedbackUrl: nullableString,
    supportNote: nullableString,
    manualUrl: nullableString,
    links: {
      type: 'object',
      additionalProperties: str,
      description:
        "External links of the menu by name (a menu node's hrefSetting): the configured URLs only; a node whose link is not configured is not shown.",
    },
    ssoEntryUrl: { type: ['string', 'null'], description: 'Where a browser that never logged in is sent instead of /login (as in the original portal).' },
    ssoLogoutUrl: { type: ['string', 'null'], description: 'External page a user with ssoUserId goes to after logout.' },
    mustUpdatePwd: { type: 'boolean', description: 'Force the change-password modal for simple passwords.' },
    captchaEnabled: { type: 'boolean', description: 'Whether the login form asks for a captcha (false only in test configuration).' },
    cookieExpiresHours: { type: 'number', description: 'Hours a remembered-login cookie lives (the original portal’s "cookie-expiry hours").' },
    provinceCode: str,
    areaCode: str,
    attachmentMaxMb: { type: 'number', description: 'Largest attachment file the server accepts, in MB (the upload hint says it).' },
  },
  required: ['productName', 'cityName', 'platformTitle', 'links', 'mustUpdatePwd', 'captchaEnabled', 'cookieExpiresHours', 'provinceCode', 'areaCode'],
  additionalProperties: false,
} as const;

/** One entry of a record's workflow log (`/r/<resource>/flowLog/:id`): who, when, from, to, opinion. */
export const flowLogEntrySchema = {
  type: 'object',
  properties: {
    id: str,
    action: str,
    fromState: nullableString,
    toState: nullableString,
    opinion: nullableString,
    userId: str,
    userName: str,
    createDate: str,
  },
  required: ['id', 'action', 'fromState', 'toState', 'opinion', 'userId', 'userName', 'createDate'],
  additionalProperties: false,
} as const;

/** One change of a record (`/r/<resource>/auditLog/:id`): who, when, which operation, each field's text before and after. */
export const auditEntrySchema = {
  type: 'object',
  properties: {
    id: str,
    operation: str,
    userId: nullableString,
    userName: nullableString,
    createDate: str,
    changes: {
      type: 'array',
      items: {
        type: 'object',
        properties: { field: str, label: str, from: str, to: str },
        required: ['field', 'label', 'from', 'to'],
        additionalProperties: false,
      },
    },
  },
  required: ['id', 'operation', 'userId', 'userName', 'createDate', 'changes'],
  additionalProperties: false,
} as const;

/**
 * The error log entry of the original portal — type, code, mes, url plus time, token, userId, userName — as
 * the browser reports it. The server stores the browser's time beside its own receipt time, and
 * takes who reported it (user, token fingerprint) from the session, never from these claims.
 */
export const errorLogEntrySchema = {
  type: 'object',
  properties: {
    type: { type: 'string', maxLength: 50 },
    code: { anyOf: [{ type: 'string', maxLength: 50 }, { type: 'number' }] },
    mes: { type: 'string', maxLength: 8000 },
    url: { type: 'string', maxLength: 2000 },
    time: { type: 'string', maxLength: 40, description: "The browser's clock when the error happened (ISO 8601)." },
    token: {
      type: 'string',
      maxLength: 128,
      description: 'The session token the browser held (not stored: the server keeps a fingerprint of its own session).',
    },
    userId: { type: 'string', maxLength: 64, description: 'The signed-in user as the browser knows it (the server records the session user).' },
    userName: { type: 'string', maxLength: 100 },
  },
  required: ['type', 'code', 'mes', 'url'],
  additionalProperties: false,
} as const;

/** One stored attachment as the attachment routes answer it (legacy names attsysid / attrefsysid too). */
export const attachmentInfoSchema = {
  type: 'object',
  properties: {
    id: str,
    attsysid: str,
    attrefsysid: { type: ['string', 'null'], description: 'The record the file belongs to; null until that record is saved.' },
    name: str,
    size: int,
    mime: str,
    sha256: str,
    url: { type: 'string', description: 'Download address (absolute path including the API base); needs the session cookie or `__sid`.' },
    createDate: str,
  },
  required: ['id', 'attsysid', 'attrefsysid', 'name', 'size', 'mime', 'sha256', 'url', 'createDate'],
  additionalProperties: false,
} as const;

/** The files of one attachment field of a record (`/r/<resource>/attachments/<id>`): as stored on the record. */
export const fieldFilesSchema = {
  type: 'object',
  properties: {
    field: str,
    label: str,
    files: { type: 'array', items: { type: 'object', additionalProperties: true } },
  },
  required: ['field', 'label', 'files'],
  additionalProperties: false,
} as const;

const envelopeProperties = {
  result: { type: 'string', enum: ['true', 'false'], description: 'The string "true" or "false".' },
  success: { type: 'boolean' },
  isSuccess: { type: 'boolean' },
  message: str,
  errorMsg: str,
  code: { type: 'string', description: "Stable error code from the server's error catalogue (absent on success)." },
} as const;

/** The envelope without its `data`: the fields every JSON reply has, success or failure. */
export const envelopeSchema = {
  type: 'object',
  properties: envelopeProperties,
  required: ['result', 'success', 'isSuccess', 'message'],
  additionalProperties: false,
} as const;

/** `Envelope<T>`, every JSON reply; `extra` adds top-level properties (the login reply copies its data there). */
export function envelopeOf(data: object = {}, extra: Record<string, object> = {}) {
  return {
    type: 'object',
    properties: { ...envelopeProperties, data, ...extra },
    required: envelopeSchema.required,
  } as const;
}

/** `Page<T>`. */
export function pageOf<I extends object>(item: I) {
  return {
    type: 'object',
    properties: {
      pageNo: int,
      pageSize: int,
      count: int,
      list: { type: 'array', items: item },
      countCapped: { type: 'boolean', description: 'Set when more rows match than were counted: `count` is a lower bound (lists over millions of rows).' },
    },
    required: ['pageNo', 'pageSize', 'count', 'list'],
  } as const;
}

/** Query parameters of every paged list. */
export const pageQueryProperties = {
  pageNo: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
  pageSize: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
} as const;

/** The envelope reply every route may send on failure, for the OpenAPI document. */
export const failureResponses = {
  '4xx': envelopeOf(),
  '5xx': envelopeOf(),
} as const;
