/**
 * The error catalogue: every error a client can see, as data. Handlers throw `AppError` with a
 * stable code; the error-handler plugin turns it into the envelope with the Chinese message and
 * the HTTP status listed here. No handler builds a user-facing message string itself.
 *
 * Business-rule failures (wrong password, wrong captcha, ...) answer HTTP 200 with result "false",
 * as JeeSite clients expect; protocol failures use the matching 4xx/5xx status.
 */
export const ERRORS = {
  BAD_REQUEST: { status: 400, message: '请求参数错误' },
  /** A text with a NUL character (\u0000): no field may hold one, and PostgreSQL refuses it. */
  TEXT_INVALID_CHARACTER: { status: 400, message: '输入内容含有无效字符，请删除后重试' },
  /** The address is not valid UTF-8 or has a bad percent-escape. */
  BAD_URL: { status: 400, message: '请求地址无效' },
  MULTIPART_INVALID: { status: 400, message: '上传内容不完整或格式错误，请重新选择文件上传' },
  UNAUTHENTICATED: { status: 401, message: '登录已过期，请重新登录' },
  FORBIDDEN: { status: 403, message: '无权访问' },
  NOT_FOUND: { status: 404, message: '请求的接口不存在' },
  METHOD_NOT_ALLOWED: { status: 405, message: '请求方法不被允许' },
  PAYLOAD_TOO_LARGE: { status: 413, message: '请求内容过大' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: '不支持的请求内容类型' },
  RATE_LIMITED: { status: 429, message: '请求过于频繁，请稍后再试' },
  INTERNAL: { status: 500, message: '服务器内部错误，请稍后再试' },

  CAPTCHA_INVALID: { status: 200, message: '验证码错误' },
  CREDENTIALS_UNDECRYPTABLE: { status: 200, message: '登录信息无法解密，请刷新页面后重试' },
  INVALID_CREDENTIALS: { status: 200, message: '账号或密码错误' },
  ORG_CODE_MISMATCH: { status: 200, message: '组织机构代码错误' },
  ACCOUNT_LOCKED: { status: 200, message: '账号已锁定，请15分钟后再试' },
  LOGIN_THROTTLED: { status: 429, message: '该账号登录尝试过于频繁，请1分钟后再试' },
  ACCOUNT_DISABLED: { status: 200, message: '账号已停用，请联系管理员' },
  ACCOUNT_WITHOUT_ROLE: { status: 200, message: '账号未分配角色，请联系管理员' },
  SSO_TOKEN_INVALID: { status: 200, message: '单点登录凭证无效或已过期' },
  ROLE_NOT_OWNED: { status: 200, message: '无权切换到该角色' },
  OLD_PASSWORD_WRONG: { status: 200, message: '原密码错误' },
  PASSWORD_RULE: { status: 200, message: '请输入8-14位含字母、数字和特殊符号的密码' },
  PASSWORD_UNCHANGED: { status: 200, message: '新密码不能与原密码相同' },
  /** The session's password was set by an administrator (`npm run admin`): every call but the change is refused. */
  PASSWORD_MUST_CHANGE: { status: 403, message: '请先修改管理员设置的初始密码' },
  /** The password is older than PORTAL_PASSWORD_MAX_AGE_DAYS: as PASSWORD_MUST_CHANGE; the message names the days. */
  PASSWORD_EXPIRED: { status: 403, message: '密码已超过规定期限未修改，请修改密码后继续使用' },
  /** The new password is one of the account's last PORTAL_PASSWORD_HISTORY; data carries { count }, the message names it. */
  PASSWORD_REUSED: { status: 200, message: '新密码不能与最近使用过的密码相同' },
  /** The session was ended by a newer login of its account (PORTAL_SINGLE_SESSION). */
  SESSION_SUPERSEDED: { status: 401, message: '您的账号已在其他地方登录，当前会话已结束' },
  MOBILE_INVALID: { status: 200, message: '请输入有效的手机号码' },
  PHONE_INVALID: { status: 200, message: '请输入有效的手机号或者座机号' },
  ID_CARD_INVALID: { status: 200, message: '请输入有效的身份证号' },

  // Generic resource engine (src/server/resources).
  /** Body fails the resource's field rules; the message is the field's own (validator catalogue) text. */
  VALIDATION_FAILED: { status: 400, message: '提交的数据不符合要求' },
  /** Unknown id, or a row outside the caller's unit/area: the same answer, so existence never leaks. */
  RECORD_NOT_FOUND: { status: 200, message: '记录不存在或无权访问' },
  WRONG_STATE: { status: 200, message: '当前状态不允许此操作' },
  /** A document (resource `document`) asked for in a state it does not print in (a draft, a returned application). */
  DOCUMENT_NOT_PRINTABLE: { status: 200, message: '该记录尚未审核通过或提交，不能打印' },
  /** The open verification of a document: unknown token. */
  DOCUMENT_NOT_FOUND: { status: 200, message: '未找到该文书，请核对二维码或验证链接' },
  ACTION_NOT_PERMITTED: { status: 403, message: '当前角色无权执行此操作' },
  OPINION_REQUIRED: { status: 200, message: '请填写审核意见' },
  STALE_VERSION: { status: 200, message: '数据已被他人修改，请刷新后重试' },
  DUPLICATE_VALUE: { status: 200, message: '数据已存在，不能重复' },
  /** An export would exceed PORTAL_EXPORT_MAX_ROWS; data carries { count, max }. */
  EXPORT_TOO_LARGE: { status: 200, message: '导出数据量超过上限，请缩小查询范围后再导出' },
  /** An import request without a file part (or with an empty file name). */
  IMPORT_FILE_MISSING: { status: 400, message: '请选择要导入的 Excel 文件' },
  /** Not an .xlsx workbook (extension, magic bytes PK\x03\x04, or exceljs cannot read it). */
  IMPORT_NOT_XLSX: { status: 200, message: '仅支持导入 Excel（.xlsx）文件，请下载导入模板填写后上传' },
  /** Larger than PORTAL_ATTACHMENT_MAX_MB; data carries { maxMb }. */
  IMPORT_FILE_TOO_LARGE: { status: 200, message: '导入文件大小超过上限，请分批导入' },
  IMPORT_EMPTY: { status: 200, message: '文件中没有可导入的数据行' },
  /** More data rows than PORTAL_IMPORT_MAX_ROWS; data carries { count, max }, the message names max. */
  IMPORT_TOO_MANY_ROWS: { status: 200, message: '导入数据行数超过上限，请分批导入' },
  /**
   * Some rows (or the header) are wrong: nothing was imported. data carries { problems: [{ row,
   * field, message }] (the first 100), total }; the message names the first problem.
   */
  IMPORT_INVALID: { status: 200, message: '导入数据有误，未导入任何数据' },

  // Attachments (src/server/services/attachments.ts).
  /** attrefsysid missing or not a record id. */
  ATTACHMENT_REF_INVALID: { status: 400, message: '请求参数错误：attrefsysid' },
  /** The upload carried no file part (or an empty file name). */
  ATTACHMENT_MISSING: { status: 400, message: '请选择要上传的文件' },
  /** Larger than PORTAL_ATTACHMENT_MAX_MB; data carries { maxMb }. Nothing is stored. */
  ATTACHMENT_TOO_LARGE: { status: 200, message: '附件大小超过上限，请压缩后重新上传' },
  ATTACHMENT_EMPTY: { status: 200, message: '附件内容为空，请重新选择文件' },
  /** The extension is not on the allowed list; data carries { allowed }. */
  ATTACHMENT_TYPE_NOT_ALLOWED: { status: 200, message: '不支持的附件类型，仅支持 PDF、JPG、PNG、DOC、DOCX 文件' },
  /** The bytes are not what the extension claims (e.g. a renamed .pdf). */
  ATTACHMENT_CONTENT_MISMATCH: { status: 200, message: '附件内容与文件类型不符，请上传真实的文件' },
  /** Unknown id, or an attachment outside the caller's unit (or oversight area): existence never leaks. */
  ATTACHMENT_NOT_FOUND: { status: 404, message: '附件不存在或无权访问' },
} as const satisfies Record<string, { status: number; message: string }>;

export interface ErrorDefinition {
  status: number;
  message: string;
}

/** A code of the core catalogue above. */
export type CoreErrorCode = keyof typeof ERRORS;

declare const featureBrand: unique symbol;
/** A code a domain feature added to the catalogue with `defineErrors` (src/server/domain/<feature>/errors.ts). */
export type FeatureErrorCode = string & { readonly [featureBrand]: true };

export type ErrorCode = CoreErrorCode | FeatureErrorCode;

const CATALOGUE = new Map<string, ErrorDefinition>(Object.entries(ERRORS));

/**
 * Adds a domain feature's own errors to the catalogue (the core above names no feature); returns
 * their codes for `new AppError(CODES.X)`. A code may be defined once.
 */
export function defineErrors<const T extends Record<string, ErrorDefinition>>(definitions: T): { readonly [K in keyof T]: FeatureErrorCode } {
  const codes: Record<string, FeatureErrorCode> = {};
  for (const [code, definition] of Object.entries(definitions)) {
    const known = CATALOGUE.get(code);
    if (known && known !== definition) throw new Error(`error code ${code} is defined twice`);
    CATALOGUE.set(code, definition);
    codes[code] = code as FeatureErrorCode;
  }
  return codes as { readonly [K in keyof T]: FeatureErrorCode };
}

/** Every catalogued error (the core and the features loaded so far), by code. */
export function errorCatalogue(): ReadonlyMap<string, ErrorDefinition> {
  return CATALOGUE;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly statusCode: number;
  /** Machine-readable detail for the client, e.g. `{ field }` of a validation failure. */
  readonly data?: Record<string, unknown>;

  /** `message` overrides the catalogue text only for messages that are themselves catalogued
   *  elsewhere (e.g. a validator's Chinese message); never pass technical detail here. */
  constructor(code: ErrorCode, message?: string, data?: Record<string, unknown>) {
    const definition = CATALOGUE.get(code);
    if (!definition) throw new Error(`error code ${code} is not in the catalogue`);
    super(message ?? definition.message);
    if (data) this.data = data;
    this.name = 'AppError';
    this.code = code;
    this.statusCode = definition.status;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/** Maps Fastify's own error codes (FST_ERR_*) and plain HTTP statuses onto the catalogue. */
export function codeForStatus(status: number): CoreErrorCode {
  switch (status) {
    case 400:
      return 'BAD_REQUEST';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 429:
      return 'RATE_LIMITED';
    default:
      return status >= 400 && status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
  }
}
