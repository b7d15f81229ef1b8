/**
 * `npm start` / `npm run serve`: the API plus the built front end (dist/) on http://HOST:PORT,
 * seeding the demo data into an empty database. Every start-up step is printed as it begins (the
 * e2e set-up and the start-up test read these lines to tell a slow start from a stuck one).
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { seedDemo } from './db/demo/index';
import { demoTemplate } from './db/demo/template';
import { databaseTemplate } from './db/pglite';
import { formatDemoAccounts, hasDemoAccounts, isEmpty } from './db/seed';
import { projectPath } from './paths';

const started = performance.now();
const progress = (message: string) => console.log(`[启动 ${((performance.now() - started) / 1000).toFixed(1)}s] ${message}`);

const config = loadConfig();
const staticDir = config.staticDir ?? projectPath('dist');

/** Exits even when closing hangs: a failed start must end the process, never leave it running. */
function fail(err: unknown): never {
  console.error(`Failed to start: ${(err as Error)?.message ?? String(err)}`);
  setTimeout(() => process.exit(1), 5000).unref();
  process.exitCode = 1;
  throw err;
}

// A new embedded database starts from the demo template (accounts and records already written).
const template = !config.databaseUrl && !config.schemaDir ? demoTemplate() : undefined;

// `--prepare-database` (scripts/start.mjs: at install, and beside a front-end build): writes the
// embedded database templates into the cache and exits, so the first start only loads them.
if (process.argv.includes('--prepare-database')) {
  if (!template) progress('使用 PostgreSQL 或自定义屏幕目录：无需数据库模板');
  else progress((await databaseTemplate(template, { progress, cacheDir: config.cacheDir ?? undefined })) ? '数据库模板就绪' : '数据库模板未生成：首次启动时再生成');
  process.exit(0);
}
const app = await buildApp({ ...config, staticDir, progress, template }).catch(fail);
try {
  if (await isEmpty(app.db)) {
    progress('空数据库：写入演示账号与演示数据（一个事务）…');
    const records = await seedDemo(app, { progress });
    console.log(`Seeded demo data (${Object.entries(records).map(([k, n]) => `${n} ${k}`).join(', ')}).`);
  }
  // PORT=0 takes a free port; the banner shows the one taken (tests read it).
  const address = await app.listen({ port: config.port, host: config.host });
  if (await hasDemoAccounts(app.db)) console.log(`Demo accounts (login name, password, org code):\n${formatDemoAccounts()}`);
  console.log(`Portal ready: ${address}  (API ${config.apiBase}, docs /docs)  in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  app.log.error(err);
  await Promise.race([app.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  fail(err);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
