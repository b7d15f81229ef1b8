/**
 * `npm start`: builds the front end and the server bundle only when their inputs changed since the
 * last build (a hash of the files, kept in dist/.build-stamp: scripts/build-stamp.mjs), then runs the compiled server
 * (dist/server.mjs) in this process. Plain JavaScript so nothing is transpiled on the way: an
 * unchanged checkout starts in the server's own time (a warm restart in about 3 s).
 * The stamp is written after a complete build; any build that empties dist/ (the e2e set-up's,
 * `npm run build` by hand) removes it, so the next start rebuilds. FORCE_BUILD=1 always rebuilds.
 *
 * A first start also needs the embedded database templates (initdb, migrations, demo data: ~15 s
 * of CPU, db/pglite.ts). When it builds and the database is new, the templates are written by a
 * second process (`src/server/main.ts --prepare-database`) while Vite builds, one core each; the
 * server then loads them (it waits on the template's lock file when they are not done yet).
 *
 * `node scripts/start.mjs --prepare` is npm's `prepare` step (`npm ci`, `npm install`): the same
 * build when out of date and the templates, then exits without starting the server, so the first
 * `npm start` after installing loads everything (a first start in about 10 s). It never fails the
 * install: on an error it says so and the first start does the work. PORTAL_SKIP_PREPARE=1 skips it.
 *
 * `npm start -- --help` explains the command; its lines follow src/server/start-output.mjs (human
 * lines on a terminal, JSON lines otherwise; step lines Chinese, outcomes Chinese / English).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCommandLine } from '../src/server/command-line.mjs';
import { forwardAsJson, humanOutput, say, sayFatal, serverCommand } from '../src/server/start-output.mjs';
import { inputsHash, isBuilt, root, serverBundle as bundle, writeStamp } from './build-stamp.mjs';

const { values } = parseCommandLine(
  serverCommand('npm start', {
    prepare: {
      type: 'boolean',
      description:
        "npm 的 prepare 步骤：按需构建并生成数据库模板后退出，不启动服务 / npm's prepare step: build when out of date and write the database templates, then exit without starting",
    },
  }),
);
const prepareOnly = values.prepare === true;
if (prepareOnly && process.env.PORTAL_SKIP_PREPARE) process.exit(0);
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)}s`;
const nodeTool = (/** @type {string} */ path) => join(root, 'node_modules', path);
const buildEnv = { ...process.env, NODE_ENV: 'production' };

/** Whether the server will need the embedded database templates: a new PGlite database of the repository's schemas. */
function needsTemplates() {
  if (process.env.DATABASE_URL || process.env.PORTAL_SCHEMA_DIR) return false;
  const dataDir = process.env.PORTAL_DATA_DIR || './data';
  return prepareOnly || dataDir.startsWith('memory://') || !existsSync(join(resolve(dataDir), 'PG_VERSION'));
}

/**
 * Runs `args` with node; resolves to the exit status.
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @returns {Promise<number>}
 */
const run = (args, options = {}) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: buildEnv, ...options });
    forwardAsJson(child);
    child.once('error', () => done(1));
    child.once('close', (code) => done(code ?? 1)); // 'close': after the piped output's last line
  });

/** Ends a failed build, after the template process (killed, it would leave its lock file for the next start to wait on). */
/**
 * @param {string} message
 * @param {number | null} [status]
 */
async function fail(message, status) {
  await templates;
  if (prepareOnly) {
    say('[准备] 构建失败（见上方输出）：跳过，首次 npm start 时再构建', 'warn');
    process.exit(0);
  }
  sayFatal(message);
  process.exit(status ?? 1);
}

const stamp = inputsHash();
const built = isBuilt(stamp);
// Database templates from the sources (tsx: the server bundle is built after Vite, which empties dist/).
const templates =
  !built || prepareOnly ? (needsTemplates() ? run([nodeTool('tsx/dist/cli.mjs'), join(root, 'src/server/main.ts'), '--prepare-database']) : null) : null;
if (built && !process.env.FORCE_BUILD) {
  say(`[启动] 前端与服务端构建未变（${elapsed()} 校验），跳过构建`);
} else {
  say(`[启动] 源码有变化：构建前端与服务端（同 npm run build）${templates ? '，同时生成数据库模板' : ''}…`);
  // `npm run build`'s two steps, run by node directly (no npm, npx in between) and quiet but for warnings.
  for (const args of [
    [nodeTool('vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    [nodeTool('tsx/dist/cli.mjs'), join(root, 'scripts/build-server.ts')],
  ]) {
    // On a terminal the builds print there; otherwise their lines are passed on as JSON entries.
    const status = await run(args, humanOutput ? {} : { stdio: ['ignore', 'pipe', 'pipe'] });
    if (status !== 0) await fail('构建失败（见上方输出）/ Build failed: see the output above', status);
  }
  writeStamp(stamp);
  say(`[启动] 构建完成（${elapsed()}）`);
}
if (templates) {
  // A failed template process is not an error: the server initialises its own database.
  if ((await templates) !== 0) say('[启动] 数据库模板未生成：服务端自行初始化数据库', 'warn');
}
if (prepareOnly) {
  say(`[准备] 完成（${elapsed()}）：npm start 直接启动`);
  process.exit(0);
}

process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
