/**
 * Start-up is deterministic: several fresh servers started at once all come up, each
 * on its own data directory with its own secrets; the embedded database is never left spinning
 * when it is closed early; the database template is built once however many starts ask for it.
 * Speed is measured by `npm run bench:start`, not asserted here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseTemplate, templateFileName, type TemplateRecipe } from '../../src/server/db/pglite-template';
import { startServer, type StartedServer } from '../support/server';
import { logInOver } from './helpers';

describe('four fresh starts at once', () => {
  const servers: StartedServer[] = [];
  afterAll(() => Promise.all(servers.map((s) => s.stop())));

  it('all come up, each with the demo data, its own data directory and its own key pair', { timeout: 300_000 }, async () => {
    const started = await Promise.allSettled([0, 1, 2, 3].map(() => startServer()));
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failure = started.find((s) => s.status === 'rejected');
    if (failure) throw failure.reason;

    expect(new Set(servers.map((s) => s.dataDir)).size).toBe(4);
    const logins = await Promise.all(servers.map((s) => logInOver(s.baseURL, 'nbadmin')));
    for (const { reply } of logins) expect(reply.result).toBe('true');
    // The template holds no secret: every database generated its own key pair at first start.
    expect(new Set(logins.map((l) => l.publicKey)).size).toBe(4);
    for (const s of servers) expect(s.output()).toMatch(/\[启动 [\d.]+s\]/);
  });
});

describe('the embedded database', () => {
  it('closes promptly when closed while still initialising with a query waiting (PGlite 0.4 spun forever there)', () => {
    // In a child process: a spinning event loop would stop this test runner too.
    const script = `
      const { PGlite } = await import('@electric-sql/pglite');
      const { Kysely, sql } = await import('kysely');
      const { PgliteDialect } = await import('./src/server/db/pglite.ts');
      const db = new Kysely({ dialect: new PgliteDialect(new PGlite('memory://')) });
      const pending = sql\`select 1 as one\`.execute(db).then(() => 'answered', (e) => 'failed: ' + e.message);
      await new Promise((r) => setTimeout(r, 1000));
      await db.destroy();
      console.log('closed', await pending);`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8', timeout: 90_000 });
    expect(run.signal, `${run.stdout}\n${run.stderr}`).toBeNull();
    expect(run.stdout).toContain('closed answered');
    expect(run.status).toBe(0);
  });
});

describe('database templates', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'portal-template-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  const recipe = (key: string, onPrepare: () => void): TemplateRecipe => ({
    key,
    prepare: async (pg) => {
      onPrepare();
      await pg.exec('CREATE TABLE marker (id int); INSERT INTO marker VALUES (42);');
    },
  });

  it('is prepared once when several starts ask at the same time, and reused afterwards; old ones are pruned', async () => {
    const unused = join(cacheDir, 'pglite-0.0.0-0123456789abcdef.tar');
    writeFileSync(unused, 'old');
    const longAgo = new Date(Date.now() - 10 * 86_400_000);
    utimesSync(unused, longAgo, longAgo);
    let prepared = 0;
    const r = recipe(`once-${Date.now()}`, () => prepared++);
    const tarballs = await Promise.all([1, 2, 3].map(() => databaseTemplate(r, { cacheDir })));
    expect(prepared).toBe(1);
    for (const t of tarballs) expect(t?.size).toBeGreaterThan(1_000_000);
    expect((await databaseTemplate(r, { cacheDir }))?.size).toBe(tarballs[0]!.size);
    expect(prepared).toBe(1);
    expect(existsSync(unused)).toBe(false);
  });

  it('writes a fresh data directory from the template file, even one cut short, keeping no copy of it in memory', { timeout: 180_000 }, async () => {
    const key = `extract-${Date.now()}`;
    const template = await databaseTemplate(
      recipe(key, () => undefined),
      { cacheDir },
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'portal-extract-'));
    try {
      // What an extraction killed half-way leaves: some files, no PG_VERSION.
      mkdirSync(join(dataDir, 'global'));
      writeFileSync(join(dataDir, 'global', 'pg_control'), 'cut short');
      // In a child process: its memory is the point (PGlite's own loadDataDir kept ~ the tarball's size in array buffers).
      const script = `
        const { openPglite } = await import('./src/server/db/pglite.ts');
        const pg = await openPglite(${JSON.stringify(dataDir)}, { key: ${JSON.stringify(key)}, prepare: async () => { throw new Error('rebuilt'); } }, { cacheDir: ${JSON.stringify(cacheDir)} });
        const { rows } = await pg.query('SELECT id FROM marker');
        globalThis.gc();
        console.log(JSON.stringify({ rows, arrayBuffers: process.memoryUsage().arrayBuffers }));
        await pg.close();`;
      const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', script], {
        encoding: 'utf8',
        timeout: 150_000,
      });
      expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
      const { rows, arrayBuffers } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { rows: unknown[]; arrayBuffers: number };
      expect(rows).toEqual([{ id: 42 }]);
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(arrayBuffers).toBeLessThan(template!.size / 2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('takes over a lock left by a killed process, and gives up (null) in time on a live one', async () => {
    let prepared = 0;
    const stale = recipe(`stale-${Date.now()}`, () => prepared++);
    const live = recipe(`live-${Date.now()}`, () => prepared++);
    // A lock older than staleMs: taken over and the template built.
    const staleFile = join(cacheDir, templateFileName(stale));
    writeFileSync(`${staleFile}.lock`, '');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(`${staleFile}.lock`, old, old);
    expect(await databaseTemplate(stale, { cacheDir, staleMs: 60_000 })).not.toBeNull();
    expect(prepared).toBe(1);

    // A fresh lock of a live builder: wait at most waitMs, then null (the caller initialises its own).
    const liveFile = join(cacheDir, templateFileName(live));
    writeFileSync(`${liveFile}.lock`, '');
    const t0 = Date.now();
    expect(await databaseTemplate(live, { cacheDir, waitMs: 1_000 })).toBeNull();
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(prepared).toBe(1);
  });
});
