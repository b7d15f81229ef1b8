/**
 * `npm start` / `npm run serve`: the API plus the built front end (dist/) on http://HOST:PORT.
 * Every start-up step is printed as it begins (the e2e set-up and the start-up test read these
 * lines to tell a slow start from a stuck one).
 *
 * Demo or production (PORTAL_DEMO): the embedded default gets the demo accounts and records in an
 * empty database, so a newcomer's `npm start` shows a full portal; a server on DATABASE_URL never
 * does unless PORTAL_DEMO=on, and its first administrator comes from `npm run admin`.
 *
 * A setting that cannot work (a malformed value, a database that does not answer, a folder that
 * cannot be written) ends the start with one Chinese-and-English line naming the setting.
 * SIGTERM / SIGINT drain: no new connections, requests in flight finish within
 * PORTAL_SHUTDOWN_TIMEOUT, then the database closes; each step is logged.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { loadConfig, StartupError, unknownSettings, type Config } from './config';
import { seedDemo } from './db/demo/index';
import { demoTemplate } from './db/demo/template';
import { databaseTemplate } from './db/pglite';
import { formatDemoAccounts, hasDemoAccounts, isEmpty } from './db/seed';
import { projectPath } from './paths';
import { startupError } from './startup-errors';

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
const progress = (message: string) => console.log(`[启动 ${seconds()}s] ${message}`);

/** Ends a failed start: one line naming the setting when the cause is known, else the error with its stack. */
function fail(err: unknown, config?: Config): never {
  const known = err instanceof StartupError ? err : startupError(err, config);
  if (known) console.error(known.line());
  else console.error(`启动失败 / Failed to start: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(1);
}

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  fail(err);
}
const staticDir = config.staticDir ?? projectPath('dist');
/** Demo accounts and records go into an empty database. */
const demo = config.demo === 'on' || (config.demo === 'auto' && !config.databaseUrl);

for (const { name, suggestion } of unknownSettings()) {
  console.warn(`未知的环境变量 ${name}（未生效）${suggestion ? `，是否应为 ${suggestion}？` : ''} / unknown variable ${name} is ignored${suggestion ? ` — did you mean ${suggestion}?` : ''}`);
}
if (config.trustProxy === true) {
  console.warn('PORTAL_TRUST_PROXY=on 信任任何来源的 X-Forwarded-For：请改为负载均衡器的地址 / trusts X-Forwarded-For from anyone: list the balancers\' addresses instead');
}

// A new embedded database starts from the demo template (accounts and records already written).
const template = demo && !config.databaseUrl && !config.schemaDir ? demoTemplate() : undefined;

// `--prepare-database` (scripts/start.mjs: at install, and beside a front-end build): writes the
// embedded database templates into the cache and exits, so the first start only loads them.
if (process.argv.includes('--prepare-database')) {
  if (!template) progress('使用 PostgreSQL、非演示模式或自定义屏幕目录：无需演示数据库模板');
  else progress((await databaseTemplate(template, { progress, cacheDir: config.cacheDir ?? undefined })) ? '数据库模板就绪' : '数据库模板未生成：首次启动时再生成');
  process.exit(0);
}

const app = await buildApp({ ...config, staticDir, progress, template }).catch((err: unknown) => fail(err, config));
try {
  if (await isEmpty(app.db)) {
    if (demo) {
      progress('空数据库：写入演示账号与演示数据（一个事务）…');
      const records = await seedDemo(app, { progress });
      console.log(`Seeded demo data (${Object.entries(records).map(([k, n]) => `${n} ${k}`).join(', ')}).`);
    } else {
      console.log('数据库中还没有账号：用 npm run admin -- create-authority 创建第一个管理员 / No account yet: create the first administrator with `npm run admin -- create-authority`');
    }
  }
  // PORT=0 takes a free port; the banner shows the one taken (tests read it).
  const address = await app.listen({ port: config.port, host: config.host });
  const demoAccounts = await hasDemoAccounts(app.db);
  if (demo) {
    console.log('模式：演示（空数据库写入演示账号，其密码公开；正式部署请设 PORTAL_DEMO=off）/ Mode: demo');
    if (demoAccounts) console.log(`Demo accounts (login name, password, org code):\n${formatDemoAccounts()}`);
  } else {
    console.log('模式：生产（不写入演示账号与数据）/ Mode: production');
    if (demoAccounts) console.warn('警告：数据库中有公开密码的演示账号，请用 npm run admin -- reset-password 修改或停用 / Warning: the database holds the demo accounts, whose passwords are published');
  }
  console.log(`Portal ready: ${address}  (API ${config.apiBase}, docs /docs)  in ${seconds()} s`);
} catch (err) {
  app.log.error(err);
  await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  fail(err, config);
}

/**
 * Drains and stops: the listener closes (Fastify answers 503 to a request arriving on a kept-alive
 * connection meanwhile), requests in flight finish, then the database closes. Past the time
 * limit the remaining connections are cut and the process exits with status 1.
 */
async function shutdown(app: FastifyInstance, signal: string): Promise<void> {
  const limitMs = config.shutdownTimeoutSeconds * 1000;
  app.lifecycle.draining = true;
  app.log.info({ signal, inFlight: app.lifecycle.inFlight, timeoutSeconds: config.shutdownTimeoutSeconds }, `${signal}: stopping — no new connections, waiting for requests in flight`);
  const timer = setTimeout(() => {
    app.log.warn({ inFlight: app.lifecycle.inFlight }, `shutdown: ${config.shutdownTimeoutSeconds} s passed, closing the remaining connections`);
    app.server.closeAllConnections();
    setTimeout(() => process.exit(1), 2000).unref();
  }, limitMs);
  timer.unref();
  try {
    // app.close() stops listening, closes idle connections, waits for the in-flight responses,
    // then runs the onClose hooks (the database closes last).
    await app.close();
    clearTimeout(timer);
    app.log.info('shutdown: requests finished, database closed; exiting');
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void shutdown(app, signal));
}
