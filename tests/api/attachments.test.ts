/**
 * Attachments (src/server/routes/attachments.ts): multipart upload with the size limit and the
 * magic-byte check, list by record, download, delete, the unit scope (another unit gets the
 * envelope 404, the authority of the area may read), the legacy paths, and attachment values in a
 * resource record. Run on both stores (PORTAL_ATTACHMENT_STORE): `folder`, a temporary directory of
 * the test, and `database`, chunks in sys_attachment_blob; "nothing stored" means no row, no file
 * or chunk, and nothing left in the staging directory.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/server/db/ids';
import { linkToRecord } from '../../src/server/services/attachments';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { ATTACHMENT_ROUTES, API, type AttachmentInfo, type Envelope } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, withSession } from './helpers';

const STORES = ['folder', 'database'] as const;

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** The size limit of these tests (PORTAL_ATTACHMENT_MAX_MB = 0.05: 52 428 bytes). */
const MAX_MB = 0.05;
const MAX_BYTES = Math.floor(MAX_MB * 1024 * 1024);

/** A multipart body as a browser's FormData sends it. */
async function multipart(
  files: { name: string; bytes: Buffer; type?: string }[],
  fields: Record<string, string> = {},
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  for (const f of files) form.append('file', new Blob([new Uint8Array(f.bytes)], { type: f.type ?? 'application/octet-stream' }), f.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

describe.each(dbTargets().flatMap((target) => STORES.map((store) => [target, store] as const)))('attachments (%s, %s store)', (target, storeKind) => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-att-test-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true })); // after the suite's app closes
  // farAuthority: another city's authority; the demo authority (330200) oversees 3302xx.
  const {
    app,
    units: [unitA, unitB, farAuthority],
    session,
  } = appSuite(target, {
    build: () =>
      storeKind === 'folder'
        ? { attachmentStore: 'folder', attachmentDir: dir, attachmentMaxMb: MAX_MB }
        : { attachmentStore: 'database', attachmentMaxMb: MAX_MB },
    units: ['330212', '330203', ['330106', 'authority']],
    sessions: { authority: 'jgadmin' },
  });

  const filesIn = (root: string): string[] => readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((p) => statSync(join(root, p)).isFile());
  /**
   * Everything stored: folder, every file (tmp/ included) relative to the directory; database,
   * `<id>/<seq>` of every chunk and the files in the staging directory.
   */
  const storedFiles = async (): Promise<string[]> => {
    if (storeKind === 'folder') return filesIn(dir);
    const chunks = await app.db
      .selectFrom('sys_attachment_blob' as never)
      .select(['id' as never, 'seq' as never])
      .execute();
    return [...(chunks as { id: string; seq: number }[]).map((c) => `${c.id}/${c.seq}`), ...filesIn(app.attachmentStore.stagingDir).map((p) => join('tmp', p))];
  };
  const rowCount = async () =>
    Number(
      (
        await app.db
          .selectFrom('sys_attachment' as never)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const upload = async (
    sid: string | null,
    files: { name: string; bytes: Buffer; type?: string }[],
    fields: Record<string, string> = {},
    path: string = ATTACHMENT_ROUTES.upload,
  ) => {
    const body = await multipart(files, fields);
    const options = { method: 'POST' as const, url: api(path), ...body };
    const res = sid ? await withSession(app, sid, options) : await app.inject(options);
    return { status: res.statusCode, body: res.json<Envelope<AttachmentInfo>>() };
  };
  const download = (sid: string, id: string): Promise<LightMyRequestResponse> =>
    withSession(app, sid, { method: 'GET', url: api(`${ATTACHMENT_ROUTES.download}/${id}`) });

  describe('upload, list, download', () => {
    it('stores a PDF and a PNG for a record and lists them by attrefsysid', async () => {
      const refId = newId();
      const pdf = await upload(unitA.sid, [{ name: '使用登记表.pdf', bytes: PDF, type: 'application/pdf' }], { attrefsysid: refId });
      expect(pdf.status).toBe(200);
      expect(pdf.body).toMatchObject({ result: 'true', message: '上传成功' });
      const info = pdf.body.data!;
      expect(info).toMatchObject({ attsysid: info.id, attrefsysid: refId, name: '使用登记表.pdf', size: PDF.length, mime: 'application/pdf' });
      expect(info.id).toMatch(/^[0-9a-f]{32}$/);
      expect(info.url).toBe(`/espServer${ATTACHMENT_ROUTES.download}/${info.id}`);
      // Stored under its id, never under the uploader's name.
      expect(await storedFiles()).toContain(storeKind === 'folder' ? join(info.id.slice(0, 2), info.id) : `${info.id}/0`);
      expect((await storedFiles()).some((p) => p.includes('使用登记表'))).toBe(false);

      // The legacy path, with the ref as a query parameter this time.
      const png = await upload(unitA.sid, [{ name: 'photo.PNG', bytes: PNG, type: 'image/png' }], {}, `${API.attachmentAttUpload}?attrefsysid=${refId}`);
      expect(png.body.data).toMatchObject({ name: 'photo.PNG', size: PNG.length, mime: 'image/png', attrefsysid: refId });

      const listed = await call<AttachmentInfo[]>(app, unitA.sid, 'GET', API.attachmentList, { attrefsysid: refId });
      expect(listed.body.data!.map((a) => a.name)).toEqual(['使用登记表.pdf', 'photo.PNG']);
      const posted = await call<AttachmentInfo[]>(app, unitA.sid, 'POST', ATTACHMENT_ROUTES.list, { refId });
      expect(posted.body.data!.map((a) => a.id)).toEqual([info.id, png.body.data!.id]);
    });

    it('downloads the same bytes with the UTF-8 file name (RFC 5987)', async () => {
      const { body } = await upload(unitA.sid, [{ name: '监督检验报告 (1).pdf', bytes: PDF }]);
      const res = await download(unitA.sid, body.data!.id);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PDF)).toBe(true);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="attachment.pdf"; filename*=UTF-8''${encodeURIComponent('监督检验报告 ')}%281%29.pdf`,
      );

      const legacy = await withSession(app, unitA.sid, { method: 'GET', url: api(API.attachmentDownload), query: { attsysid: body.data!.id } });
      expect(legacy.rawPayload.equals(PDF)).toBe(true);
    });

    it('the session cookie alone is enough for a download link', async () => {
      const { body } = await upload(unitA.sid, [{ name: 'a.png', bytes: PNG }]);
      const res = await app.inject({ method: 'GET', url: body.data!.url, cookies: { __sid: unitA.sid } });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
    });
  });

  describe('scope', () => {
    it('another unit can neither download, list nor delete (envelope 404, nothing leaks)', async () => {
      const refId = newId();
      const { body } = await upload(unitA.sid, [{ name: 'a.pdf', bytes: PDF }], { refId });
      const id = body.data!.id;

      const res = await download(unitB.sid, id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ result: 'false', code: 'ATTACHMENT_NOT_FOUND', message: '附件不存在或无权访问' });
      // The same answer as an id that does not exist.
      expect((await download(unitB.sid, newId())).json()).toEqual(res.json());

      expect((await call<AttachmentInfo[]>(app, unitB.sid, 'GET', ATTACHMENT_ROUTES.list, { refId })).body.data).toEqual([]);

      const del = await call(app, unitB.sid, 'POST', API.attachmentDelete, { id });
      expect(del).toMatchObject({ status: 404, body: { code: 'ATTACHMENT_NOT_FOUND' } });
      expect((await download(unitA.sid, id)).statusCode).toBe(200);
    });

    it('the authority of the area may read (not delete); an authority elsewhere may not', async () => {
      const refId = newId();
      const { body } = await upload(unitA.sid, [{ name: 'a.pdf', bytes: PDF }], { refId });
      const id = body.data!.id;
      expect((await download(session.authority, id)).statusCode).toBe(200);
      expect((await call<AttachmentInfo[]>(app, session.authority, 'GET', ATTACHMENT_ROUTES.list, { refId })).body.data!.map((a) => a.id)).toEqual([id]);
      expect((await call(app, session.authority, 'POST', `${ATTACHMENT_ROUTES.delete}/${id}`)).status).toBe(404);
      expect((await download(farAuthority.sid, id)).statusCode).toBe(404);
    });

    it('the own unit deletes: the row and the file are gone', async () => {
      const { body } = await upload(unitA.sid, [{ name: 'a.pdf', bytes: PDF }]);
      const id = body.data!.id;
      const del = await call(app, unitA.sid, 'POST', API.attachmentDelete, { attsysid: id });
      expect(del.body).toMatchObject({ result: 'true', message: '删除成功' });
      expect((await download(unitA.sid, id)).statusCode).toBe(404);
      expect((await storedFiles()).some((p) => p.includes(id))).toBe(false);
    });

    it('needs a session: 401 envelope, nothing stored', async () => {
      const before = { files: (await storedFiles()).length, rows: await rowCount() };
      const res = await upload(null, [{ name: 'a.pdf', bytes: PDF }]);
      expect(res).toMatchObject({ status: 401, body: { result: 'false', code: 'UNAUTHENTICATED', message: '登录已过期，请重新登录' } });
      const get = await app.inject({ method: 'GET', url: api(`${API.attachmentDownload}?attsysid=${newId()}`) });
      expect(get.statusCode).toBe(401);
      expect({ files: (await storedFiles()).length, rows: await rowCount() }).toEqual(before);
    });
  });

  describe('refused uploads store nothing', () => {
    const refused = async (files: { name: string; bytes: Buffer }[]) => {
      const before = { files: (await storedFiles()).length, rows: await rowCount() };
      const res = await upload(unitA.sid, files);
      expect({ files: (await storedFiles()).length, rows: await rowCount() }).toEqual(before);
      return res;
    };

    it('too large: Chinese message with the limit', async () => {
      const big = Buffer.concat([PDF, Buffer.alloc(MAX_BYTES)]);
      const res = await refused([{ name: 'big.pdf', bytes: big }]);
      expect(res.body).toMatchObject({ result: 'false', code: 'ATTACHMENT_TOO_LARGE', message: '附件大小超过上限，请压缩后重新上传', data: { maxMb: MAX_MB } });
      // Exactly at the limit is fine.
      const exact = await upload(unitA.sid, [{ name: 'exact.pdf', bytes: Buffer.concat([PDF, Buffer.alloc(MAX_BYTES - PDF.length)]) }]);
      expect(exact.body.data!.size).toBe(MAX_BYTES);
    });

    it('a forged extension: PNG bytes or text named .pdf, text named .png', async () => {
      for (const files of [
        [{ name: 'fake.pdf', bytes: PNG }],
        [{ name: 'fake.pdf', bytes: Buffer.from('hello, not a pdf') }],
        [{ name: 'fake.png', bytes: PDF }],
      ]) {
        const res = await refused(files);
        expect(res.body).toMatchObject({ result: 'false', code: 'ATTACHMENT_CONTENT_MISMATCH', message: '附件内容与文件类型不符，请上传真实的文件' });
      }
    });

    it('a type not allowed, an empty file, no file at all', async () => {
      expect((await refused([{ name: 'run.exe', bytes: Buffer.from('MZ') }])).body).toMatchObject({ code: 'ATTACHMENT_TYPE_NOT_ALLOWED' });
      expect((await refused([{ name: 'noext', bytes: PDF }])).body).toMatchObject({ code: 'ATTACHMENT_TYPE_NOT_ALLOWED' });
      expect((await refused([{ name: 'empty.pdf', bytes: Buffer.alloc(0) }])).body).toMatchObject({
        code: 'ATTACHMENT_EMPTY',
        message: '附件内容为空，请重新选择文件',
      });
      const none = await refused([]);
      expect(none).toMatchObject({ status: 400, body: { code: 'ATTACHMENT_MISSING', message: '请选择要上传的文件' } });
      const json = await withSession(app, unitA.sid, { method: 'POST', url: api(ATTACHMENT_ROUTES.upload), payload: { file: 'x' } });
      expect(json.json()).toMatchObject({ code: 'ATTACHMENT_MISSING' });
    });

    it('a path in the file name is reduced to its last segment', async () => {
      const res = await upload(unitA.sid, [{ name: '..\\..\\etc\\passwd.pdf', bytes: PDF }]);
      expect(res.body.data!.name).toBe('passwd.pdf');
    });

    it('over real HTTP, a too-large upload is answered once the body is read', async () => {
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      try {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(Buffer.concat([PDF, Buffer.alloc(MAX_BYTES * 4)]))]), 'big.pdf');
        const res = await fetch(`${address}${api(ATTACHMENT_ROUTES.upload)}?__sid=${unitA.sid}`, { method: 'POST', body: form });
        expect(await res.json()).toMatchObject({ result: 'false', code: 'ATTACHMENT_TOO_LARGE' });
        const ok = new FormData();
        ok.append('file', new Blob([new Uint8Array(PNG)]), '图.png');
        const stored = (await (
          await fetch(`${address}${api(ATTACHMENT_ROUTES.upload)}?__sid=${unitA.sid}`, { method: 'POST', body: ok })
        ).json()) as Envelope<AttachmentInfo>;
        expect(stored.data).toMatchObject({ name: '图.png', size: PNG.length });
      } finally {
        app.server.close();
      }
    });
  });

  describe('linking files to a record saved after the upload', () => {
    it('links own unlinked files only, and never moves a file from another record', async () => {
      const own = (await upload(unitA.sid, [{ name: 'a.pdf', bytes: PDF }])).body.data!;
      const elsewhereRef = newId();
      const taken = (await upload(unitA.sid, [{ name: 'b.pdf', bytes: PDF }], { refId: elsewhereRef })).body.data!;
      const foreign = (await upload(unitB.sid, [{ name: 'c.pdf', bytes: PDF }])).body.data!;
      const refId = newId();
      const viewer = { userId: unitA.userId, unitId: unitA.unitId, areaCode: '330212', roleType: 'unit', oversees: false };
      expect(await linkToRecord(app.db, viewer, refId, [own.id, taken.id, foreign.id])).toBe(1);
      expect((await call<AttachmentInfo[]>(app, unitA.sid, 'GET', ATTACHMENT_ROUTES.list, { refId })).body.data!.map((a) => a.id)).toEqual([own.id]);
      expect((await call<AttachmentInfo[]>(app, unitA.sid, 'GET', ATTACHMENT_ROUTES.list, { refId: elsewhereRef })).body.data!.map((a) => a.id)).toEqual([
        taken.id,
      ]);
    });

    it("a file the authority links to a unit's record (an inspection report) becomes readable by that unit only", async () => {
      const report = (await upload(session.authority, [{ name: '检验报告.pdf', bytes: PDF }])).body.data!;
      expect((await download(unitA.sid, report.id)).statusCode).toBe(404);
      const authorityUser = await app.db
        .selectFrom('sys_session' as never)
        .select(['user_id' as never])
        .where('id' as never, '=', tokenDigest(app.config.crypto, session.authority) as never)
        .executeTakeFirstOrThrow();
      const unitRow = await app.db
        .selectFrom('sys_user' as never)
        .select(['unit_id' as never])
        .where('id' as never, '=', (authorityUser as { user_id: string }).user_id as never)
        .executeTakeFirstOrThrow();
      const viewer = {
        userId: (authorityUser as { user_id: string }).user_id,
        unitId: (unitRow as { unit_id: string }).unit_id,
        areaCode: '330200',
        roleType: 'authority',
        oversees: true,
      };
      expect(await linkToRecord(app.db, viewer, newId(), [report.id], unitA.unitId)).toBe(1);
      expect((await download(unitA.sid, report.id)).statusCode).toBe(200);
      expect((await download(unitB.sid, report.id)).statusCode).toBe(404);
    });
  });

  describe('attachment values in a record', () => {
    const save = (sid: string, body: Record<string, unknown>) =>
      call<{ id: string; attachments: unknown }>(app, sid, 'POST', '/r/demo-notice/save', { title: '附件测试', content: '正文', ...body });

    it('saving a record links the files of its attachment fields to it', async () => {
      const file = (await upload(unitA.sid, [{ name: '附件.pdf', bytes: PDF }])).body.data!;
      const { body } = await save(unitA.sid, { attachments: [{ id: file.id, name: file.name, url: file.url, size: file.size }] });
      expect(body.result).toBe('true');
      const listed = (await call<AttachmentInfo[]>(app, unitA.sid, 'GET', ATTACHMENT_ROUTES.list, { refId: body.data!.id })).body.data!;
      expect(listed.map((a) => a.id)).toEqual([file.id]);
      // Another unit still cannot reach it.
      expect((await download(unitB.sid, file.id)).statusCode).toBe(404);
    });

    it('keeps { id, name, url, size } and accepts rows stored before uploads existed', async () => {
      const { body } = await upload(unitA.sid, [{ name: '通知.pdf', bytes: PDF }]);
      const { id, name, url, size } = body.data!;
      const saved = await save(unitA.sid, {
        attachments: [
          { id, name, url, size },
          { name: '旧附件.pdf', url: '/files/old.pdf' },
          { attsysid: 'a1', name: '更早.pdf' },
        ],
      });
      expect(saved.body.result).toBe('true');
      const read = await call<{ attachments: unknown }>(app, unitA.sid, 'GET', `/r/demo-notice/get/${saved.body.data!.id}`);
      expect(read.body.data!.attachments).toEqual([
        { id, name, url, size },
        { name: '旧附件.pdf', url: '/files/old.pdf' },
        { attsysid: 'a1', name: '更早.pdf' },
      ]);
      expect((await save(unitA.sid, { attachments: null })).body.result).toBe('true');
    });

    it('refuses a link of another scheme and more files than maxCount', async () => {
      const bad = await save(unitA.sid, { attachments: [{ name: 'x.pdf', url: 'javascript:alert(1)' }] });
      expect(bad).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', message: '附件格式不正确' } });
      const many = await save(unitA.sid, { attachments: Array.from({ length: 6 }, (_, i) => ({ name: `${i}.pdf` })) });
      expect(many.body).toMatchObject({ code: 'VALIDATION_FAILED', message: '附件最多5项' });
    });
  });
});
