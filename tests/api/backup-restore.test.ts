/**
 * `npm run backup` and `npm run restore` (src/server/ops/backup.ts) end to end, as an operator runs
 * them: a real server (tests/support/server.ts) with the demo data and an uploaded attachment is
 * backed up while it runs, the archive is restored into an empty target, and a server started on
 * the target has the same rows in every table and serves the same attachment bytes. The embedded
 * database always; PostgreSQL too when DATABASE_URL is set. Then the refusals: each one line, its
 * exit status, nothing changed.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/server/db/index';
import { readManifest } from '../../src/server/ops/backup';
import { ATTACHMENT_ROUTES, type AttachmentInfo, type Envelope } from '../../src/shared/contract';
import { startServer, type StartedServer } from '../support/server';
import { freshPostgresDatabase, logInOver } from './helpers';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LONG = { timeout: 900_000 };

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n' +
    `% backup test ${Math.random()}\n`,
  'latin1',
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run backup|restore -- …args` with the given environment (the server's settings). */
function cli(command: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${command}.ts`, ...args], {
      cwd: ROOT,
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const COUNT_TABLES = `select table_schema as schema, table_name as name from information_schema.tables
  where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') order by 1, 2`;

async function countAll(query: (text: string) => Promise<Record<string, unknown>[]>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const { schema, name } of await query(COUNT_TABLES)) {
    const [row] = await query(`select count(*)::int as n from "${String(schema)}"."${String(name)}"`);
    counts[schema === 'public' ? String(name) : `${String(schema)}.${String(name)}`] = Number(row.n);
  }
  return counts;
}

/** Rows per table of a stopped embedded database. */
async function pgliteCounts(dataDir: string): Promise<Record<string, number>> {
  const db = await createDatabase({ databaseUrl: null, dataDir });
  try {
    return await countAll(async (text) => (await sql.raw(text).execute(db)).rows as Record<string, unknown>[]);
  } finally {
    await db.destroy();
  }
}

async function postgresCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await countAll(async (text) => (await client.query(text)).rows as Record<string, unknown>[]);
  } finally {
    await client.end();
  }
}

/** Signs nbadmin in and uploads the test PDF; returns the session and the attachment id. */
async function uploadOne(server: StartedServer): Promise<{ sid: string; id: string }> {
  const { reply } = await logInOver(server.baseURL, 'nbadmin');
  expect(reply.result).toBe('true');
  const sid = reply.data!.sessionid;
  const form = new FormData();
  form.append('attrefsysid', 'backup-test');
  form.append('file', new Blob([new Uint8Array(PDF)], { type: 'application/pdf' }), '备份测试.pdf');
  const res = await fetch(`${server.baseURL}/espServer${ATTACHMENT_ROUTES.upload}?__sid=${sid}`, { method: 'POST', body: form });
  const body = (await res.json()) as Envelope<AttachmentInfo>;
  expect(body.result).toBe('true');
  return { sid, id: body.data!.id };
}

async function download(server: StartedServer, id: string): Promise<Buffer> {
  const { reply } = await logInOver(server.baseURL, 'nbadmin');
  expect(reply.result).toBe('true');
  const res = await fetch(`${server.baseURL}/espServer${ATTACHMENT_ROUTES.download}/${id}?__sid=${reply.data!.sessionid}`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

/** Files under a directory, recursively (relative paths). */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((p) => statSync(join(dir, p)).isFile())
        .sort()
    : [];

const work = mkdtempSync(join(tmpdir(), 'portal-backup-test-'));
const servers: StartedServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  rmSync(work, { recursive: true, force: true });
});
/** Housekeeping (expired sessions, counters) must not change rows between the backup and the counts. */
const QUIET = { PORTAL_HOUSEKEEPING_MINUTES: '600' };

describe('backup and restore of the embedded database (PGlite)', () => {
  const srcDir = join(work, 'pglite-src');
  const dstDir = join(work, 'pglite-dst');
  const archive = join(work, 'pglite.tar.gz');
  let attachment: { id: string };

  it('backs up a running server, restores into an empty data directory, and the restored server has every row and the attachment', LONG, async () => {
    const server = await startServer({ dataDir: srcDir, env: QUIET });
    servers.push(server);
    attachment = await uploadOne(server);

    const made = await cli('backup', ['--out', archive], { PORTAL_DATA_DIR: srcDir });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain(`asking the running server (pid ${server.pid})`);
    expect(made.stdout).toMatch(new RegExp(`Backup written: ${archive.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+\\(\\d+\\.\\d+ MB\\)`));
    expect(existsSync(`${archive}.partial`)).toBe(false);

    // The target of a restore may not be held by a running server.
    const refused = await cli('restore', [archive], { PORTAL_DATA_DIR: srcDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`a server (pid ${server.pid}) is running on PORTAL_DATA_DIR`);

    await server.stop(); // its data directory was given: kept
    const source = await pgliteCounts(srcDir);
    const manifest = await readManifest(archive);
    expect(manifest).toMatchObject({
      formatVersion: 1,
      productVersion: '0.1.0',
      database: { kind: 'pglite' },
      attachments: { store: 'folder', count: 1, bytes: PDF.length },
    });
    expect(manifest.migrations).toEqual(expect.arrayContaining(['0001_foundation', '0003_attachments']));
    expect(manifest.tables).toEqual(source);
    expect(source.sys_attachment).toBe(1);
    expect(source.equipment).toBeGreaterThan(100);

    const restored = await cli('restore', [archive], { PORTAL_DATA_DIR: dstDir });
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/Restored: .*1 attachments/);
    expect(restored.stdout).toMatch(/equipment\s+\d+/);
    expect(await pgliteCounts(dstDir)).toEqual(source);
    expect(filesUnder(join(dstDir, 'attachments'))).toEqual(filesUnder(join(srcDir, 'attachments')).filter((f) => !f.startsWith('tmp')));

    const again = await startServer({ dataDir: dstDir, env: QUIET });
    servers.push(again);
    expect(await download(again, attachment.id)).toEqual(PDF);
    await again.stop();
  });

  it('backs up a stopped data directory the same way', LONG, async () => {
    const out = join(work, 'pglite-stopped.tar.gz');
    const made = await cli('backup', ['--out', out], { PORTAL_DATA_DIR: dstDir });
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('no server running: copying');
    const manifest = await readManifest(out);
    expect(manifest.tables).toEqual(await pgliteCounts(dstDir));
    expect(manifest.attachments.count).toBe(1);
  });

  it('refuses a non-empty target without --force and changes nothing; --force sets the old one aside', LONG, async () => {
    const before = filesUnder(dstDir);
    const refused = await cli('restore', [archive], { PORTAL_DATA_DIR: dstDir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the target is not empty');
    expect(refused.stderr).toContain('--force');
    expect(filesUnder(dstDir)).toEqual(before);

    const forced = await cli('restore', [archive, '--force'], { PORTAL_DATA_DIR: dstDir });
    expect(forced.code).toBe(0);
    const aside = /replaced: (\S+\.replaced-\S+)/.exec(forced.stdout)?.[1];
    expect(aside && existsSync(join(aside, 'PG_VERSION'))).toBe(true);
    expect(await pgliteCounts(dstDir)).toEqual((await readManifest(archive)).tables);
  });

  it('refuses bad input with one line and exit status 2, changing nothing', LONG, async () => {
    const target = join(work, 'never-made');
    const oneLine = (r: Run) => expect(r.stderr.trim().split('\n')).toHaveLength(1);

    const missing = await cli('restore', [join(work, 'no-such.tar.gz')], { PORTAL_DATA_DIR: target });
    expect(missing.code).toBe(2);
    oneLine(missing);
    expect(missing.stderr).toContain('backup file not found');

    const text = join(work, 'notes.tar.gz');
    writeFileSync(text, 'not an archive\n');
    const foreign = await cli('restore', [text], { PORTAL_DATA_DIR: target });
    expect(foreign.code).toBe(2);
    oneLine(foreign);
    expect(foreign.stderr).toContain('not a backup of this portal');

    const cut = join(work, 'cut.tar.gz');
    const bytes = readFileSync(archive);
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const truncated = await cli('restore', [cut], { PORTAL_DATA_DIR: target });
    expect(truncated.code).toBe(2);
    oneLine(truncated);
    expect(truncated.stderr).toMatch(/damaged|not a backup/);

    // A PGlite backup is not restored into PostgreSQL (refused before any connection is tried).
    const wrongKind = await cli('restore', [archive], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORTAL_DATA_DIR: target });
    expect(wrongKind.code).toBe(2);
    oneLine(wrongKind);
    expect(wrongKind.stderr).toContain('the backup is of a pglite database but this configuration uses postgres');

    const usage = await cli('restore', [], { PORTAL_DATA_DIR: target });
    expect(usage.code).toBe(2);

    // A database that does not answer names DATABASE_URL; no archive, no folder is left.
    const out = join(work, 'unmade', 'x.tar.gz');
    const unreachable = await cli('backup', ['--out', out], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(unreachable.code).toBe(1);
    oneLine(unreachable);
    expect(unreachable.stderr).toMatch(/^备份失败：DATABASE_URL .* \/ Backup failed: DATABASE_URL cannot be used/);
    expect(existsSync(join(work, 'unmade'))).toBe(false);

    expect(existsSync(target)).toBe(false);
    expect(readdirSync(work).filter((n) => n.includes('.restore-') || n.startsWith('.portal-'))).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('backup and restore of PostgreSQL', () => {
  it('backs up a running server with pg_dump, restores into an empty database, and the restored server has every row and the attachment', LONG, async () => {
    const source = await freshPostgresDatabase();
    const target = await freshPostgresDatabase();
    const srcFiles = join(work, 'pg-src-files');
    const dstFiles = join(work, 'pg-dst-files');
    const archive = join(work, 'postgres.tar.gz');
    try {
      const server = await startServer({ env: { ...QUIET, DATABASE_URL: source.url, PORTAL_ATTACHMENT_DIR: srcFiles } });
      servers.push(server);
      const { id } = await uploadOne(server);

      const made = await cli('backup', ['--out', archive], { DATABASE_URL: source.url, PORTAL_ATTACHMENT_DIR: srcFiles });
      expect(made.stderr).toBe('');
      expect(made.code).toBe(0);
      expect(made.stdout).toContain(`Backup written: ${archive}`);
      await server.stop();
      const counts = await postgresCounts(source.url);
      const manifest = await readManifest(archive);
      expect(manifest).toMatchObject({ database: { kind: 'postgres' }, attachments: { count: 1, bytes: PDF.length } });
      expect(manifest.tables).toEqual(counts);
      expect(counts.sys_attachment).toBe(1);

      const restored = await cli('restore', [archive], { DATABASE_URL: target.url, PORTAL_ATTACHMENT_DIR: dstFiles });
      expect(restored.stderr).toBe('');
      expect(restored.code).toBe(0);
      expect(await postgresCounts(target.url)).toEqual(counts);
      expect(filesUnder(dstFiles)).toEqual(filesUnder(srcFiles).filter((f) => !f.startsWith('tmp')));

      // Not again into the now non-empty database, unless --force (which drops and recreates).
      const refused = await cli('restore', [archive], { DATABASE_URL: target.url, PORTAL_ATTACHMENT_DIR: dstFiles });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the target is not empty');
      const forced = await cli('restore', [archive, '--force'], { DATABASE_URL: target.url, PORTAL_ATTACHMENT_DIR: dstFiles });
      expect(forced.stderr).toBe('');
      expect(forced.code).toBe(0);
      expect(forced.stdout).toContain('DROP SCHEMA public CASCADE');
      expect(await postgresCounts(target.url)).toEqual(counts);

      const again = await startServer({ env: { ...QUIET, DATABASE_URL: target.url, PORTAL_ATTACHMENT_DIR: dstFiles, PORTAL_DEMO: 'off' } });
      servers.push(again);
      expect(await download(again, id)).toEqual(PDF);
      await again.stop();
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});
