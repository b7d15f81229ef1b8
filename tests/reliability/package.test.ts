/**
 * The offline installation package (scripts/package.ts, `npm run package`): built once here, then
 * unpacked into an empty folder outside the repository and run the way docs/operations.md tells an
 * operator to, on a machine that has nothing: PATH holds only bash and the few commands bin/portal
 * uses (no node, no npm, none of the repository's node_modules/.bin), npm's registry points at a
 * closed port, HOME is empty, the working directory is the unpacked folder. On a new PostgreSQL
 * database (when DATABASE_URL is set) and on the embedded one: `bin/portal start` with
 * PORTAL_DEMO=off reaches `Portal ready`, `bin/portal admin create-authority` makes the first
 * administrator, who logs in over HTTP, and GET / is the front end. Slow (the build, `npm ci` and
 * the archive: about two minutes on two cores); needs the registry while packaging.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_SCRIPTS } from '../../scripts/package';
import { makeUscc } from '../../src/server/db/uscc';
import { API, type Envelope } from '../../src/shared/contract';
import { encrypt, freshPostgresDatabase } from '../api/helpers';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const NAME = `portal-${version}`;
/** The admin CLI is bundled when its entry exists (as backup and restore: OPERATOR_SCRIPTS). */
const HAS_ADMIN = existsSync(join(ROOT, 'scripts', 'admin.ts'));
/** The commands bin/portal needs from the system (everything else comes with the package). */
const SYSTEM_COMMANDS = ['bash', 'env', 'dirname', 'readlink', 'cat'];

/** Runs a command to its end; rejects with its output when it fails. */
function runToEnd(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += String(c)));
    child.stderr.on('data', (c: Buffer) => (output += String(c)));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(output);
      else reject(new Error(`${command} ${args.join(' ')} ended with ${code ?? signal}; its output:\n${output}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

interface Running {
  baseURL: string;
  output(): string;
  /** SIGTERM; resolves to the exit status. */
  stop(): Promise<number | null>;
}

/** `bin/portal start`, resolved when it prints `Portal ready: <url>`. */
function startPortal(folder: string, env: NodeJS.ProcessEnv, limitMs = 180_000): Promise<Running> {
  const child: ChildProcess = spawn(join(folder, 'bin', 'portal'), ['start'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    }
    return child.exitCode;
  };
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(limit);
      void stop().then(() => reject(new Error(`bin/portal start ${why}; its output:\n${output}`)));
    };
    const limit = setTimeout(() => fail(`was not ready within ${limitMs / 1000} s`), limitMs);
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      const ready = /Portal ready: (http:\/\/\S+)/.exec(output);
      if (ready) {
        clearTimeout(limit);
        resolve({ baseURL: ready[1], output: () => output, stop });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code, signal) => fail(`exited early (${code ?? signal})`));
  });
}

/** A valid unified social credit code for a new authority unit (type 11: a government body). */
function newOrgCode(): string {
  for (;;) {
    try {
      return makeUscc('11', '330200', String(Math.floor(Math.random() * 1e8)).padStart(8, '0'));
    } catch {
      /* a body without a check character: draw again */
    }
  }
}

/** Logs in over HTTP as the login page does (RSA-encrypted fields, captcha off); returns the reply. */
async function logIn(baseURL: string, loginName: string, password: string, orgCode: string): Promise<Envelope<{ sessionid: string }>> {
  const base = `${baseURL}/espServer`;
  const { data } = (await (await fetch(`${base}${API.publicKey}`)).json()) as Envelope<{ publicKey: string }>;
  const key = data!.publicKey;
  const form = new URLSearchParams({
    username: encrypt(key, loginName),
    password: encrypt(key, password),
    orgCode: encrypt(key, orgCode),
    validateCode: '',
    __ajax: 'json',
  });
  const res = await fetch(`${base}${API.login}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() });
  return (await res.json()) as Envelope<{ sessionid: string }>;
}

describe('offline installation package (npm run package)', () => {
  const work = mkdtempSync(join(tmpdir(), 'portal-package-test-'));
  let folder = '';
  let offline: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    const out = join(work, 'out');
    const log = await runToEnd('npm', ['run', 'package', '--', '--out', out], { cwd: ROOT, timeoutMs: 12 * 60_000 });
    const archives = readdirSync(out).filter((f) => /^portal-.+\.tar\.gz$/.test(f));
    expect(archives).toEqual([`${NAME}-${process.platform}-${process.arch}.tar.gz`]);
    const archive = join(out, archives[0]);
    console.log(
      `package: ${archive} ${(statSync(archive).size / 1024 / 1024).toFixed(1)} MB\n${log
        .split('\n')
        .filter((l) => /内容|安装包|依赖/.test(l))
        .join('\n')}`,
    );

    const install = join(work, 'install');
    mkdirSync(install);
    expect(spawnSync('tar', ['-xzf', archive, '-C', install]).status).toBe(0);
    expect(readdirSync(install)).toEqual([NAME]);
    folder = join(install, NAME);

    // A machine with nothing installed: only the commands bin/portal itself uses are on PATH.
    const system = join(work, 'system-bin');
    mkdirSync(system);
    for (const command of SYSTEM_COMMANDS) {
      const path = ['/usr/bin', '/bin'].map((d) => join(d, command)).find((p) => existsSync(p));
      if (!path) throw new Error(`${command} not found`);
      symlinkSync(path, join(system, command));
    }
    const home = join(work, 'home');
    mkdirSync(home);
    offline = {
      PATH: system,
      HOME: home,
      LANG: 'C.UTF-8',
      npm_config_registry: 'http://127.0.0.1:9',
      HOST: '127.0.0.1',
      PORT: '0',
      PORTAL_DEMO: 'off',
      PORTAL_CAPTCHA: 'off',
      LOG_LEVEL: 'warn',
    };
  }, 15 * 60_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('holds the runtime, the bundles, the server dependencies and the operator files, nothing of the sources', () => {
    for (const path of [
      'bin/portal',
      'node/bin/node',
      'dist/server.mjs',
      'dist/index.html',
      'package.json',
      'schemas/menu.json',
      'node_modules/fastify/package.json',
      'node_modules/@electric-sql/pglite/package.json',
      'README.txt',
      'etc/portal.env.example',
      'etc/systemd/portal.service',
      'etc/nginx/portal.conf',
      'etc/haproxy/portal.cfg',
      ...OPERATOR_SCRIPTS.filter((name) => existsSync(join(ROOT, 'scripts', `${name}.ts`))).map((name) => `dist/${name}.mjs`),
      ...['docs/operations.md', 'docs/configuration.md', 'docs/security.md'].filter((guide) => existsSync(join(ROOT, guide))),
    ])
      expect(existsSync(join(folder, path)), path).toBe(true);
    // The front end's libraries are inside dist/; the build tools never travel.
    for (const path of ['src', 'node_modules/antd', 'node_modules/react', 'node_modules/vite', 'node_modules/typescript', 'node_modules/tsx'])
      expect(existsSync(join(folder, path)), path).toBe(false);
    expect(statSync(join(folder, 'bin/portal')).mode & 0o111).not.toBe(0);
    expect(spawnSync(join(folder, 'bin/portal'), ['version'], { env: offline, encoding: 'utf8' }).stdout).toContain(
      `portal ${version} (Node.js ${process.version})`,
    );
    const service = readFileSync(join(folder, 'etc/systemd/portal.service'), 'utf8');
    for (const line of [
      'User=portal',
      'EnvironmentFile=',
      'Restart=on-failure',
      'KillSignal=SIGTERM',
      'TimeoutStopSec=35',
      'NoNewPrivileges=true',
      'ProtectSystem=strict',
      'ReadWritePaths=',
      'PrivateTmp=true',
    ])
      expect(service).toContain(line);
    const haproxy = readFileSync(join(folder, 'etc/haproxy/portal.cfg'), 'utf8');
    for (const line of ['option httpchk GET /espServer/health/ready', 'retry-on conn-failure empty-response 503', 'option redispatch', 'retries 3'])
      expect(haproxy).toContain(line);
  });

  it.runIf(existsSync('/usr/sbin/haproxy'))('ships a HAProxy configuration HAProxy accepts', () => {
    const check = spawnSync('/usr/sbin/haproxy', ['-c', '-f', join(folder, 'etc/haproxy/portal.cfg')], { encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
  });

  /** Starts the package, makes the first administrator (before or after the start), logs in, fetches the front end. */
  async function installAndUse(env: NodeJS.ProcessEnv, adminFirst: boolean): Promise<void> {
    const loginName = 'pkgadmin';
    const password = 'Pkg#Admin2026x';
    const orgCode = newOrgCode();
    const createAdmin = async () => {
      const said = await runToEnd(
        join(folder, 'bin/portal'),
        ['admin', 'create-authority', '--login', loginName, '--name', '陈静', '--unit-name', '某市市场监督管理局特种设备安全监察处', '--org-code', orgCode],
        { cwd: folder, env, input: `${password}\n${password}\n`, timeoutMs: 180_000 },
      );
      expect(said).toContain(orgCode);
    };
    // The embedded database serves one process: its administrator is made before the server starts.
    if (HAS_ADMIN && adminFirst) await createAdmin();
    const portal = await startPortal(folder, env);
    try {
      expect(portal.output()).toContain('Mode: production');
      if (HAS_ADMIN && !adminFirst) await createAdmin();
      if (HAS_ADMIN) {
        const reply = await logIn(portal.baseURL, loginName, password, orgCode);
        expect(reply.result, reply.message).toBe('true');
        const info = (await (await fetch(`${portal.baseURL}/espServer${API.userInfo}?__sid=${reply.data!.sessionid}`)).json()) as Envelope<unknown>;
        expect(info.result, info.message).toBe('true');
      } else {
        console.warn('scripts/admin.ts is not in the tree: the package has no admin CLI, no login checked');
      }
      const page = await fetch(`${portal.baseURL}/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<script type="module"[^>]+src="\/assets\//);
      // The build's precompressed copies are served as they are.
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
      const asset = await fetch(`${portal.baseURL}${script}`, { headers: { 'accept-encoding': 'br' } });
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding')).toBe('br');
      // Read to the end: an answer the client never reads stays in flight, and the stop below
      // would wait for it until PORTAL_SHUTDOWN_TIMEOUT and exit 1 (seen once in CI).
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      const status = await portal.stop();
      expect(status, `bin/portal start stopped with status ${status}; its output:\n${portal.output()}`).toBe(0);
    }
  }

  it.runIf(process.env.DATABASE_URL)('starts on a new PostgreSQL database, makes the first administrator, who logs in', async () => {
    const database = await freshPostgresDatabase();
    try {
      await installAndUse({ ...offline, DATABASE_URL: database.url }, false);
    } finally {
      await database.drop();
    }
  });

  it('starts on the embedded database in PORTAL_DATA_DIR, the administrator made first; backs it up', async () => {
    const env = { ...offline, PORTAL_DATA_DIR: join(work, 'data'), PORTAL_CACHE_DIR: join(work, 'cache') };
    await installAndUse(env, true);
    expect(existsSync(join(work, 'data', 'PG_VERSION'))).toBe(true);
    // The backup tool runs from the package too (the embedded database needs no pg_dump).
    if (existsSync(join(ROOT, 'scripts', 'backup.ts'))) {
      const file = join(work, 'backup.tar.gz');
      await runToEnd(join(folder, 'bin/portal'), ['backup', '--out', file], { cwd: folder, env, timeoutMs: 120_000 });
      expect(statSync(file).size).toBeGreaterThan(0);
    }
  });
});
