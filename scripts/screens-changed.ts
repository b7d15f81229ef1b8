/**
 * npm run screens:changed -- --base <git ref>   (or --files a,b)
 *
 * Pictures of every screen a change of schemas/ affects, as each demo role that may open it, for
 * the reviewer of a pull request: finds the changed schema files (git diff against the ref, the
 * working tree included), maps them to screens (scripts/screens-changed/affected.ts), starts a real
 * server with the demo data, shoots each route in headless Chromium and writes
 * test-results/screens-changed/index.html with the pictures and the schema lint's findings.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_USAGE, parseCommandLine, UsageError, usageLine, type CommandSpec } from '../src/server/command-line.mjs';
import { BadRefError, resolveBase } from './lint-schemas-base';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMAS = 'schemas';

const spec: CommandSpec = {
  name: 'npm run screens:changed',
  summary: [
    'Pictures of every screen a change under schemas/ affects, for the reviewer of a pull request: a changed screen, every screen bound to a changed resource, every screen using a field of a changed dictionary, the screens of changed menu entries.',
    'Starts a real server on a fresh data directory with the demo data, signs each demo role in that may open the screen, shoots its route full-page at 1366x768 in headless Chromium, and writes the pictures and index.html (route, role, changed files, schema lint findings) to the output directory. Nothing changed: index.html says so and no browser starts.',
  ],
  options: {
    base: {
      type: 'string',
      value: 'ref',
      description: 'compare the working tree with this git ref; "auto": as lint:schemas --base auto (where this branch left origin/main, else the last commit)',
    },
    files: {
      type: 'string',
      value: 'a,b',
      description: 'take these changed files instead of asking git (paths under schemas/, comma-separated); with --base the menu before is read from it',
    },
    out: { type: 'string', value: 'dir', description: 'output directory (default test-results/screens-changed)' },
    url: { type: 'string', value: 'url', description: 'shoot on this running portal (demo data, PORTAL_CAPTCHA=off) instead of starting one' },
  },
  env: [
    ['PORTAL_STATIC_DIR', 'a front-end build to serve (default dist/, built first when stale)'],
    ['CHROMIUM_PATH', 'the browser (default /usr/bin/chromium)'],
  ],
  examples: [
    'npm run screens:changed -- --base auto',
    'npm run screens:changed -- --base origin/main',
    'npm run screens:changed -- --files schemas/dicts/risk-grade.json',
  ],
};

const { values } = parseCommandLine(spec);
const usage = (message: string): never => {
  process.stderr.write(`${usageLine(spec, new UsageError(message))}\n`);
  process.exit(EXIT_USAGE);
};
if (typeof values.base !== 'string' && typeof values.files !== 'string') usage('give --base <ref> or --files <a,b>');
if (values.base === '' || values.files === '') usage('--base and --files need a value');

const outDir = resolve(typeof values.out === 'string' ? values.out : join(ROOT, 'test-results', 'screens-changed'));
const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const tryGit = (...args: string[]): string | undefined => {
  try {
    return git(...args);
  } catch {
    return undefined;
  }
};

/** The commit to compare with (the same choice as lint:schemas --base), or exits: nothing to compare with → one line, status 0; an unknown ref → one line, status 2. */
function baseRef(base: string): string {
  try {
    const resolved = resolveBase(ROOT, base);
    if ('skip' in resolved) {
      console.log(`screens:changed: nothing to compare with: ${resolved.skip}`);
      process.exit(0);
    }
    return resolved.ref;
  } catch (error) {
    if (error instanceof BadRefError) usage(error.message);
    throw error;
  }
}

const started = Date.now();
const base = typeof values.base === 'string' ? baseRef(values.base) : undefined;
const prefix = `${SCHEMAS}/`;
const toSchemaPath = (path: string) => {
  const relativePath = relative(ROOT, resolve(ROOT, path.trim())).split('\\').join('/');
  return relativePath.startsWith(prefix) ? relativePath.slice(prefix.length) : undefined;
};
let changedPaths: string[];
if (typeof values.files === 'string') {
  const listed = values.files.split(',').filter((f) => f.trim() !== '');
  const outside = listed.filter((f) => toSchemaPath(f) === undefined);
  if (outside.length > 0) usage(`not under ${prefix}: ${outside.join(', ')}`);
  changedPaths = listed.map((f) => toSchemaPath(f)!);
} else {
  const lines = `${git('diff', '--name-only', '--no-renames', base!, '--', SCHEMAS)}\n${git('ls-files', '--others', '--exclude-standard', '--', SCHEMAS)}`;
  changedPaths = lines
    .split('\n')
    .filter(Boolean)
    .map((f) => toSchemaPath(f)!);
}
const changed = [...new Set(changedPaths)].filter((f) => f.endsWith('.json') && !f.startsWith('meta/')).sort();
const ignored = [...new Set(changedPaths)].filter((f) => !changed.includes(f));

// The mapping, the lint and the report load once the command line is understood.
const [{ affectedScreens }, { catalogueOf, loadCatalogue }, { reportHtml }, { lintSchemas }, { HOOK_NAMES }, { RULE_NAMES }] = await Promise.all([
  import('./screens-changed/affected'),
  import('./screens-changed/catalogue'),
  import('./screens-changed/report'),
  import('../src/schema/node'),
  import('./hook-names'),
  import('./rule-names'),
]);
const schemaDir = join(ROOT, SCHEMAS);
const catalogue = loadCatalogue(schemaDir);
const menuBefore = base ? (catalogueOf([{ path: 'menu.json', text: tryGit('show', `${base}:${SCHEMAS}/menu.json`) ?? '' }]).menu ?? null) : undefined;
const result = affectedScreens(changed, catalogue, menuBefore);
for (const file of ignored)
  result.notes.push({ file, why: file.startsWith('meta/') ? 'a meta-schema: check every screen with npm run lint:schemas' : 'not a schema file' });
const against = base ? `git ${values.base} (${base.slice(0, 10)}) against the working tree` : 'the files given with --files';

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const write = (shots: Parameters<typeof reportHtml>[0]['shots'], lint: Parameters<typeof reportHtml>[0]['lint']) =>
  writeFileSync(join(outDir, 'index.html'), reportHtml({ against, changed, result, shots, lint, seconds: (Date.now() - started) / 1000 }));

console.log(`${changed.length} changed schema file(s) (${against}); ${result.screens.length} affected screen(s)`);
for (const screen of result.screens)
  console.log(`  ${screen.id}: ${screen.routes.map((r) => r.fullPath).join(', ') || '(no route)'} ← ${screen.causes.map((c) => c.file).join(', ')}`);
if (result.screens.length === 0) {
  write([], []);
  console.log(`${relative(process.cwd(), join(outDir, 'index.html'))}: no screen to show`);
  process.exit(0);
}

const lint = lintSchemas(schemaDir, { ruleNames: RULE_NAMES, hookNames: HOOK_NAMES }).errors;
const [{ startServer }, { renderScreens }, { isBuilt }, { buildFrontEnd }] = await Promise.all([
  import('../tests/support/server'),
  import('./screens-changed/render'),
  import('./build-stamp.mjs'),
  import('./build-front-end'),
]);
const given = typeof values.url === 'string' ? values.url.replace(/\/+$/, '') : undefined;
if (!given && !process.env.PORTAL_STATIC_DIR && !isBuilt()) {
  console.log('building the front end (dist/ is stale)…');
  await buildFrontEnd();
}
let server: { baseURL: string; stop(): Promise<void> } = { baseURL: given ?? '', stop: async () => undefined };
if (!given) {
  // Generous: a fresh start may wait for another process building the database template.
  const started = await startServer({ stallMs: 240_000, limitMs: 480_000 });
  console.log(`server ready in ${(started.readyMs / 1000).toFixed(1)} s at ${started.baseURL}`);
  server = started;
}
let failed = 0;
try {
  const facts = new Map(
    result.screens.map((s) => {
      const screen = catalogue.screens.get(s.id)!;
      const modes = 'modes' in screen ? screen.modes : undefined;
      return [s.id, { resource: screen.resource, modes, single: screen.kind === 'detail' && Boolean(screen.single) }];
    }),
  );
  const shots = await renderScreens(server, result.screens, facts, outDir, (line) => console.log(line));
  failed = shots.filter((s) => !s.png).length;
  write(shots, lint);
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `${relative(process.cwd(), join(outDir, 'index.html'))}: ${shots.length - failed} picture(s) of ${result.screens.length} screen(s) in ${seconds.toFixed(0)} s`,
  );
} finally {
  await server.stop();
}
process.exit(failed > 0 ? 1 : 0);
