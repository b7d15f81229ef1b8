/**
 * `npm run package [-- --out <dir>]`: the offline installation package for an intranet without
 * internet, `portal-<version>-<platform>.tar.gz` (version from package.json; platform of this
 * machine, e.g. linux-x64) in the repository's root or `<dir>`. Its one top folder
 * `portal-<version>/` holds everything the portal runs with, so the target machine needs nothing
 * installed (but PostgreSQL, or not even that on the embedded database) and nothing downloaded:
 *
 * - dist/: the front end (Vite, with its .br/.gz copies) and the server bundle dist/server.mjs, plus
 *   dist/admin.mjs, dist/backup.mjs, dist/restore.mjs for each of the operator scripts that exists
 *   (scripts/admin.ts, backup.ts, restore.ts), bundled like scripts/build-server.ts does;
 * - node_modules/: the production dependencies (`npm ci --omit=dev --ignore-scripts` from the
 *   repository's package-lock.json, the only step that needs the registry), then pruned to the
 *   packages the bundles import and what those depend on: the front end's libraries are already
 *   inside dist/, so antd, echarts, React… and tsx need not travel (about 450 MB → 70 MB);
 * - node/bin/node: a copy of the Node.js running this script (process.execPath), ~95 MB of the
 *   unpacked size, ~30 MB of the archive: an intranet machine rarely has Node 20 and cannot fetch it;
 * - package.json and package-lock.json (the server finds its root by package.json, src/server/paths.ts),
 *   schemas/ (read at run time: screens, dictionaries, menu);
 * - bin/portal (start | admin | backup | restore | audit-verify | version), README.txt, docs/operations.md,
 *   docs/configuration.md and docs/security.md, and
 *   etc/: portal.env.example, systemd/portal.service, nginx/portal.conf, haproxy/portal.cfg
 *   (templates in scripts/package/).
 *
 * There are no sources in the package: the embedded database templates are keyed by the bundle's
 * bytes there (src/server/paths.ts runningCodeHash). Nothing is written into the repository's dist/:
 * the builds go to a staging folder, so servers running from dist/ meanwhile are not disturbed.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { parseCommandLine } from '../src/server/command-line.mjs';
import { NODE_BUNDLE } from './build-server';

const root = fileURLToPath(new URL('..', import.meta.url));
const templates = join(root, 'scripts', 'package');
/** The operator scripts bundled beside the server when they exist (bin/portal admin | backup | restore | audit-verify). */
export const OPERATOR_SCRIPTS = ['admin', 'backup', 'restore', 'audit-verify'] as const;

const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const say = (message: string) => console.log(`[打包 ${elapsed()}] ${message}`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.error?.message ?? `exit status ${result.status}`})`);
}

/** Bytes under `path` (files as they are, symbolic links not followed). */
function sizeOf(path: string): number {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

/** The package a bare import names (`@scope/name/sub` → `@scope/name`), null for Node's own modules. */
function packageName(specifier: string): string | null {
  if (isBuiltin(specifier) || specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Bundles the server and the operator scripts into `dist`; returns the packages they import. */
async function bundle(dist: string): Promise<{ entries: string[]; imports: Set<string> }> {
  const entryPoints: Record<string, string> = { server: join(root, 'src/server/main.ts') };
  for (const name of OPERATOR_SCRIPTS) {
    const file = join(root, 'scripts', `${name}.ts`);
    if (existsSync(file)) entryPoints[name] = file;
  }
  // As scripts/build-server.ts builds dist/server.mjs: one ES module each, packages external.
  const result = await build({ ...NODE_BUNDLE, entryPoints, outdir: dist, outExtension: { '.js': '.mjs' }, metafile: true });
  const imports = new Set<string>();
  for (const output of Object.values(result.metafile.outputs))
    for (const imported of output.imports) {
      const name = imported.external ? packageName(imported.path) : null;
      if (name) imports.add(name);
    }
  return { entries: Object.keys(entryPoints), imports };
}

/** The directory Node would load package `name` from when required inside `from` (null: not installed). */
function resolvePackage(top: string, from: string, name: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === top || dirname(dir) === dir) return null;
  }
}

/** Every installed package directory under `dir`/node_modules, nested ones included. */
function* installedPackages(dir: string): Generator<string> {
  const modules = join(dir, 'node_modules');
  if (!existsSync(modules)) return;
  for (const name of readdirSync(modules)) {
    if (name.startsWith('.')) continue;
    const path = join(modules, name);
    if (name.startsWith('@')) {
      for (const scoped of readdirSync(path)) {
        yield join(path, scoped);
        yield* installedPackages(join(path, scoped));
      }
    } else {
      yield path;
      yield* installedPackages(path);
    }
  }
}

/**
 * Removes the installed packages the bundles cannot reach: reachable are the ones they import and,
 * from each reached package, its dependencies, optional and peer dependencies as Node resolves them
 * (its own node_modules first, then the folders above). Returns how many packages were kept and removed.
 */
function prune(top: string, imports: Iterable<string>): { kept: number; removed: number } {
  const keep = new Set<string>();
  const queue: string[] = [];
  const reach = (from: string, name: string, required: boolean) => {
    const dir = resolvePackage(top, from, name);
    if (!dir) {
      if (required) throw new Error(`package ${name} (needed from ${from}) is not installed`);
      return;
    }
    if (!keep.has(dir)) {
      keep.add(dir);
      queue.push(dir);
    }
  };
  for (const name of imports) reach(top, name, true);
  while (queue.length > 0) {
    const dir = queue.pop()!;
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const name of Object.keys(pkg.dependencies ?? {})) reach(dir, name, !(name in (pkg.optionalDependencies ?? {})));
    for (const name of Object.keys({ ...pkg.optionalDependencies, ...pkg.peerDependencies })) reach(dir, name, false);
  }
  let removed = 0;
  // Collected first: removing a package while walking would walk into what is gone.
  for (const dir of [...installedPackages(top)]) {
    if (keep.has(dir) || !existsSync(dir)) continue;
    rmSync(dir, { recursive: true, force: true });
    removed++;
  }
  // npm's own records of the tree (no longer true) and the command links: nothing at run time reads them.
  rmSync(join(top, 'node_modules', '.package-lock.json'), { force: true });
  rmSync(join(top, 'node_modules', '.bin'), { recursive: true, force: true });
  for (const name of readdirSync(join(top, 'node_modules')))
    if (name.startsWith('@') && readdirSync(join(top, 'node_modules', name)).length === 0) rmSync(join(top, 'node_modules', name), { recursive: true });
  return { kept: keep.size, removed };
}

/** A template of scripts/package/ with @VERSION@, @PLATFORM@ and @NODE_VERSION@ filled in. */
function writeTemplate(name: string, target: string, values: Record<string, string>, mode = 0o644): void {
  let text = readFileSync(join(templates, name), 'utf8');
  for (const [key, value] of Object.entries(values)) text = text.replaceAll(`@${key}@`, value);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  chmodSync(target, mode);
}

export async function makePackage(out: string): Promise<{ archive: string; bytes: number }> {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const platform = `${process.platform}-${process.arch}`;
  const name = `portal-${version}`;
  const archive = join(out, `${name}-${platform}.tar.gz`);
  const staging = mkdtempSync(join(tmpdir(), 'portal-package-'));
  const stage = join(staging, name);
  mkdirSync(stage);
  try {
    say(`构建前端 / building the front end → ${stage}/dist`);
    const env = { ...process.env, NODE_ENV: 'production' };
    run(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', join(stage, 'dist'), '--emptyOutDir', '--logLevel', 'warn'],
      root,
      env,
    );

    const { entries, imports } = await bundle(join(stage, 'dist'));
    const missing = OPERATOR_SCRIPTS.filter((s) => !entries.includes(s));
    say(
      `服务端打包 / bundled: ${entries.map((e) => `dist/${e}.mjs`).join(', ')}${missing.length ? `（无 / absent: ${missing.map((s) => `scripts/${s}.ts`).join(', ')}）` : ''}`,
    );

    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(root, file), join(stage, file));
    cpSync(join(root, 'schemas'), join(stage, 'schemas'), { recursive: true });
    say('安装生产依赖 / npm ci --omit=dev --ignore-scripts');
    run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], stage, { ...process.env, NODE_ENV: 'production' });
    const installed = sizeOf(join(stage, 'node_modules'));
    const { kept, removed } = prune(stage, imports);
    const modules = sizeOf(join(stage, 'node_modules'));
    say(`依赖 / dependencies: ${kept} packages kept, ${removed} the bundles never load removed (${mb(installed)} → ${mb(modules)})`);

    const node = join(stage, 'node', 'bin', 'node');
    mkdirSync(dirname(node), { recursive: true });
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o755);
    for (const license of [join(dirname(process.execPath), '..', 'LICENSE'), join(dirname(process.execPath), '..', 'share', 'doc', 'nodejs', 'LICENSE')])
      if (existsSync(license)) {
        copyFileSync(license, join(stage, 'node', 'LICENSE'));
        break;
      }

    const values = { VERSION: version, PLATFORM: platform, NODE_VERSION: process.version };
    writeTemplate('portal', join(stage, 'bin', 'portal'), values, 0o755);
    writeTemplate('README.txt', join(stage, 'README.txt'), values);
    writeTemplate('portal.env.example', join(stage, 'etc', 'portal.env.example'), values);
    writeTemplate('portal.service', join(stage, 'etc', 'systemd', 'portal.service'), values);
    writeTemplate('nginx.conf', join(stage, 'etc', 'nginx', 'portal.conf'), values);
    writeTemplate('haproxy.cfg', join(stage, 'etc', 'haproxy', 'portal.cfg'), values);
    for (const guide of ['operations.md', 'configuration.md', 'security.md']) {
      if (!existsSync(join(root, 'docs', guide))) continue;
      mkdirSync(join(stage, 'docs'), { recursive: true });
      copyFileSync(join(root, 'docs', guide), join(stage, 'docs', guide));
    }

    say(`压缩 / writing ${archive}`);
    mkdirSync(out, { recursive: true });
    const tmp = `${archive}.${process.pid}.tmp`;
    try {
      // Owned by root in the archive whoever packs it: unpacked by root into /opt, nobody else may change it.
      run('tar', ['-C', staging, '--owner=0', '--group=0', '--numeric-owner', '-czf', tmp, name], staging);
      renameSync(tmp, archive);
    } finally {
      rmSync(tmp, { force: true });
    }
    const bytes = statSync(archive).size;
    console.log(
      [
        `内容 / contents (unpacked ${mb(sizeOf(stage))}): node/bin/node ${mb(statSync(node).size)} (Node.js ${process.version}), node_modules ${mb(modules)}, dist ${mb(sizeOf(join(stage, 'dist')))}, schemas ${mb(sizeOf(join(stage, 'schemas')))}`,
        `安装包 / package: ${archive} (${mb(bytes)}) in ${elapsed()}`,
      ].join('\n'),
    );
    return { archive, bytes };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseCommandLine({
    name: 'npm run package',
    bilingual: true,
    summary: [
      '生成离线安装包 portal-<版本>-<平台>.tar.gz：前端与服务端程序、生产依赖、本机的 Node.js、bin/portal、配置模板与运维文档，目标机器无需联网、无需安装 Node.js。',
      "Makes the offline installation package portal-<version>-<platform>.tar.gz: the built front end and server, the production dependencies, this machine's Node.js, bin/portal, configuration templates and the operations guide; the target machine needs no internet and no Node.js.",
    ],
    options: {
      out: { type: 'string', value: 'dir', description: "安装包所在目录（默认仓库根目录）/ where the archive goes (default: the repository's root)" },
    },
    examples: ['npm run package', 'npm run package -- --out /tmp'],
  });
  try {
    await makePackage(values.out === undefined ? root : resolve(values.out as string));
  } catch (err) {
    console.error(`打包失败 / packaging failed: ${(err as Error).message}`);
    process.exit(1);
  }
}
