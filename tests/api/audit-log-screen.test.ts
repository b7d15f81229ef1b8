/**
 * The authority's audit log screen (安全审计日志, routes/audit-log.ts): an oversight role sees the
 * audit rows of its area's units — searched by unit, user, operation, business, record and time,
 * newest first, paged, exported as XLSX — and nothing of another area; a using unit is refused,
 * whatever its menu says.
 */
import { describe, expect, it } from 'vitest';
import { loadExcel } from '../../src/server/resources/xlsx/excel';
import { api, appSuite, call, dbTargets, demo, login, withSession } from './helpers';

type Saved = { id: string; version: number };
interface Row {
  id: string;
  time: string;
  unitName: string | null;
  userName: string | null;
  resource: string;
  resourceTitle: string;
  recordId: string;
  operation: string;
  operationLabel: string;
  areaCode: string;
  changes: { label: string; from: string; to: string }[];
}
type Page = { count: number; pageNo: number; pageSize: number; list: Row[] };

describe.each(dbTargets())('audit log screen (%s)', (target) => {
  const { app, session, units } = appSuite(target, {
    sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' },
    units: ['330302', ['330300', 'authority']],
  });
  const list = (sid: string, query: Record<string, unknown> = {}) => call<Page>(app, sid, 'GET', '/audit/list', query);
  const save = async (sid: string, title: string) => (await call<Saved>(app, sid, 'POST', '/r/demo-notice/save', { title, category: '1', content: '正文' })).body.data!;

  it('shows the authority its area’s rows, searchable, newest first; another area’s authority sees only its own', async () => {
    const first = await save(session.unit, '审计画面一');
    await call(app, session.unit, 'POST', '/r/demo-notice/save', { id: first.id, version: first.version, title: '审计画面一（改）', category: '2', content: '正文' });
    await save(session.other, '审计画面二');
    const far = await save(units[0].sid, '外地通知');

    const all = (await list(session.authority, { pageSize: 200 })).body.data!;
    expect(all.count).toBeGreaterThanOrEqual(3);
    expect(all.list.every((r) => r.areaCode.startsWith('3302'))).toBe(true);
    expect(all.list.some((r) => r.recordId === far.id)).toBe(false);
    const times = all.list.map((r) => r.time);
    expect([...times].sort().reverse()).toEqual(times);

    const mine = (await list(session.authority, { recordId: first.id })).body.data!;
    expect(mine.list.map((r) => r.operation)).toEqual(['update', 'insert']);
    expect(mine.list[0]).toMatchObject({ resourceTitle: '单位通知', operationLabel: '修改', userName: expect.any(String), unitName: expect.any(String) });
    expect(mine.list[0].changes).toEqual(expect.arrayContaining([{ field: 'title', label: '标题', from: '审计画面一', to: '审计画面一（改）' }]));

    const byUnit = (await list(session.authority, { unitName: mine.list[0].unitName!.slice(0, 6), resource: 'demo-notice', operation: 'insert' })).body.data!;
    expect(byUnit.list.length).toBeGreaterThan(0);
    expect(byUnit.list.every((r) => r.unitName === mine.list[0].unitName && r.operation === 'insert' && r.resource === 'demo-notice')).toBe(true);
    expect((await list(session.authority, { userName: mine.list[0].userName!, recordId: first.id })).body.data!.count).toBe(2);
    expect((await list(session.authority, { recordId: first.id, from: '2000-01-01', to: '2000-01-02' })).body.data!.count).toBe(0);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await list(session.authority, { recordId: first.id, from: mine.list[1].time, to: today })).body.data!.count).toBe(2);
    const paged = (await list(session.authority, { pageSize: 1, pageNo: 2 })).body.data!;
    expect(paged.list).toHaveLength(1);
    expect(paged.list[0].id).toBe(all.list[1].id);

    const options = (await call<{ resources: { value: string; label: string }[]; operations: { value: string; label: string }[] }>(app, session.authority, 'GET', '/audit/options')).body.data!;
    expect(options.resources).toEqual(expect.arrayContaining([{ value: 'demo-notice', label: '单位通知' }]));
    expect(options.operations).toEqual(expect.arrayContaining([{ value: 'insert', label: '新增' }]));

    const farAuthority = (await list(units[1].sid, { pageSize: 200 })).body.data!;
    expect(farAuthority.list.map((r) => r.recordId)).toContain(far.id);
    expect(farAuthority.list.every((r) => r.areaCode.startsWith('3303'))).toBe(true);
  });

  it('exports the search as XLSX with readable changes', async () => {
    const saved = await save(session.unit, '导出审计');
    await call(app, session.unit, 'POST', '/r/demo-notice/save', { id: saved.id, version: saved.version, title: '导出审计（改）', category: '1', content: '正文' });
    const res = await withSession(app, session.authority, { method: 'GET', url: api('/audit/export'), query: { recordId: saved.id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = await loadExcel();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0];
    const rows = sheet.getSheetValues().filter(Boolean).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['时间', '单位', '操作人', '操作', '业务', '记录编号', '变更内容']);
    expect(rows).toHaveLength(3);
    expect(rows[1].slice(3, 6)).toEqual(['修改', '单位通知', saved.id]);
    expect(String(rows[1][6])).toContain('标题：导出审计 → 导出审计（改）');
  });

  it('lists sign-in, refused sign-in and sign-out as security events', async () => {
    const { loginName, orgCode, password } = demo('nbadmin');
    expect((await login(app, loginName, 'Wrong@2026x', orgCode)).result).toBe('false');
    const ok = await login(app, loginName, password, orgCode);
    expect(ok.result).toBe('true');
    await withSession(app, ok.sessionid!, { method: 'GET', url: api('/a/logout') });
    const events = (await list(session.authority, { resource: 'auth', recordId: loginName })).body.data!;
    expect(events.list.slice(0, 3).map((r) => [r.operationLabel, r.resourceTitle, r.userName !== null])).toEqual([
      ['退出登录', '登录与账号安全', true],
      ['登录成功', '登录与账号安全', true],
      ['登录失败', '登录与账号安全', true],
    ]);
    expect(events.list[2].changes.map((c) => c.label)).toEqual(['来源地址', '原因']);
  });

  it('refuses using units', async () => {
    for (const sid of [session.unit, session.other, units[0].sid]) {
      for (const path of ['/audit/list', '/audit/options', '/audit/export']) {
        const res = await withSession(app, sid, { method: 'GET', url: api(path) });
        expect(res.statusCode, path).toBe(403);
      }
    }
  });
});
