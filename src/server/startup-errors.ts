/**
 * Turns what goes wrong at start into the setting an operator must look at: a database that does
 * not answer or refuses the login names DATABASE_URL, a folder that cannot be written names its
 * setting, a taken port names PORT. Anything else is left to the caller (printed with its stack).
 */
import { StartupError, type Config } from './config';

interface SystemError extends Error {
  code?: string;
  path?: string;
  address?: string;
}

const DATABASE_CODES: Record<string, [zh: string, en: string]> = {
  ECONNREFUSED: ['连接被拒绝：数据库未启动或地址、端口有误', 'connection refused: the database is not running or the host/port is wrong'],
  ENOTFOUND: ['主机名无法解析', 'host name not found'],
  EAI_AGAIN: ['主机名暂时无法解析', 'host name lookup failed'],
  ETIMEDOUT: ['连接超时', 'connection timed out'],
  EHOSTUNREACH: ['主机不可达', 'host unreachable'],
  ECONNRESET: ['连接被重置（TLS 设置是否与服务器一致？）', 'connection reset (does the TLS setting match the server?)'],
  '28P01': ['用户名或密码错误', 'password authentication failed'],
  '28000': ['服务器拒绝该用户登录（pg_hba.conf）', 'the server refused this user (pg_hba.conf)'],
  '3D000': ['数据库不存在', 'the database does not exist'],
  '42501': ['该用户权限不足（需能建表）', 'the user lacks privileges (it must be able to create tables)'],
};

/** The StartupError for a failed start, or null when the cause is not one an operator sets. */
export function startupError(err: unknown, config?: Config): StartupError | null {
  if (!(err instanceof Error)) return null;
  // The migration wrapper (db/index.ts) keeps the driver's error as its cause.
  const chain: SystemError[] = [];
  for (let e: unknown = err; e instanceof Error && chain.length < 5; e = e.cause) chain.push(e);
  // The innermost error first: its message is the driver's own, without the wrappers' prefixes.
  for (const e of chain.reverse()) {
    if (e instanceof StartupError) return e;
    const code = e.code ?? '';
    if (config?.databaseUrl) {
      const known = DATABASE_CODES[code];
      if (known) return new StartupError('DATABASE_URL', `无法使用数据库：${known[0]}`, `cannot be used: ${known[1]} (${e.message})`, { cause: err });
      if (/timeout|terminated unexpectedly|Connection terminated/i.test(e.message)) {
        return new StartupError('DATABASE_URL', '无法使用数据库：连接超时或被中断', `cannot be used: ${e.message}`, { cause: err });
      }
      if (/SSL|certificate|self[- ]signed/i.test(e.message)) {
        return new StartupError('PGSSLMODE', `与数据库的 TLS 连接失败：${e.message}`, `TLS to the database failed: ${e.message}`, { cause: err });
      }
    }
    if (code === 'EADDRINUSE')
      return new StartupError('PORT', `端口已被占用（${config?.port ?? ''}）`, `port ${config?.port ?? ''} is already in use`, { cause: err });
    if (code === 'EADDRNOTAVAIL')
      return new StartupError('HOST', `本机没有该地址（${config?.host ?? ''}）`, `${config?.host ?? ''} is not an address of this machine`, { cause: err });
    if (code === 'EACCES' && e.message.includes('listen'))
      return new StartupError('PORT', `无权监听该端口（${config?.port ?? ''}）`, `no permission to listen on port ${config?.port ?? ''}`, { cause: err });
    if ((code === 'EACCES' || code === 'EROFS' || code === 'EPERM' || code === 'ENOTDIR') && e.path && config) {
      const setting = folderSetting(e.path, config);
      if (setting) return new StartupError(setting, `目录不可写（${e.path}）`, `folder cannot be written (${e.path}): ${code}`, { cause: err });
    }
  }
  return null;
}

/** Which folder setting a path lies under. */
function folderSetting(path: string, config: Config): string | null {
  if (config.attachmentDir && path.startsWith(config.attachmentDir)) return 'PORTAL_ATTACHMENT_DIR';
  if (!config.dataDir.startsWith('memory://') && path.startsWith(config.dataDir))
    return config.attachmentDir ? 'PORTAL_DATA_DIR' : 'PORTAL_DATA_DIR / PORTAL_ATTACHMENT_DIR';
  if (config.cacheDir && path.startsWith(config.cacheDir)) return 'PORTAL_CACHE_DIR';
  return null;
}
