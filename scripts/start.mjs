/**
 * `npm start`: builds the front end and the server bundle only when their inputs changed since the
 * last build (a hash of the files, kept in dist/.build-stamp), then runs the compiled server
 * (dist/server.mjs) in this process. Plain JavaScript so nothing is transpiled on the way: an
 * unchanged checkout starts in the server's own time (issue 18: warm restart ≤ 3 s).
 * The stamp is written after a complete build; any build that empties dist/ (the e2e set-up's,
 * `npm run build` by hand) removes it, so the next start rebuilds. FORCE_BUILD=1 always rebuilds.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp');
const bundle = join(dist, 'server.mjs');

/** Everything the two builds read: sources, screens, validators, build configuration, locked packages. */
const INPUTS = ['src', 'schemas', 'validators', 'scripts/build-server.ts', 'scripts/precompress.ts', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];

function* walk(path) {
  const info = statSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isFile()) yield path;
  else if (info.isDirectory()) for (const name of readdirSync(path).sort()) yield* walk(join(path, name));
}

function inputsHash() {
  const hash = createHash('sha256');
  hash.update(process.version);
  for (const input of INPUTS)
    for (const file of walk(join(root, input))) {
      hash.update(relative(root, file));
      hash.update('\0');
      hash.update(readFileSync(file));
      hash.update('\0');
    }
  return hash.digest('hex');
}

const started = performance.now();
const stamp = inputsHash();
const built = existsSync(bundle) && existsSync(join(dist, 'index.html')) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp;
if (built && !process.env.FORCE_BUILD) {
  console.log(`[启动] 前端与服务端构建未变（${((performance.now() - started) / 1000).toFixed(1)}s 校验），跳过构建`);
} else {
  console.log('[启动] 源码有变化：构建前端与服务端（同 npm run build）…');
  // `npm run build`'s two steps, run by node directly (no npm, npx in between) and quiet but for warnings.
  const steps = [
    [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
    [join(root, 'node_modules/tsx/dist/cli.mjs'), join(root, 'scripts/build-server.ts')],
  ];
  for (const args of steps) {
    const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
    if (result.status !== 0) {
      console.error('Build failed: see the output above.');
      process.exit(result.status ?? 1);
    }
  }
  writeFileSync(stampFile, stamp);
  console.log(`[启动] 构建完成（${((performance.now() - started) / 1000).toFixed(1)}s）`);
}

process.setSourceMapsEnabled(true);
await import(pathToFileURL(bundle).href);
