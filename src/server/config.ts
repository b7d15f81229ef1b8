/**
 * Server configuration, read once from the environment. Every setting is declared in one table
 * (name, default, description) so the README and `--help`-style listings come from the same place.
 */
import { resolve } from 'node:path';
import type { AppConfig } from '../shared/contract';

export interface Config {
  port: number;
  host: string;
  /** PostgreSQL connection string; null selects the embedded PGlite in `dataDir`. */
  databaseUrl: string | null;
  /** PGlite data directory, or `memory://` for a throw-away in-memory database. */
  dataDir: string;
  /** Where the embedded database templates are kept; null = node_modules/.cache/portal. */
  cacheDir: string | null;
  /** Prefix of every API route (the original `espServer`). */
  apiBase: string;
  captchaEnabled: boolean;
  /** Sessions expire after this many minutes without a request. */
  sessionTtlMinutes: number;
  /** Login requests per minute per client IP: a high ceiling, many people may share one address. */
  loginRateLimit: number;
  /** Login requests per minute for one login name, from all addresses. */
  loginAccountRateLimit: number;
  /** Login requests per minute for one login name from one address. */
  loginIpAccountRateLimit: number;
  /** Captcha images per minute per client IP. */
  captchaRateLimit: number;
  /** Most unexpired captchas kept; over it the oldest are dropped (their logins fail as 验证码错误). */
  captchaCap: number;
  /** Browser error reports per minute per visitor IP (a signed-in user may send ten times as many). */
  errorLogRateLimit: number;
  /** Most error reports from visitors (no session) kept; the housekeeping job drops the oldest. */
  visitorErrorLogCap: number;
  /** Days an error report is kept. */
  errorLogDays: number;
  /** Minutes between housekeeping runs (expired captchas, sessions, counters, old error reports). */
  housekeepingMinutes: number;
  mustUpdatePwd: boolean;
  /** Directory of the built front end served with SPA fallback; null serves the API only. */
  staticDir: string | null;
  /** Directory holding resources/, dicts/ and meta/; null = the repository's schemas/. */
  schemaDir: string | null;
  /** Most rows one XLSX export may hold; a larger selection is refused with a Chinese message. */
  exportMaxRows: number;
  /** Most data rows one XLSX import may hold; a larger file is refused before any row is read into the database. */
  importMaxRows: number;
  /** Largest attachment file accepted, in MB (fractions allowed). */
  attachmentMaxMb: number;
  /** Directory holding attachment files; null = `<dataDir>/attachments` (a temporary directory for `memory://`). */
  attachmentDir: string | null;
  /** Who delivers text messages (services/sms.ts): `outbox` (table sys_sms_outbox and the log) or `log` (the log only). */
  smsProvider: 'outbox' | 'log';
  /** Trust X-Forwarded-For (behind a load balancer), so rate limits and logs see the client IP. */
  trustProxy: boolean;
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  cityName: string;
  platformTitle: string;
  productName: string;
  feedbackUrl: string | null;
  supportNote: string | null;
  manualUrl: string | null;
  /** The gas-cylinder traceability system the self-service menu links to (SPEC.md §2 gas-cylinder); null hides the item. */
  gasCylinderUrl: string | null;
  ssoEntryUrl: string | null;
  ssoLogoutUrl: string | null;
  cookieExpiresHours: number;
  /** Role types that oversee the rows of their area (audit them) besides their own unit's. */
  oversightRoleTypes: readonly string[];
  provinceCode: string;
  areaCode: string;
}

type Parser<T> = (raw: string) => T;

interface Setting<K extends keyof Config> {
  env: string;
  key: K;
  parse: Parser<Config[K]>;
  fallback: Config[K];
  description: string;
}

const text: Parser<string> = (raw) => raw;
const optionalText: Parser<string | null> = (raw) => raw || null;
const onOff: Parser<boolean> = (raw) => !['off', 'false', '0', 'no'].includes(raw.trim().toLowerCase());
const positiveInt: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`expected a positive integer, got "${raw}"`);
  return n;
};
const port: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`expected a port number 0–65535, got "${raw}"`);
  return n;
};
const list: Parser<readonly string[]> = (raw) => raw.split(',').map((s) => s.trim()).filter(Boolean);
const positiveNumber: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`expected a positive number, got "${raw}"`);
  return n;
};
const oneOf =
  <T extends string>(values: readonly T[]): Parser<T> =>
  (raw) => {
    if (!(values as readonly string[]).includes(raw)) throw new Error(`expected one of ${values.join(', ')}`);
    return raw as T;
  };
const httpUrl: Parser<string | null> = (raw) => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`expected an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`expected an http(s) URL, got "${raw}"`);
  return url.toString();
};
const apiPrefix: Parser<string> = (raw) => `/${raw.replace(/^\/+|\/+$/g, '')}`;

function setting<K extends keyof Config>(env: string, key: K, parse: Parser<Config[K]>, fallback: Config[K], description: string): Setting<K> {
  return { env, key, parse, fallback, description };
}

/** Every environment variable the server reads. */
export const SETTINGS = [
  setting('PORT', 'port', port, 8080, 'HTTP port (0 takes a free one; the start-up banner shows it)'),
  setting('HOST', 'host', text, '127.0.0.1', 'listen address'),
  setting('DATABASE_URL', 'databaseUrl', optionalText, null, 'PostgreSQL URL; unset = embedded PGlite'),
  setting('PORTAL_DATA_DIR', 'dataDir', text, './data', 'PGlite data directory (`memory://` for in-memory)'),
  setting('PORTAL_CACHE_DIR', 'cacheDir', optionalText, null, 'embedded database templates; unset = `node_modules/.cache/portal` (see Start-up)'),
  setting('PORTAL_API_BASE', 'apiBase', apiPrefix, '/espServer', 'prefix of every API route'),
  setting('PORTAL_CAPTCHA', 'captchaEnabled', onOff, true, '`off` disables the login captcha (tests only; logs a warning)'),
  setting('PORTAL_SESSION_TTL_MINUTES', 'sessionTtlMinutes', positiveNumber, 30, 'session inactivity expiry in minutes'),
  setting('PORTAL_LOGIN_RATE_LIMIT', 'loginRateLimit', positiveInt, 300, 'login requests per minute per IP (a ceiling: one NAT may hold many companies)'),
  setting('PORTAL_LOGIN_ACCOUNT_RATE_LIMIT', 'loginAccountRateLimit', positiveInt, 20, 'login requests per minute for one login name, from all addresses'),
  setting('PORTAL_LOGIN_IP_ACCOUNT_RATE_LIMIT', 'loginIpAccountRateLimit', positiveInt, 10, 'login requests per minute for one login name from one IP'),
  setting('PORTAL_CAPTCHA_RATE_LIMIT', 'captchaRateLimit', positiveInt, 120, 'captcha images per minute per IP'),
  setting('PORTAL_CAPTCHA_CAP', 'captchaCap', positiveInt, 5000, 'most unexpired captchas kept (the oldest are dropped over it)'),
  setting('PORTAL_ERROR_LOG_RATE_LIMIT', 'errorLogRateLimit', positiveInt, 10, 'browser error reports per minute per visitor IP (×10 for a signed-in user)'),
  setting('PORTAL_VISITOR_ERROR_LOG_CAP', 'visitorErrorLogCap', positiveInt, 10_000, 'most error reports without a session kept (the oldest are pruned)'),
  setting('PORTAL_ERROR_LOG_DAYS', 'errorLogDays', positiveInt, 90, 'days an error report is kept'),
  setting('PORTAL_HOUSEKEEPING_MINUTES', 'housekeepingMinutes', positiveNumber, 10, 'minutes between housekeeping runs (expired captchas, sessions, counters, old error reports)'),
  setting('PORTAL_MUST_UPDATE_PWD', 'mustUpdatePwd', onOff, true, 'force the change-password dialog for simple passwords'),
  setting('PORTAL_STATIC_DIR', 'staticDir', optionalText, null, 'built front end to serve (`npm start` uses dist/)'),
  setting('PORTAL_SCHEMA_DIR', 'schemaDir', optionalText, null, 'schema directory (resources/, dicts/); unset = the repository\'s schemas/'),
  setting('PORTAL_EXPORT_MAX_ROWS', 'exportMaxRows', positiveInt, 200_000, 'most rows one XLSX export may hold'),
  setting('PORTAL_IMPORT_MAX_ROWS', 'importMaxRows', positiveInt, 5000, 'most data rows one XLSX import may hold'),
  setting('PORTAL_ATTACHMENT_MAX_MB', 'attachmentMaxMb', positiveNumber, 20, 'largest attachment file accepted, in MB (also the largest import file)'),
  setting('PORTAL_SMS_PROVIDER', 'smsProvider', oneOf(['outbox', 'log'] as const), 'outbox', 'text-message provider: `outbox` writes each message to table sys_sms_outbox and the log (demo), `log` to the log only'),
  setting('PORTAL_ATTACHMENT_DIR', 'attachmentDir', optionalText, null, 'attachment file directory; unset = `<PORTAL_DATA_DIR>/attachments` (a temporary directory for `memory://`)'),
  setting('PORTAL_TRUST_PROXY', 'trustProxy', onOff, false, '`on` behind a load balancer: client IP from X-Forwarded-For'),
  setting('LOG_LEVEL', 'logLevel', text, 'info', 'log level (silent, error, warn, info, debug)'),
  setting('PORTAL_CITY_NAME', 'cityName', text, '宁波市', 'city shown before the platform title'),
  setting('PORTAL_PLATFORM_TITLE', 'platformTitle', text, '特种设备企业服务平台', 'platform title in the header'),
  setting('PORTAL_PRODUCT_NAME', 'productName', text, '特种设备企业服务平台', 'product name (browser title)'),
  setting('PORTAL_FEEDBACK_URL', 'feedbackUrl', optionalText, null, 'problem-feedback link (hidden when unset)'),
  setting('PORTAL_SUPPORT_NOTE', 'supportNote', optionalText, '技术支持：工作日 9:00–17:00', 'support note in the header'),
  setting('PORTAL_MANUAL_URL', 'manualUrl', optionalText, null, 'operation manual download (hidden when unset)'),
  setting('PORTAL_GAS_CYLINDER_URL', 'gasCylinderUrl', httpUrl, null, 'gas-cylinder traceability system (自助服务 › 气瓶追溯, opens in a new window with the SSO token; hidden when unset)'),
  setting('PORTAL_SSO_ENTRY_URL', 'ssoEntryUrl', optionalText, null, 'SSO entry for browsers that never logged in'),
  setting('PORTAL_SSO_LOGOUT_URL', 'ssoLogoutUrl', optionalText, null, 'page a user with ssoUserId goes to after logout'),
  setting('PORTAL_COOKIE_EXPIRES_HOURS', 'cookieExpiresHours', positiveNumber, 8, 'hours a remembered-login cookie lives'),
  setting('PORTAL_OVERSIGHT_ROLE_TYPES', 'oversightRoleTypes', list, ['authority'], 'role types that oversee their area\'s rows (comma-separated)'),
  setting('PORTAL_PROVINCE_CODE', 'provinceCode', text, '330000', 'default province code'),
  setting('PORTAL_AREA_CODE', 'areaCode', text, '330200', 'default area code'),
] as const;

/** Builds the configuration from `env` (default: process.env); invalid values throw at start. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const config = {} as Record<keyof Config, unknown>;
  for (const s of SETTINGS as readonly Setting<keyof Config>[]) {
    const raw = env[s.env];
    if (raw === undefined || raw === '') {
      config[s.key] = s.fallback;
      continue;
    }
    try {
      config[s.key] = s.parse(raw);
    } catch (err) {
      throw new Error(`invalid ${s.env}: ${(err as Error).message}`);
    }
  }
  const result = config as Config;
  if (!result.dataDir.startsWith('memory://')) result.dataDir = resolve(result.dataDir);
  if (result.staticDir) result.staticDir = resolve(result.staticDir);
  if (result.schemaDir) result.schemaDir = resolve(result.schemaDir);
  if (result.attachmentDir) result.attachmentDir = resolve(result.attachmentDir);
  return result;
}

/** The public part of the configuration handed to the browser. */
export function toAppConfig(config: Config): AppConfig {
  return {
    productName: config.productName,
    cityName: config.cityName,
    platformTitle: config.platformTitle,
    feedbackUrl: config.feedbackUrl,
    supportNote: config.supportNote,
    manualUrl: config.manualUrl,
    links: config.gasCylinderUrl ? { gasCylinder: config.gasCylinderUrl } : {},
    ssoEntryUrl: config.ssoEntryUrl,
    ssoLogoutUrl: config.ssoLogoutUrl,
    mustUpdatePwd: config.mustUpdatePwd,
    captchaEnabled: config.captchaEnabled,
    cookieExpiresHours: config.cookieExpiresHours,
    provinceCode: config.provinceCode,
    areaCode: config.areaCode,
  };
}
