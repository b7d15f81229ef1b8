/**
 * A setting that cannot work stops the start at once with one line, in Chinese and English, naming
 * the setting — never a stack trace — and the process exits with status 1. Run as an operator
 * would: the server bundle with plain node and the setting in the environment.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server';
import { loadConfig, StartupError, unknownSettings } from '../../src/server/config';
import { startupError } from '../../src/server/startup-errors';
import { startServer } from '../support/server';

const scratch = mkdtempSync(join(tmpdir(), 'portal-start-fail-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let bundle: Promise<string> | null = null;

/** Starts the server with `env` and waits for it to exit (at most 120 s: a start that hangs fails the test). */
async function startExpectingFailure(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const entry = await (bundle ??= buildServer());
  const base: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    PORTAL_DATA_DIR: 'memory://',
    PORTAL_DEMO: 'off',
    LOG_LEVEL: 'warn',
    PORTAL_CAPTCHA: 'off',
  };
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, [entry], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += String(c)));
  child.stderr.on('data', (c) => (stderr += String(c)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const status = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(killer);
  return { status, stdout, stderr };
}

/** The one failure line: both languages, the setting named in each, no stack frame anywhere. */
function expectOneLine(run: { status: number | null; stdout: string; stderr: string }, setting: string): void {
  expect(run.status, run.stdout + run.stderr).toBe(1);
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('启动失败'));
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(`启动失败：${setting} `);
  expect(lines[0]).toContain(`/ Failed to start: ${setting} `);
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at /m);
}

describe('a start that cannot work', () => {
  it('names DATABASE_URL when the database refuses connections', { timeout: 180_000 }, async () => {
    const run = await startExpectingFailure({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/portal' });
    expectOneLine(run, 'DATABASE_URL');
    expect(run.stderr).toContain('连接被拒绝');
  });

  it('names DATABASE_URL when it is not a PostgreSQL URL', { timeout: 180_000 }, async () => {
    expectOneLine(await startExpectingFailure({ DATABASE_URL: 'mysql://root@127.0.0.1/portal' }), 'DATABASE_URL');
  });

  it.runIf(process.env.DATABASE_URL)('names DATABASE_URL when the database does not exist', { timeout: 180_000 }, async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/portal_no_such_database';
    const run = await startExpectingFailure({ DATABASE_URL: url.toString() });
    expectOneLine(run, 'DATABASE_URL');
    expect(run.stderr).toContain('数据库不存在');
  });

  it('names PORTAL_METRICS_PORT when that port is taken', { timeout: 180_000 }, async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => taken.once('listening', resolve));
    try {
      const run = await startExpectingFailure({ PORTAL_METRICS_PORT: String((taken.address() as AddressInfo).port) });
      expectOneLine(run, 'PORTAL_METRICS_PORT');
    } finally {
      taken.close();
    }
  });

  it.runIf(process.env.DATABASE_URL)(
    'asks PostgreSQL for TLS with PGSSLMODE=require: connected, or one line naming PGSSLMODE when it has none',
    { timeout: 180_000 },
    async () => {
      const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await client.connect();
      const ssl = (await client.query<{ ssl: string }>('show ssl')).rows[0].ssl;
      await client.end();
      if (ssl === 'on') {
        const server = await startServer({ env: { DATABASE_URL: process.env.DATABASE_URL!, PGSSLMODE: 'require', PORTAL_DEMO: 'off' } });
        await server.stop();
      } else {
        const run = await startExpectingFailure({ DATABASE_URL: process.env.DATABASE_URL!, PGSSLMODE: 'require' });
        expectOneLine(run, 'PGSSLMODE');
        expect(run.stderr).toContain('does not support SSL');
      }
    },
  );

  it('names PORTAL_TRUST_PROXY for a malformed range and a timeout below zero', { timeout: 180_000 }, async () => {
    expectOneLine(await startExpectingFailure({ PORTAL_TRUST_PROXY: '10.0.0.0/33' }), 'PORTAL_TRUST_PROXY');
    expectOneLine(await startExpectingFailure({ PORTAL_PG_STATEMENT_TIMEOUT_MS: '-1' }), 'PORTAL_PG_STATEMENT_TIMEOUT_MS');
  });

  it.runIf(process.getuid?.() !== 0)('names PORTAL_ATTACHMENT_DIR when the folder cannot be written', { timeout: 180_000 }, async () => {
    const readOnly = join(scratch, 'read-only');
    mkdirSync(readOnly);
    chmodSync(readOnly, 0o555);
    expectOneLine(await startExpectingFailure({ PORTAL_ATTACHMENT_DIR: join(readOnly, 'files') }), 'PORTAL_ATTACHMENT_DIR');
  });

  it('names PORTAL_ATTACHMENT_DIR when it lies on a read-only file system', { timeout: 180_000 }, async () => {
    // /proc refuses new folders whoever asks (root included).
    expectOneLine(await startExpectingFailure({ PORTAL_ATTACHMENT_DIR: '/proc/portal-attachments' }), 'PORTAL_ATTACHMENT_DIR');
  });

  it('names PORTAL_MASTER_KEY when the server keys were sealed and it is now missing', { timeout: 360_000 }, async () => {
    const dataDir = join(scratch, 'sealed');
    const server = await startServer({ dataDir, env: { PORTAL_MASTER_KEY: randomBytes(32).toString('hex'), PORTAL_DEMO: 'off' } });
    await server.stop();
    const run = await startExpectingFailure({ PORTAL_DATA_DIR: dataDir });
    expectOneLine(run, 'PORTAL_MASTER_KEY');
    expect(run.stderr).toContain('已加密保存');
  });
});

describe('the settings check', () => {
  it('maps driver and system errors to the setting an operator changes', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db/portal', PORT: '8080' });
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:5432'), { code: 'ECONNREFUSED' });
    // The migration wrapper keeps the driver's error as its cause.
    expect(startupError(new Error('migration (unknown) failed', { cause: refused }), config)?.setting).toBe('DATABASE_URL');
    expect(startupError(Object.assign(new Error('password authentication failed'), { code: '28P01' }), config)?.zh).toContain('用户名或密码错误');
    expect(startupError(Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' }), config)?.setting).toBe('PORT');
    expect(startupError(new Error('something else'), config)).toBeNull();
  });

  it('refuses malformed values with a StartupError naming the variable', () => {
    for (const [env, value] of [
      ['PORTAL_TRUST_PROXY', '300.1.1.1'],
      ['PORTAL_TRUST_PROXY', 'foo'],
      ['PORTAL_DEMO', 'maybe'],
      ['PORTAL_PG_POOL_MAX', '0'],
      ['PGSSLMODE', 'prefer-ish'],
      ['PORTAL_METRICS_PORT', '0'],
    ] as const) {
      let error: unknown;
      try {
        loadConfig({ [env]: value });
      } catch (err) {
        error = err;
      }
      expect(error, `${env}=${value}`).toBeInstanceOf(StartupError);
      expect((error as StartupError).setting).toBe(env);
      expect((error as StartupError).line()).toMatch(new RegExp(`^启动失败：${env} .+ / Failed to start: ${env} `));
    }
    expect(loadConfig({ PORTAL_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(loadConfig({ PORTAL_TRUST_PROXY: 'on' }).trustProxy).toBe(true);
  });

  it('reports a misspelt PORTAL_ variable with the nearest known name', () => {
    expect(unknownSettings({ PORTAL_SHUTDOWN_TIMOUT: '5', PORTAL_DEMO: 'off', PORTAL_WHATEVER_ELSE_ENTIRELY: '1', HOME: '/root' })).toEqual([
      { name: 'PORTAL_SHUTDOWN_TIMOUT', suggestion: 'PORTAL_SHUTDOWN_TIMEOUT' },
      { name: 'PORTAL_WHATEVER_ELSE_ENTIRELY', suggestion: null },
    ]);
  });
});
