/**
 * `npm start` / `npm run serve`: the API plus the built front end (dist/) on http://HOST:PORT.
 * Every start-up step is printed as it begins (the e2e set-up and the start-up test read these
 * lines to tell a slow start from a stuck one): human lines on a terminal, JSON lines otherwise,
 * in the languages start-output.mjs sets out. Settings come from the environment; the command
 * line takes only `--help` (and `--prepare-database`, below).
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
import { parseCommandLine, toolName } from './command-line.mjs';
import type { Config } from './config';
import { projectPath } from './paths';
import { say, sayFatal, serverCommand } from './start-output.mjs';

// How this process was started names the command in --help and in a wrong argument's line.
const commandName =
  process.env.npm_lifecycle_event === 'serve'
    ? 'npm run serve'
    : process.env.npm_lifecycle_event === 'start'
      ? 'npm start'
      : toolName('node dist/server.mjs', 'start');
const { values: flags } = parseCommandLine(
  serverCommand(commandName, {
    'prepare-database': {
      type: 'boolean',
      description: '只生成内置数据库模板后退出（npm start 构建时内部使用）/ write the embedded database templates and exit (used by npm start while it builds)',
    },
  }),
);

// The server's modules load once the command line is understood: `--help` answers at once.
const [
  { buildApp },
  { loadConfig, StartupError, unknownSettings },
  { seedDemoOnce },
  { demoTemplate },
  { databaseTemplate },
  { formatDemoAccounts, hasDemoAccounts, isEmpty },
  { serveLiveBackups },
  { startupError },
] = await Promise.all([
  import('./app'),
  import('./config'),
  import('./db/demo/index'),
  import('./db/demo/template'),
  import('./db/pglite-template'),
  import('./db/seed'),
  import('./ops/live-backup'),
  import('./startup-errors'),
]);

const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
// Lines and their language: src/server/start-output.mjs.
const progress = (message: string) => say(`[启动 ${seconds()}s] ${message}`);

/** Ends a failed start: one line naming the setting when the cause is known, else the error with its stack. */
function fail(err: unknown, config?: Config): never {
  const known = err instanceof StartupError ? err : startupError(err, config);
  sayFatal(known ? known.line() : `启动失败 / Failed to start: ${(err as Error)?.stack ?? String(err)}`);
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
  say(
    `未知的环境变量 ${name}（未生效）${suggestion ? `，是否应为 ${suggestion}？` : ''} / unknown variable ${name} is ignored${suggestion ? ` — did you mean ${suggestion}?` : ''}`,
    'warn',
  );
}
if (config.trustProxy === true) {
  say(
    "PORTAL_TRUST_PROXY=on 信任任何来源的 X-Forwarded-For：请改为负载均衡器的地址 / trusts X-Forwarded-For from anyone: list the balancers' addresses instead",
    'warn',
  );
}

// A new embedded database starts from the demo template (accounts and records already written).
const template = demo && !config.databaseUrl && !config.schemaDir ? demoTemplate() : undefined;

// `--prepare-database` (scripts/start.mjs: at install, and beside a front-end build): writes the
// embedded database templates into the cache and exits, so the first start only loads them.
if (flags['prepare-database']) {
  if (!template) progress('使用 PostgreSQL、非演示模式或自定义屏幕目录：无需演示数据库模板');
  else
    progress(
      (await databaseTemplate(template, { progress, cacheDir: config.cacheDir ?? undefined })) ? '数据库模板就绪' : '数据库模板未生成：首次启动时再生成',
    );
  process.exit(0);
}

const app = await buildApp({ ...config, staticDir, progress, template }).catch((err: unknown) => fail(err, config));
// The embedded database is held from here: `npm run backup` asks this process for its snapshot (ops/live-backup.ts).
serveLiveBackups(app.db, config, app.log);
try {
  if (demo) {
    // Once, however many processes start together on the empty database (an advisory lock).
    const records = await seedDemoOnce(app, { progress });
    if (records)
      say(
        `已写入演示数据 / Seeded demo data (${Object.entries(records)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}).`,
      );
  } else if (await isEmpty(app.db)) {
    say(
      '数据库中还没有账号：用 npm run admin -- create-authority（离线安装包中为 bin/portal admin create-authority）创建第一个管理员 / No account yet: create the first administrator with `npm run admin -- create-authority` (`bin/portal admin create-authority` in the offline package)',
    );
  }
  // PORT=0 takes a free port; the banner shows the one taken (tests read it).
  const address = await app.listen({ port: config.port, host: config.host });
  await Promise.all(app.lifecycle.afterListen);
  const demoAccounts = await hasDemoAccounts(app.db);
  if (demo) {
    say('模式：演示（空数据库写入演示账号，其密码公开；正式部署请设 PORTAL_DEMO=off）/ Mode: demo');
    if (demoAccounts) say(`演示账号 / Demo accounts (login name, password, org code):\n${formatDemoAccounts()}`);
  } else {
    say('模式：生产（不写入演示账号与数据）/ Mode: production');
    if (demoAccounts)
      say(
        '警告：数据库中有公开密码的演示账号，请用 npm run admin -- reset-password 修改或停用 / Warning: the database holds the demo accounts, whose passwords are published',
        'warn',
      );
    if (!config.masterKey)
      say(
        "提示：未设置 PORTAL_MASTER_KEY，服务器私钥与 SSO 密钥以明文保存在数据库中 / Note: PORTAL_MASTER_KEY is not set; the server's private keys and SSO secret are stored unsealed in the database",
        'warn',
      );
  }
  // Before the ready line, so a process measured once ready holds no start-up garbage (start-garbage.ts).
  (await import('./start-garbage')).collectStartGarbage();
  say(`门户已就绪 / Portal ready: ${address}  (API ${config.apiBase}, docs /docs)  in ${seconds()} s`);
} catch (err) {
  app.log.error(err);
  await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  fail(err, config);
}

/**
 * Drains and stops: the listener closes (Fastify answers 503 to a request arriving on a kept-alive
 * connection meanwhile, and a response finished while draining closes its connection), requests in
 * flight finish, then the database closes. Past the time limit the remaining connections are cut
 * and the process exits with status 1. Each step is printed whatever LOG_LEVEL says, like the
 * start-up steps: an operator reads why a process took long to stop, or why it was cut short.
 */
async function shutdown(app: FastifyInstance, signal: string): Promise<void> {
  if (app.lifecycle.draining) return; // SIGINT then SIGTERM: one drain
  app.lifecycle.draining = true;
  const began = performance.now();
  const step = (message: string, level: 'info' | 'error' = 'info') => say(`[停止 ${((performance.now() - began) / 1000).toFixed(1)}s] ${message}`, level);
  const limit = config.shutdownTimeoutSeconds;
  step(
    `收到 ${signal}：不再接受新连接，等待进行中的请求（${app.lifecycle.inFlight} 个，最多 ${limit} 秒）/ ${signal}: draining — no new connections, waiting for the requests in flight (${app.lifecycle.inFlight}, at most ${limit} s)`,
  );
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    step(
      `${limit} 秒已到，仍有 ${app.lifecycle.inFlight} 个请求未完成：断开其连接 / shutdown timeout: ${limit} s passed, requests still in flight: ${app.lifecycle.inFlight}; closing their connections`,
    );
    app.server.closeAllConnections();
    // The database close below should follow at once; should it hang, leave anyway.
    setTimeout(() => process.exit(1), 2000);
  }, limit * 1000);
  void app.lifecycle.idle().then(() => {
    if (!timedOut) step('进行中的请求均已完成 / requests in flight finished');
  });
  try {
    // app.close() stops listening, closes idle connections, waits for the in-flight responses,
    // then runs the onClose hooks (the database closes last).
    await app.close();
  } catch (err) {
    step(`停止失败 / shutdown failed: ${(err as Error)?.stack ?? String(err)}`, 'error');
    process.exit(1);
  }
  clearTimeout(timer);
  const status = timedOut ? 1 : 0;
  step(`数据库已关闭，退出（状态 ${status}）/ database closed; exiting with status ${status}`);
  process.exit(status);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void shutdown(app, signal));
}
