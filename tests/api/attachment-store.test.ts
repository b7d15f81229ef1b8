/**
 * The attachment stores (services/attachment-store.ts, PORTAL_ATTACHMENT_STORE) beyond the API
 * rules that tests/api/attachments.test.ts runs on both: a 15 MB file round-trips byte for byte
 * over real HTTP on either store (the database store in 512 KiB chunks, every one deleted with its
 * row); a store that cannot take the bytes leaves no row; a download of a row deleted meanwhile
 * ends in an error, never in a silently short file; the readiness check ('attachments'); and a
 * folder that cannot be written stops the start naming PORTAL_ATTACHMENT_DIR.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StartupError } from '../../src/server/config';
import { newId } from '../../src/server/db/ids';
import { CHUNK_BYTES } from '../../src/server/services/attachment-store';
import { storeStaged } from '../../src/server/services/attachments';
import { ATTACHMENT_ROUTES, type AttachmentInfo, type Envelope } from '../../src/shared/contract';
import { api, appSuite, dbTargets, makeApp, withSession, type TestApp } from './helpers';

const STORES = ['folder', 'database'] as const;
const MAX_MB = 20;
const PDF_HEAD = Buffer.from('%PDF-1.4\n', 'latin1');
/** A "PDF" of `size` bytes: the header, then random bytes (nothing to compress). */
const pdfOf = (size: number) => Buffer.concat([PDF_HEAD, randomBytes(size - PDF_HEAD.length)]);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type Db = FastifyInstance['db'];
const rowCount = async (db: Db) =>
  Number(
    (
      await db
        .selectFrom('sys_attachment' as never)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
/** The chunks of an attachment: number and length. */
const chunksOf = async (db: Db, id: string) =>
  (await sql<{ seq: number; length: number }>`SELECT seq, length(data) AS length FROM sys_attachment_blob WHERE id = ${id} ORDER BY seq`.execute(db)).rows;

describe.each(dbTargets().flatMap((target) => STORES.map((store) => [target, store] as const)))('attachment store (%s, %s)', (target, storeKind) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-store-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const {
    app,
    units: [unitA, unitB],
  } = appSuite(target, {
    build: () => ({ attachmentStore: storeKind, attachmentDir: storeKind === 'folder' ? dir : null, attachmentMaxMb: MAX_MB }),
    units: ['330212', '330203'],
  });

  async function uploadOver(address: string, sid: string, name: string, bytes: Buffer): Promise<Envelope<AttachmentInfo>> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), name);
    return (await (await fetch(`${address}${api(ATTACHMENT_ROUTES.upload)}?__sid=${sid}`, { method: 'POST', body: form })).json()) as Envelope<AttachmentInfo>;
  }

  it('a 15 MB file round-trips over HTTP byte for byte; another unit gets 404; delete removes every byte', async () => {
    const bytes = pdfOf(15 * 1024 * 1024 + 12_345);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const stored = await uploadOver(address, unitA.sid, '十五兆.pdf', bytes);
      expect(stored).toMatchObject({ result: 'true', data: { size: bytes.length, sha256: sha256(bytes), mime: 'application/pdf' } });
      const id = stored.data!.id;
      if (storeKind === 'database') {
        const chunks = await chunksOf(app.db, id);
        expect(chunks.map((c) => c.seq)).toEqual([...Array(Math.ceil(bytes.length / CHUNK_BYTES)).keys()]);
        expect(Math.max(...chunks.map((c) => c.length))).toBe(CHUNK_BYTES);
      }
      // Nothing left staged.
      expect(readdirSync(app.attachmentStore.stagingDir)).toEqual([]);

      const res = await fetch(`${address}${api(`${ATTACHMENT_ROUTES.download}/${id}`)}?__sid=${unitA.sid}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe(String(bytes.length));
      const back = Buffer.from(await res.arrayBuffer());
      expect(back.length).toBe(bytes.length);
      expect(back.equals(bytes)).toBe(true);

      const foreign = await fetch(`${address}${api(`${ATTACHMENT_ROUTES.download}/${id}`)}?__sid=${unitB.sid}`);
      expect(foreign.status).toBe(404);
      expect(await foreign.json()).toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });

      const del = await fetch(`${address}${api(`${ATTACHMENT_ROUTES.delete}/${id}`)}?__sid=${unitA.sid}`, { method: 'POST' });
      expect(await del.json()).toMatchObject({ result: 'true' });
      if (storeKind === 'database') expect(await chunksOf(app.db, id)).toEqual([]);
      else expect(readdirSync(join(dir, id.slice(0, 2)))).not.toContain(id);
      expect((await fetch(`${address}${api(`${ATTACHMENT_ROUTES.download}/${id}`)}?__sid=${unitA.sid}`)).status).toBe(404);
    } finally {
      app.server.close();
    }
  });

  it('bytes the store cannot take leave no row (the transaction is rolled back)', async () => {
    const before = await rowCount(app.db);
    const staged = {
      tmpPath: join(app.attachmentStore.stagingDir, `${newId()}.part`),
      name: 'gone.pdf',
      size: 10,
      mime: 'application/pdf',
      sha256: '0'.repeat(64),
    };
    const viewer = { userId: unitA.userId, unitId: unitA.unitId, areaCode: '330212', roleType: 'unit', oversees: false };
    await expect(storeStaged(app.db, app.attachmentStore, viewer, staged, null)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await rowCount(app.db)).toBe(before);
  });

  it("the readiness check 'attachments' passes", async () => {
    const check = app.lifecycle.readinessChecks.get('attachments');
    expect(check).toBeTypeOf('function');
    await expect(check!()).resolves.toBeUndefined();
  });

  it.runIf(storeKind === 'database')('a download whose row is deleted meanwhile ends in an error, not a short file', { timeout: 60_000 }, async () => {
    const bytes = pdfOf(8 * CHUNK_BYTES);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'x.pdf');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const res = await withSession(app, unitA.sid, {
      method: 'POST',
      url: api(ATTACHMENT_ROUTES.upload),
      payload: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type')! },
    });
    const id = res.json<Envelope<AttachmentInfo>>().data!.id;
    const stream = await app.attachmentStore.open(id, bytes.length);
    const read = (async () => {
      let total = 0;
      for await (const chunk of stream) {
        total += (chunk as Buffer).length;
        if (total === CHUNK_BYTES)
          await app.db
            .deleteFrom('sys_attachment' as never)
            .where('id' as never, '=', id as never)
            .execute();
      }
      return total;
    })();
    await expect(read).rejects.toThrow(/bytes stored/);
    expect(await chunksOf(app.db, id)).toEqual([]);
    await expect(app.attachmentStore.open(id, bytes.length)).rejects.toMatchObject({ code: 'ATTACHMENT_NOT_FOUND' });
  });
});

describe('the folder store at start and when the folder goes', () => {
  let opened: TestApp | undefined;
  afterAll(() => opened?.close());

  it('a folder that cannot be written stops the start, naming PORTAL_ATTACHMENT_DIR', async () => {
    // /proc refuses new folders whoever asks (root included).
    const failure = await makeApp('pglite', { attachmentStore: 'folder', attachmentDir: '/proc/portal-attachments' }).then(
      (t) => t.close().then(() => null),
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StartupError);
    expect((failure as StartupError).setting).toBe('PORTAL_ATTACHMENT_DIR');
    expect((failure as StartupError).line()).toContain('/proc/portal-attachments');
  });

  it('the database store does not need that folder', async () => {
    const t = await makeApp('pglite', { attachmentStore: 'database', attachmentDir: '/proc/portal-attachments' });
    await t.close();
  });

  it('the readiness check fails once the folder cannot be written, and passes again when it is back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-store-ready-'));
    opened = await makeApp('pglite', { attachmentStore: 'folder', attachmentDir: dir });
    const check = opened.app.lifecycle.readinessChecks.get('attachments')!;
    await expect(check()).resolves.toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
    await expect(check()).rejects.toThrow(/attachment folder .* cannot be written: ENOENT/);
    mkdirSync(dir); // its tmp/ is made again
    await expect(check()).resolves.toBeUndefined();
  });
});
