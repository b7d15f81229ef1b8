/**
 * Server configuration, read once from the environment. Every setting is declared in one table
 * (name, default, description) so the README and `--help`-style listings come from the same place.
 */
import { isIP } from 'node:net';
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
  /** Minutes between housekeeping runs (expired captchas, sessions, counters, link tokens; old error reports, texts, audit rows). */
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
  /**
   * Whose X-Forwarded-For is believed, so rate limits and logs see the client IP: false (nobody),
   * true (everybody: only safe when no client can reach the process directly) or the balancers'
   * addresses and CIDR ranges (Fastify's trustProxy list).
   */
  trustProxy: boolean | readonly string[];
  /** Demo accounts and records in an empty database: `auto` = on the embedded default only. */
  demo: 'auto' | 'on' | 'off';
  /** Most PostgreSQL connections one process holds. */
  pgPoolMax: number;
  /** Milliseconds to wait for a new PostgreSQL connection (0 = no limit). */
  pgConnectTimeoutMs: number;
  /** Milliseconds a statement may run before PostgreSQL cancels it (0 = no limit). */
  pgStatementTimeoutMs: number;
  /** TLS to PostgreSQL: null = as DATABASE_URL says (sslmode=...), else disable / require / verify-ca / verify-full. */
  pgSslMode: 'disable' | 'require' | 'verify-ca' | 'verify-full' | null;
  /** PEM file of the CA that signed PostgreSQL's certificate (verify-ca / verify-full). */
  pgCaFile: string | null;
  /** Seconds a stopping process waits for requests in flight before it closes anyway. */
  shutdownTimeoutSeconds: number;
  /** Milliseconds each readiness check may take before /health/ready reports it failed. */
  healthTimeoutMs: number;
  /** Port of a separate listener serving only GET /metrics (null: none). */
  metricsPort: number | null;
  /** Bearer token that opens GET {apiBase}/metrics on the main port (null: not served there). */
  metricsToken: string | null;
  /** Where attachment files live: `folder` (PORTAL_ATTACHMENT_DIR) or `database` (the database itself). */
  attachmentStore: 'folder' | 'database';
  /** pino level: fatal, error, warn, info, debug, trace or silent. */
  logLevel: string;
  /** Which algorithms protect secrets (services/crypto-suite.ts): `standard` (RSA-OAEP, SHA-256) or `sm` (国密 SM2, SM3, SM4). */
  crypto: 'standard' | 'sm';
  /** 32-byte key from the environment that encrypts the server's private keys and keys the audit chain; null = none set. */
  masterKey: Buffer | null;
  /** Days a sent text message (sys_sms_outbox) and a used or expired SMS code (sys_sms_code) are kept. */
  smsRetentionDays: number;
  /** Days an audit-log row is kept (at least 180). */
  auditRetentionDays: number;
  /** Days a password may be used before its owner must change it (0 = no limit). */
  passwordMaxAgeDays: number;
  /** How many previous passwords a new one may not repeat (0 = no check). */
  passwordHistory: number;
  /** One session per account: a new login ends the account's other sessions. */
  singleSession: boolean;
  /** What an external link (menu hrefAppend) carries to the outside system: a signed single-use `token` or the `userId`. */
  externalLinkIdentity: 'token' | 'userId';
  cityName: string;
  platformTitle: string;
  productName: string;
  feedbackUrl: string | null;
  supportNote: string | null;
  manualUrl: string | null;
  /** The gas-cylinder traceability system the self-service menu links to (气瓶追溯); null hides the item. */
  gasCylinderUrl: string | null;
  ssoEntryUrl: string | null;
  ssoLogoutUrl: string | null;
  cookieExpiresHours: number;
  /** Role types that oversee the rows of their area (audit them) besides their own unit's. */
  oversightRoleTypes: readonly string[];
  /** Working days (weekends and the public holidays of dictionary work-calendar skipped) an inspection body has to finish an online inspection application after its submission. */
  inspectionSlaDays: number;
  /** Days at most between two maintenance visits of an elevator (TSG T5002): a record's next date may be no later. */
  elevatorMaintenanceDays: number;
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
const nonNegativeInt: Parser<number> = (raw) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a whole number ≥ 0, got "${raw}"`);
  return n;
};
const list: Parser<readonly string[]> = (raw) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
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
const optionalPort: Parser<number | null> = (raw) => {
  const n = port(raw);
  if (n === 0) throw new Error(`expected a port number 1–65535, got "${raw}"`);
  return n;
};
/** An IPv4 or IPv6 address, optionally with a /prefix length. */
function isAddressOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.split('/');
  const family = isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
}
/** off / on, or the balancers' addresses and CIDR ranges, comma-separated (`loopback`, `linklocal`, `uniquelocal` as Fastify names them). */
const trustProxy: Parser<boolean | readonly string[]> = (raw) => {
  const word = raw.trim().toLowerCase();
  if (['off', 'false', '0', 'no'].includes(word)) return false;
  if (['on', 'true', '1', 'yes'].includes(word)) return true;
  const entries = list(raw);
  const bad = entries.find((e) => !isAddressOrCidr(e) && !['loopback', 'linklocal', 'uniquelocal'].includes(e));
  if (bad !== undefined || entries.length === 0)
    throw new Error(`expected off, on or addresses/CIDR ranges such as 10.0.0.5,192.168.1.0/24, got "${bad ?? raw}"`);
  return entries;
};
/** 32 bytes as 64 hex digits or base64 (`openssl rand -base64 32`). */
const masterKey: Parser<Buffer | null> = (raw) => {
  const value = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(value) && key.toString('base64').replace(/=+$/, '') !== value.replace(/=+$/, ''))) {
    throw new Error('expected a 32-byte key: 64 hex digits or base64 (openssl rand -base64 32)');
  }
  return key;
};
const atLeast =
  (min: number): Parser<number> =>
  (raw) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`expected a whole number ≥ ${min}, got "${raw}"`);
    return n;
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
  setting(
    'PORTAL_HOUSEKEEPING_MINUTES',
    'housekeepingMinutes',
    positiveNumber,
    10,
    'minutes between housekeeping runs (expired captchas, sessions, counters and link tokens; error reports, text messages and audit rows past their retention)',
  ),
  setting('PORTAL_MUST_UPDATE_PWD', 'mustUpdatePwd', onOff, true, 'force the change-password dialog for simple passwords'),
  setting('PORTAL_STATIC_DIR', 'staticDir', optionalText, null, 'built front end to serve (`npm start` uses dist/)'),
  setting('PORTAL_SCHEMA_DIR', 'schemaDir', optionalText, null, "schema directory (resources/, dicts/); unset = the repository's schemas/"),
  setting('PORTAL_EXPORT_MAX_ROWS', 'exportMaxRows', positiveInt, 200_000, 'most rows one XLSX export may hold'),
  setting('PORTAL_IMPORT_MAX_ROWS', 'importMaxRows', positiveInt, 5000, 'most data rows one XLSX import may hold'),
  setting('PORTAL_ATTACHMENT_MAX_MB', 'attachmentMaxMb', positiveNumber, 20, 'largest attachment file accepted, in MB (also the largest import file)'),
  setting(
    'PORTAL_SMS_PROVIDER',
    'smsProvider',
    oneOf(['outbox', 'log'] as const),
    'outbox',
    'text-message provider: `outbox` writes each message to table sys_sms_outbox and the log (demo), `log` to the log only',
  ),
  setting(
    'PORTAL_ATTACHMENT_DIR',
    'attachmentDir',
    optionalText,
    null,
    'attachment file directory; unset = `<PORTAL_DATA_DIR>/attachments` (a temporary directory for `memory://`)',
  ),
  setting(
    'PORTAL_TRUST_PROXY',
    'trustProxy',
    trustProxy,
    false,
    "behind a load balancer: the balancers' addresses or CIDR ranges, comma-separated (`127.0.0.1`, `10.0.0.0/8`), whose X-Forwarded-For gives the client IP; `on` believes every sender (only when no client can reach the process directly)",
  ),
  setting(
    'PORTAL_DEMO',
    'demo',
    oneOf(['auto', 'on', 'off'] as const),
    'auto',
    'demo accounts and records in an empty database: `auto` on the embedded default only (never on `DATABASE_URL`), `on` always, `off` never',
  ),
  setting('PORTAL_PG_POOL_MAX', 'pgPoolMax', positiveInt, 10, 'most PostgreSQL connections one process holds'),
  setting('PORTAL_PG_CONNECT_TIMEOUT_MS', 'pgConnectTimeoutMs', nonNegativeInt, 10_000, 'milliseconds to wait for a new PostgreSQL connection (0 = no limit)'),
  setting(
    'PORTAL_PG_STATEMENT_TIMEOUT_MS',
    'pgStatementTimeoutMs',
    nonNegativeInt,
    120_000,
    'milliseconds a statement may run before PostgreSQL cancels it (0 = no limit)',
  ),
  setting(
    'PGSSLMODE',
    'pgSslMode',
    oneOf(['disable', 'require', 'verify-ca', 'verify-full'] as const),
    null,
    'TLS to PostgreSQL: `disable`, `require` (encrypted, certificate not checked), `verify-ca`, `verify-full` (checked against `PORTAL_PG_CA_FILE`); unset = as `DATABASE_URL` says',
  ),
  setting(
    'PORTAL_PG_CA_FILE',
    'pgCaFile',
    optionalText,
    null,
    "PEM file of the certificate authority of PostgreSQL's certificate (for `verify-ca`, `verify-full`)",
  ),
  setting(
    'PORTAL_SHUTDOWN_TIMEOUT',
    'shutdownTimeoutSeconds',
    positiveNumber,
    25,
    'seconds a stopping process (SIGTERM, SIGINT) waits for requests in flight before it closes anyway',
  ),
  setting('PORTAL_HEALTH_TIMEOUT_MS', 'healthTimeoutMs', positiveInt, 2000, 'milliseconds each check of `/health/ready` may take'),
  setting(
    'PORTAL_METRICS_PORT',
    'metricsPort',
    optionalPort,
    null,
    'port of a separate listener (on `HOST`) that serves only `GET /metrics` (Prometheus); unset = none',
  ),
  setting(
    'PORTAL_METRICS_TOKEN',
    'metricsToken',
    optionalText,
    null,
    'token that opens `GET {PORTAL_API_BASE}/metrics` on the main port (`Authorization: Bearer <token>`); unset = not served there',
  ),
  setting(
    'PORTAL_ATTACHMENT_STORE',
    'attachmentStore',
    oneOf(['folder', 'database'] as const),
    'folder',
    'where attachment files live: `folder` (`PORTAL_ATTACHMENT_DIR`) or `database` (in the database itself: several processes share nothing else, one backup holds all)',
  ),
  setting(
    'PORTAL_CRYPTO',
    'crypto',
    oneOf(['standard', 'sm'] as const),
    'standard',
    'algorithms (docs/security.md): `standard` (login fields RSA-OAEP, digests SHA-256, sealed keys AES-256-GCM) or `sm` (国密: login fields SM2, digests and audit chain SM3, sealed keys SM4, and with PORTAL_MASTER_KEY the ID card and mobile columns encrypted with SM4, converted at start); switching ends open sessions',
  ),
  setting(
    'PORTAL_MASTER_KEY',
    'masterKey',
    masterKey,
    null,
    "a 32-byte key (64 hex digits or base64, `openssl rand -base64 32`) that encrypts the server's private keys in the database (and in the `sm` mode the ID card and mobile columns) and keys the audit-log chain; keep it outside the database and its backups",
  ),
  setting('PORTAL_SMS_RETENTION_DAYS', 'smsRetentionDays', positiveInt, 30, 'days a sent text message and a used or expired SMS code are kept'),
  setting('PORTAL_AUDIT_RETENTION_DAYS', 'auditRetentionDays', atLeast(180), 180, 'days an audit-log row is kept (at least 180)'),
  setting('PORTAL_PASSWORD_MAX_AGE_DAYS', 'passwordMaxAgeDays', nonNegativeInt, 0, 'days a password may be used before it must be changed (0 = no limit)'),
  setting('PORTAL_PASSWORD_HISTORY', 'passwordHistory', nonNegativeInt, 5, 'a new password may not be one of the last N (0 = no check)'),
  setting('PORTAL_SINGLE_SESSION', 'singleSession', onOff, false, "`on`: a new login ends the account's other sessions"),
  setting(
    'PORTAL_EXTERNAL_LINK_IDENTITY',
    'externalLinkIdentity',
    oneOf(['token', 'userId'] as const),
    'token',
    'what an external link carries: `token` (signed, single-use, 5 minutes) or `userId`',
  ),
  setting('LOG_LEVEL', 'logLevel', text, 'info', 'log level (silent, error, warn, info, debug)'),
  setting('PORTAL_CITY_NAME', 'cityName', text, '宁波市', 'city shown before the platform title'),
  setting('PORTAL_PLATFORM_TITLE', 'platformTitle', text, '特种设备企业服务平台', 'platform title in the header'),
  setting('PORTAL_PRODUCT_NAME', 'productName', text, '特种设备企业服务平台', 'product name (browser title)'),
  setting('PORTAL_FEEDBACK_URL', 'feedbackUrl', optionalText, null, 'problem-feedback link (hidden when unset)'),
  setting('PORTAL_SUPPORT_NOTE', 'supportNote', optionalText, '技术支持：工作日 9:00–17:00', 'support note in the header'),
  setting('PORTAL_MANUAL_URL', 'manualUrl', optionalText, null, 'operation manual download (hidden when unset)'),
  setting(
    'PORTAL_GAS_CYLINDER_URL',
    'gasCylinderUrl',
    httpUrl,
    null,
    'gas-cylinder traceability system (自助服务 › 气瓶追溯, opens in a new window with a single-use link token, never the session: docs/security.md; hidden when unset)',
  ),
  setting('PORTAL_SSO_ENTRY_URL', 'ssoEntryUrl', optionalText, null, 'SSO entry for browsers that never logged in'),
  setting('PORTAL_SSO_LOGOUT_URL', 'ssoLogoutUrl', optionalText, null, 'page a user with ssoUserId goes to after logout'),
  setting('PORTAL_COOKIE_EXPIRES_HOURS', 'cookieExpiresHours', positiveNumber, 8, 'hours a remembered-login cookie lives'),
  setting('PORTAL_OVERSIGHT_ROLE_TYPES', 'oversightRoleTypes', list, ['authority'], "role types that oversee their area's rows (comma-separated)"),
  setting(
    'PORTAL_INSPECTION_SLA_DAYS',
    'inspectionSlaDays',
    positiveInt,
    5,
    'working days (weekends and the public holidays of dictionary work-calendar skipped, weekend days worked in their place counted) an inspection body has to finish an online inspection application after its submission: its due date (超时未办 past it)',
  ),
  setting(
    'PORTAL_ELEVATOR_MAINTENANCE_DAYS',
    'elevatorMaintenanceDays',
    positiveInt,
    15,
    "days at most between two maintenance visits of an elevator (TSG T5002): a maintenance record's next date later than its date plus these days is refused",
  ),
  setting('PORTAL_PROVINCE_CODE', 'provinceCode', text, '330000', 'default province code'),
  setting('PORTAL_AREA_CODE', 'areaCode', text, '330200', 'default area code'),
] as const;

/**
 * A start that cannot go on because of a setting or what it points at: the process prints one line
 * in Chinese and English naming the setting (main.ts), never a stack trace.
 */
export class StartupError extends Error {
  constructor(
    /** The environment variable to look at. */
    readonly setting: string,
    readonly zh: string,
    readonly en: string,
    options?: { cause?: unknown },
  ) {
    super(`${setting}: ${en}`, options);
    this.name = 'StartupError';
  }

  /** The one line printed before the process exits. */
  line(): string {
    return `启动失败：${this.setting} ${this.zh} / Failed to start: ${this.setting} ${this.en}`;
  }
}

/**
 * Variables read outside this table (the start script, the build, the test runner); known, so the
 * check for misspelt names does not report them.
 */
export const OTHER_VARIABLES: readonly { env: string; description: string }[] = [
  { env: 'PORTAL_SCHEMAS', description: "`eager` compiles every route's validators and serializers at start (tests do); `lazy` (default) on first use" },
  { env: 'PORTAL_SKIP_PREPARE', description: 'set: `npm ci` / `npm install` skip building and the embedded database templates' },
  { env: 'FORCE_BUILD', description: 'set: `npm start` rebuilds the front end and the server even when nothing changed' },
  { env: 'PORTAL_ENV_FILE', description: 'offline package: the settings file `bin/portal` reads (default `etc/portal.env`)' },
  { env: 'PORTAL_DEV', description: 'set by `npm run dev` for its API server' },
  { env: 'PORTAL_API_TARGET', description: "`npm run dev`: where Vite's dev server sends API calls (default http://127.0.0.1:8080)" },
  { env: 'PORTAL_SOAK_SECONDS', description: 'tests only: length of the scale-out soak (`npm run soak` sets 300)' },
  { env: 'PORTAL_RELIABILITY_LOG', description: 'tests only: where the reliability suite writes its report' },
];

/** Edit distance, for "did you mean" on a misspelt variable. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const kept = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = kept;
    }
  }
  return row[b.length];
}

/** `PORTAL_*` variables set in `env` that nothing reads, each with the closest known name when one is near. */
export function unknownSettings(env: NodeJS.ProcessEnv = process.env): { name: string; suggestion: string | null }[] {
  const known = [...SETTINGS.map((s) => s.env), ...OTHER_VARIABLES.map((v) => v.env)];
  return Object.keys(env)
    .filter((name) => name.startsWith('PORTAL_') && !known.includes(name))
    .sort()
    .map((name) => {
      const [best] = known.map((k) => ({ k, d: distance(name, k) })).sort((x, y) => x.d - y.d);
      return { name, suggestion: best && best.d <= Math.max(3, Math.floor(name.length / 4)) ? best.k : null };
    });
}

/** Builds the configuration from `env` (default: process.env); an invalid value throws a StartupError naming it. */
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
      const why = (err as Error).message;
      throw new StartupError(s.env, `取值无效（${raw}）：${SETTING_HINTS_ZH(why)}`, `is invalid: ${why}`);
    }
  }
  const result = config as Config;
  if (!result.dataDir.startsWith('memory://')) result.dataDir = resolve(result.dataDir);
  if (result.staticDir) result.staticDir = resolve(result.staticDir);
  if (result.schemaDir) result.schemaDir = resolve(result.schemaDir);
  if (result.attachmentDir) result.attachmentDir = resolve(result.attachmentDir);
  if (result.pgCaFile) result.pgCaFile = resolve(result.pgCaFile);
  if (result.databaseUrl) checkDatabaseUrl(result.databaseUrl);
  return result;
}

/** The Chinese half of a parser's complaint. */
function SETTING_HINTS_ZH(why: string): string {
  if (why.startsWith('expected a port')) return '应为端口号';
  if (why.startsWith('expected a positive integer')) return '应为正整数';
  if (why.startsWith('expected a whole number ≥ ')) return `应为不小于 ${why.slice('expected a whole number ≥ '.length).split(',')[0]} 的整数`;
  if (why.startsWith('expected a 32-byte key')) return '应为 32 字节密钥（64 位十六进制或 base64，可用 openssl rand -base64 32 生成）';
  if (why.startsWith('expected a positive number')) return '应为正数';
  if (why.startsWith('expected one of')) return `应为 ${why.slice('expected one of '.length)} 之一`;
  if (why.startsWith('expected an http(s) URL')) return '应为 http(s) 地址';
  if (why.startsWith('expected off, on or addresses')) return '应为 off、on 或以逗号分隔的地址/网段（如 10.0.0.5,192.168.1.0/24）';
  return why;
}

/** A DATABASE_URL must be a postgres:// or postgresql:// URL: anything else is refused before a connection is tried. */
function checkDatabaseUrl(raw: string): void {
  let url: URL | null = null;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')) {
    throw new StartupError('DATABASE_URL', '应为 postgres://用户@主机:端口/数据库 形式的地址', 'must be a URL like postgres://user@host:5432/database');
  }
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
    attachmentMaxMb: config.attachmentMaxMb,
  };
}
