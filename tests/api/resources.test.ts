/**
 * The generic resource engine over the demo resource (schemas/resources/demo-notice.json):
 * list/get/save, the workflow with its state, unit and role checks, validation, the flow log and
 * the legacy aliases. Every unit in these tests is made here, in the test's own database.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, unitUser, withSession, type UnitUser } from './helpers';

interface Notice {
  id: string;
  title: string;
  category: string;
  publishDate: string | null;
  content: string;
  status: string;
  unitId: string;
  areaCode: string;
  unitName: string | null;
  version: number;
  createDate: string;
  attachments: unknown;
}

interface FlowEntry {
  action: string;
  fromState: string | null;
  toState: string | null;
  opinion: string | null;
  userName: string;
}

const R = '/r/demo-notice';

describe.each(dbTargets())('resource engine (%s)', (target) => {
  // Two units of the same city district area, one of another city; the authority is at 330200: it oversees 3302xx.
  const {
    app,
    units: [unitA, unitB, elsewhere],
    session,
  } = appSuite(target, { units: ['330212', '330203', '330106'], sessions: { authority: 'jgadmin' } });

  const save = (sid: string, body: Record<string, unknown>) => call<Notice>(app, sid, 'POST', `${R}/save`, body);
  const act = (sid: string, action: string, id: string, body: Record<string, unknown> = {}) =>
    call<Notice | null>(app, sid, 'POST', `${R}/${action}/${id}`, body);
  const get = (sid: string, id: string) => call<Notice>(app, sid, 'GET', `${R}/get/${id}`);
  const list = (sid: string, query: Record<string, unknown> = {}) => call<Page<Notice>>(app, sid, 'GET', `${R}/list`, query);
  const flowLog = (sid: string, id: string) => call<FlowEntry[]>(app, sid, 'GET', `${R}/flowLog/${id}`);
  const draft = async (sid: string, extra: Record<string, unknown> = {}) => {
    const res = await save(sid, { title: '关于电梯年检的通知', content: '正文', ...extra });
    expect(res.body.result).toBe('true');
    return res.body.data!;
  };
  /** Reads a row straight from the table, bypassing the engine. */
  const stored = (id: string) =>
    app.db
      .selectFrom('demo_notice' as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst() as Promise<Record<string, unknown> | undefined>;

  describe('save and get', () => {
    it('inserts a draft owned by the unit, with defaults, and reads it back', async () => {
      const row = await draft(unitA.sid, { publishDate: '2026-03-01', attachments: [{ attsysid: 'a1', name: '通知.pdf' }] });
      expect(row).toMatchObject({
        status: 'draft',
        category: '1',
        urgent: false,
        publishDate: '2026-03-01',
        unitId: unitA.unitId,
        areaCode: '330212',
        version: 1,
      });
      expect(row.id).toMatch(/^[0-9a-f]{32}$/);
      // The readonly session field: the unit's own name, whatever the body says.
      expect(row.unitName).toMatch(/^测试单位/);
      expect((await draft(unitA.sid, { unitName: '别的单位' })).unitName).toBe(row.unitName);
      const res = await get(unitA.sid, row.id);
      expect(res.body.data).toEqual(row);
    });

    it('updates a draft and bumps its version; system fields in the body are ignored', async () => {
      const row = await draft(unitA.sid);
      const res = await save(unitA.sid, {
        id: row.id,
        version: 1,
        title: '新标题',
        content: '新正文',
        status: 'approved',
        unitId: unitB.unitId,
        unitName: '别的单位',
        createBy: 'x',
      });
      expect(res.body.data).toMatchObject({ id: row.id, title: '新标题', status: 'draft', unitId: unitA.unitId, unitName: row.unitName, version: 2 });
    });

    it('refuses an update based on a stale version', async () => {
      const row = await draft(unitA.sid);
      await save(unitA.sid, { id: row.id, title: 'v2', content: 'x' });
      const res = await save(unitA.sid, { id: row.id, version: 1, title: 'v3', content: 'x' });
      expect(res.body).toMatchObject({ result: 'false', code: 'STALE_VERSION' });
      expect((await get(unitA.sid, row.id)).body.data!.title).toBe('v2');
    });

    it('saves and commits in one request with isCommit', async () => {
      const res = await save(unitA.sid, { title: '提交', content: 'x', isCommit: true });
      expect(res.body.data).toMatchObject({ status: 'submitted', version: 2 });
      const log = (await flowLog(unitA.sid, res.body.data!.id)).body.data!;
      expect(log.map((e) => [e.action, e.fromState, e.toState])).toEqual([
        ['save', null, 'draft'],
        ['commit', 'draft', 'submitted'],
      ]);
    });

    it('accepts a form-encoded body as legacy clients send it', async () => {
      const res = await withSession(app, unitA.sid, {
        method: 'POST',
        url: api(`${R}/save`),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ title: '表单', content: 'x', urgent: 'true', urgentReason: '停电', publishDate: '', isCommit: 'true' }).toString(),
      });
      expect(res.json()).toMatchObject({ result: 'true', data: { urgent: true, publishDate: null, status: 'submitted' } });
    });
  });

  describe('validation', () => {
    const count = async () =>
      Number(
        (
          await app.db
            .selectFrom('demo_notice' as never)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it.each([
      [{ content: 'x' }, '请填写标题'],
      [{ title: '', content: 'x' }, '请填写标题'],
      [{ title: 'x'.repeat(101), content: 'x' }, '标题不能超过100个字符'],
      [{ title: 't', content: 'x', category: '7' }, '类别的值不在可选范围内'],
      [{ title: 't', content: 'x', publishDate: '2026-13-45' }, '发布日期格式不正确'],
      [{ title: 't', content: 'x', urgent: 'maybe' }, '紧急格式不正确'],
    ])('answers 400 with the Chinese message and stores nothing (%j)', async (body, message) => {
      const before = await count();
      const res = await save(unitA.sid, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message });
      expect(await count()).toBe(before);
    });

    it('applies the validator catalogue rules of a field (x-rules) with the same message as the browser', async () => {
      const before = (await list(unitA.sid)).body.data!.count;
      const res = await save(unitA.sid, { title: 't', content: 'x', contactEmail: 'not-an-email' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message: '请输入正确邮箱格式', data: { field: 'contactEmail' } });
      expect((await list(unitA.sid)).body.data!.count).toBe(before);
    });
  });

  describe('workflow', () => {
    it('runs commit, revoke, audit-disagree with an opinion, resubmit and audit-agree, logging each step', async () => {
      const row = await draft(unitA.sid);
      expect((await act(unitA.sid, 'commit', row.id)).body.data).toMatchObject({ status: 'submitted' });
      expect((await act(unitA.sid, 'revoke', row.id)).body.data).toMatchObject({ status: 'draft' });
      await act(unitA.sid, 'commit', row.id);
      expect((await act(session.authority, 'audit-disagree', row.id, { opinion: '材料不全' })).body.data).toMatchObject({ status: 'returned' });
      expect((await save(unitA.sid, { id: row.id, title: '补充后', content: 'x', isCommit: true })).body.data).toMatchObject({ status: 'submitted' });
      expect((await act(session.authority, 'audit-agree', row.id)).body.data).toMatchObject({ status: 'approved' });

      const log = (await flowLog(unitA.sid, row.id)).body.data!;
      expect(log.map((e) => `${e.action}:${e.fromState}->${e.toState}`)).toEqual([
        'save:null->draft',
        'commit:draft->submitted',
        'revoke:submitted->draft',
        'commit:draft->submitted',
        'audit-disagree:submitted->returned',
        'commit:returned->submitted',
        'audit-agree:submitted->approved',
      ]);
      expect(log[4]).toMatchObject({ opinion: '材料不全', userName: '陈静' });
      expect((await flowLog(session.authority, row.id)).body.data).toHaveLength(7);
    });

    it('refuses an action from a wrong state and changes nothing', async () => {
      const row = await draft(unitA.sid);
      const before = await stored(row.id);
      const refused = { result: 'false', code: 'WRONG_STATE', message: '当前状态不允许此操作' };
      expect((await act(unitA.sid, 'revoke', row.id)).body).toMatchObject(refused);
      // A unit's draft does not exist for the authority (it audits submitted rows only).
      expect((await act(session.authority, 'audit-agree', row.id)).body).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
      await act(unitA.sid, 'commit', row.id);
      expect((await act(unitA.sid, 'delete', row.id)).body.code).toBe('WRONG_STATE');
      expect((await save(unitA.sid, { id: row.id, title: '改', content: 'x' })).body.code).toBe('WRONG_STATE');
      const after = await stored(row.id);
      expect(after).toMatchObject({ status: 'submitted', title: before!.title, version: Number(before!.version) + 1 });
      expect((await flowLog(unitA.sid, row.id)).body.data).toHaveLength(2);
    });

    it('requires an opinion where the workflow says so, and changes nothing without one', async () => {
      const row = await draft(unitA.sid, { isCommit: true });
      for (const opinion of [undefined, '   ']) {
        const res = await act(session.authority, 'audit-disagree', row.id, opinion === undefined ? {} : { opinion });
        expect(res.body).toMatchObject({ result: 'false', code: 'OPINION_REQUIRED', message: '请填写审核意见' });
      }
      expect((await stored(row.id))!.status).toBe('submitted');
    });

    it('deletes a draft: the row is gone for everyone', async () => {
      const row = await draft(unitA.sid);
      expect((await act(unitA.sid, 'delete', row.id)).body).toMatchObject({ result: 'true', data: null });
      expect(await stored(row.id)).toBeUndefined();
      expect((await get(unitA.sid, row.id)).body.code).toBe('RECORD_NOT_FOUND');
    });

    it('answers not-found for malformed and unknown ids', async () => {
      for (const id of ['nope', '0'.repeat(32)]) {
        expect((await get(unitA.sid, id)).body).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND', message: '记录不存在或无权访问' });
        expect((await act(unitA.sid, 'commit', id)).body.code).toBe('RECORD_NOT_FOUND');
      }
    });
  });

  describe('unit scope', () => {
    it("another unit's user can neither see nor change a unit's row, and nothing changes", async () => {
      const row = await draft(unitA.sid);
      const before = await stored(row.id);
      const attempts = [
        get(unitB.sid, row.id),
        flowLog(unitB.sid, row.id),
        act(unitB.sid, 'commit', row.id),
        act(unitB.sid, 'delete', row.id),
        save(unitB.sid, { id: row.id, title: '篡改', content: 'x' }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND', message: '记录不存在或无权访问' });
      }
      expect(await stored(row.id)).toEqual(before);
      const ids = (await list(unitB.sid, { pageSize: 100 })).body.data!.list.map((r) => r.id);
      expect(ids).not.toContain(row.id);
    });

    it('a unit user cannot audit (role), even its own rows', async () => {
      const row = await draft(unitA.sid, { isCommit: true });
      const res = await act(unitA.sid, 'audit-agree', row.id);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ result: 'false', code: 'ACTION_NOT_PERMITTED' });
      expect((await stored(row.id))!.status).toBe('submitted');
    });

    it('the authority sees the rows of its area only, and may only audit them', async () => {
      const mine = await draft(unitA.sid, { title: '区域内', isCommit: true });
      const theirs = await draft(elsewhere.sid, { title: '区域外', isCommit: true });
      const seen = (await list(session.authority, { pageSize: 100 })).body.data!.list.map((r) => r.id);
      expect(seen).toContain(mine.id);
      expect(seen).not.toContain(theirs.id);
      expect((await get(session.authority, theirs.id)).body.code).toBe('RECORD_NOT_FOUND');
      expect((await act(session.authority, 'audit-agree', theirs.id)).body.code).toBe('RECORD_NOT_FOUND');

      for (const res of [await act(session.authority, 'revoke', mine.id), await save(session.authority, { id: mine.id, title: '监管改', content: 'x' })]) {
        expect(res.body.code).toBe('ACTION_NOT_PERMITTED');
      }
      expect(await stored(mine.id)).toMatchObject({ status: 'submitted', title: '区域内' });
      expect((await act(session.authority, 'audit-agree', mine.id)).body.data).toMatchObject({ status: 'approved' });
      expect((await act(session.authority, 'audit-agree', mine.id)).body).toMatchObject({
        result: 'false',
        code: 'WRONG_STATE',
        message: '当前状态不允许此操作',
      });
    });

    it("a unit's drafts are its own: the authority neither lists nor reads them until they are committed", async () => {
      const row = await draft(unitA.sid, { title: '未提交的草稿' });
      const listed = async () => (await list(session.authority, { pageSize: 100 })).body.data!.list.map((r) => r.id);
      expect(await listed()).not.toContain(row.id);
      for (const res of [await get(session.authority, row.id), await flowLog(session.authority, row.id)])
        expect(res.body).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
      await act(unitA.sid, 'commit', row.id);
      expect(await listed()).toContain(row.id);
      expect((await get(session.authority, row.id)).body.data).toMatchObject({ id: row.id, status: 'submitted' });
      // Withdrawn to a draft again: the unit's own once more.
      await act(unitA.sid, 'revoke', row.id);
      expect(await listed()).not.toContain(row.id);
      expect((await get(unitA.sid, row.id)).body.data).toMatchObject({ status: 'draft' });
    });
  });

  describe('list', () => {
    let lister: UnitUser;
    const rows = [
      { title: '锅炉安全通知', category: '1', publishDate: '2026-01-10' },
      { title: '电梯维保公告', category: '2', publishDate: '2026-02-10' },
      { title: '起重机械政策', category: '3', publishDate: '2026-03-10' },
      { title: '压力容器通知', category: '1', publishDate: '2026-04-10' },
      { title: '游乐设施公告', category: '2', publishDate: null },
    ];

    beforeAll(async () => {
      lister = await unitUser(app, '330212');
      for (const row of rows) await draft(lister.sid, row);
    });

    const titles = (page: Page<Notice>) => page.list.map((r) => r.title);

    it('pages the unit rows, newest first by default', async () => {
      const page = (await list(lister.sid, { pageNo: '2', pageSize: '2' })).body.data!;
      expect(page).toMatchObject({ pageNo: 2, pageSize: 2, count: 5 });
      expect(titles(page)).toEqual(['起重机械政策', '电梯维保公告']);
    });

    it('sorts by whitelisted fields only', async () => {
      expect(titles((await list(lister.sid, { orderBy: 'publishDate asc' })).body.data!)).toEqual([
        '锅炉安全通知',
        '电梯维保公告',
        '起重机械政策',
        '压力容器通知',
        '游乐设施公告',
      ]);
      for (const orderBy of ['password desc', 'title; drop table demo_notice', 'title sideways']) {
        const res = await list(lister.sid, { orderBy });
        expect(res.status).toBe(400);
      }
    });

    it('filters: contains for text, any-of for dicts, ranges for dates, eq for state', async () => {
      expect(titles((await list(lister.sid, { title: '通知' })).body.data!).sort()).toEqual(['压力容器通知', '锅炉安全通知']);
      expect((await list(lister.sid, { title: '%' })).body.data!.count).toBe(0);
      expect((await list(lister.sid, { category: '2' })).body.data!.count).toBe(2);
      expect((await list(lister.sid, { category: ['2', '3'] })).body.data!.count).toBe(3);
      expect(titles((await list(lister.sid, { publishDate_gte: '2026-02-01', publishDate_lte: '2026-03-31', orderBy: 'publishDate' })).body.data!)).toEqual([
        '电梯维保公告',
        '起重机械政策',
      ]);
      expect((await list(lister.sid, { status: 'submitted' })).body.data!.count).toBe(0);
      expect((await list(lister.sid, { status: 'draft', category: '1', title: '' })).body.data!.count).toBe(2);
      expect((await list(lister.sid, { publishDate_gte: 'yesterday' })).status).toBe(400);
    });

    it('takes the same parameters as a POST body and caps the page size', async () => {
      const res = await call<Page<Notice>>(app, lister.sid, 'POST', `${R}/list`, { category: ['1'], pageSize: 1000 });
      expect(res.body.data).toMatchObject({ count: 2, pageSize: 100 });
    });
  });

  describe('legacy paths', () => {
    it("serve the resource's api aliases with the generic operations", async () => {
      const row = await draft(unitA.sid, { title: '旧路径' });
      const listed = await withSession(app, unitA.sid, { method: 'POST', url: api('/a/demo/notice/listData'), payload: { title: '旧路径' } });
      expect(listed.json<{ data: Page<Notice> }>().data.list.map((r) => r.id)).toContain(row.id);
      const form = await withSession(app, unitA.sid, { method: 'GET', url: api('/a/demo/notice/form'), query: { id: row.id } });
      expect(form.json()).toMatchObject({ result: 'true', data: { id: row.id } });
      const other = await withSession(app, unitB.sid, { method: 'GET', url: api('/a/demo/notice/form'), query: { id: row.id } });
      expect(other.json()).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    });

    it('unknown paths keep the envelope 404; anonymous calls are refused', async () => {
      const unknown = await withSession(app, unitA.sid, { method: 'GET', url: api('/a/stone/noSuchThing/list') });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ result: 'false', code: 'NOT_FOUND' });
      const anonymous = await app.inject({ method: 'GET', url: api(`${R}/list`) });
      expect(anonymous.statusCode).toBe(401);
    });
  });
});
