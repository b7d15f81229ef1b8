/**
 * Demo or production (PORTAL_DEMO, src/server/main.ts), on the real server started as `npm start`
 * does: a server on PostgreSQL (`auto`) and the embedded default with PORTAL_DEMO=off write no demo
 * account, say so and point to `npm run admin`; the embedded default with no setting is the demo.
 * The operator's first administrator then comes from the CLI (tests/api/admin-cli.test.ts has the rest).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type StartedServer } from '../support/server';
import { freshPostgresDatabase, logInOver } from './helpers';
import { runAdmin } from '../support/admin-cli';

const SLOW = { timeout: 600_000 };
const PRODUCTION = '模式：生产（不写入演示账号与数据）/ Mode: production';
const HINT =
  /数据库中还没有账号：用 npm run admin -- create-authority.* \/ No account yet: create the first administrator with `npm run admin -- create-authority`/;
const DEMO = /模式：演示.*\/ Mode: demo/;

const admin = runAdmin;

const servers: StartedServer[] = [];
async function start(options: Parameters<typeof startServer>[0]): Promise<StartedServer> {
  const server = await startServer(options);
  servers.push(server);
  return server;
}
afterAll(() => Promise.all(servers.map((s) => s.stop())), 120_000);

describe.runIf(process.env.DATABASE_URL)('a server on PostgreSQL', () => {
  it('writes no demo account by default (auto), says production and how to create the first administrator', SLOW, async () => {
    const database = await freshPostgresDatabase();
    try {
      const server = await start({ env: { DATABASE_URL: database.url, PORTAL_DEMO: 'auto' } });
      expect(server.output()).toContain(PRODUCTION);
      expect(server.output()).toMatch(HINT);
      expect(server.output()).not.toMatch(DEMO);
      expect((await logInOver(server.baseURL, 'nbadmin')).reply).toMatchObject({ result: 'false', message: '账号或密码错误' });
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        expect((await client.query('SELECT count(*)::int AS n FROM sys_user')).rows).toEqual([{ n: 0 }]);
      } finally {
        await client.end();
      }
      await server.stop();
    } finally {
      await database.drop();
    }
  });
});

describe('the embedded database', () => {
  it('with PORTAL_DEMO=off: production, no demo account; the CLI waits for the server to stop, then makes the first administrator', SLOW, async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-production-')), 'data');
    try {
      const env = { PORTAL_DEMO: 'off' };
      const server = await start({ env, dataDir });
      expect(server.output()).toContain(PRODUCTION);
      expect(server.output()).toMatch(HINT);
      expect(server.output()).toContain("Note: PORTAL_MASTER_KEY is not set; the server's private keys and SSO secret are stored unsealed");
      expect((await logInOver(server.baseURL, 'nbadmin')).reply).toMatchObject({ result: 'false', message: '账号或密码错误' });

      const held = await admin(['create-authority', '--login', 'jgroot', '--name', '陈静', '--generate'], { PORTAL_DATA_DIR: dataDir });
      expect(held.status).toBe(1);
      expect(held.stderr).toMatch(/^PORTAL_DATA_DIR 正被运行中的门户服务使用/);
      await server.stop();

      const created = await admin(['create-authority', '--login', 'jgroot', '--name', '陈静', '--generate'], { PORTAL_DATA_DIR: dataDir });
      expect(created.status, created.stderr).toBe(0);
      expect(created.stdout).toContain('已创建管理员 jgroot（陈静） / Created administrator jgroot');

      const again = await start({ env, dataDir });
      expect(again.output()).toContain(PRODUCTION);
      expect(again.output()).not.toMatch(HINT);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('with no setting: the demo, its accounts listed in the banner', SLOW, async () => {
    const server = await start({});
    expect(server.output()).toMatch(DEMO);
    expect(server.output()).toContain('Demo accounts (login name, password, org code):');
    expect(server.output()).not.toContain(PRODUCTION);
    expect((await logInOver(server.baseURL, 'nbadmin')).reply).toMatchObject({ result: 'true' });
  });
});
