/**
 * The authority's audit log screen (安全审计日志) served by the engine: the resource `audit-log`, a
 * read-only resource over the server's audit table (systemTable, oversightOnly). An oversight role
 * sees the audit rows of its area's units — filtered by unit, user, operation, business, record and
 * time, sorted, paged, exported as XLSX — and nothing of another area; using units are refused;
 * no route writes a row, and the hash chain stays intact.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadExcel } from '../../src/server/resources/xlsx/excel';
import { auditChainOf, verifyAuditChain } from '../../src/server/services/audit-chain';
import { api, appSuite, call, dbTargets, demo, login, withSession } from './helpers';
import { match } from '../support/match';

type Saved = { id: string; version: number };
interface Row {
  id: string;
  time: string;
  unitName: string | null;
  userName: string | null;
  resource: string;
  recordId: string;
  operation: string;
  areaCode: string;
  changes: string;
}
type Page = { count: number; pageNo: number; pageSize: number; list: Row[] };

describe.each(dbTargets())('audit log screen (%s)', (target) => {
  const { app, session, units } = appSuite(target, {
    sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' },
    units: ['330302', ['330300', 'authority']],
  });
  const list = (sid: string, query: Record<string, unknown> = {}) => call<Page>(app, sid, 'GET', '/r/audit-log/list', query);
  const save = async (sid: string, title: string) =>
    (await call<Saved>(app, sid, 'POST', '/r/demo-notice/save', { title, category: '1', content: '正文' })).body.data!;

  it('shows the authority its area’s rows, filtered, sorted and paged; another area’s authority sees only its own', async () => {
    const first = await save(session.unit, '审计画面一');
    await call(app, session.unit, 'POST', '/r/demo-notice/save', {
      id: first.id,
      version: first.version,
      title: '审计画面一（改）',
      category: '2',
      content: '正文',
    });
    await save(session.other, '审计画面二');
    const far = await save(units[0].sid, '外地通知');

    const all = (await list(session.authority, { pageSize: 100 })).body.data!;
    expect(all.count).toBeGreaterThanOrEqual(3);
    expect(all.list.every((r) => r.areaCode.startsWith('3302'))).toBe(true);
    expect(all.list.some((r) => r.recordId === far.id)).toBe(false);
    // Newest first by default; orderBy turns it.
    const times = all.list.map((r) => r.time);
    expect([...times].sort().reverse()).toEqual(times);
    const oldest = (await list(session.authority, { orderBy: 'time asc', pageSize: 5 })).body.data!;
    expect(oldest.list.map((r) => r.time)).toEqual([...oldest.list.map((r) => r.time)].sort());

    const mine = (await list(session.authority, { recordId: first.id })).body.data!;
    expect(mine.list.map((r) => r.operation)).toEqual(['update', 'insert']);
    expect(mine.list[0]).toMatchObject({ resource: 'demo-notice', operation: 'update', userName: match.any(String), unitName: match.any(String) });
    // The changes as text, a line per field: 标题：旧 → 新; a value set from nothing: 标题：新.
    expect(mine.list[0].changes.split('\n')).toContain('标题：审计画面一 → 审计画面一（改）');
    expect(mine.list[1].changes.split('\n')).toContain('标题：审计画面一');

    const byUnit = (await list(session.authority, { unitName: mine.list[0].unitName!.slice(0, 6), resource: ['demo-notice'], operation: ['insert'] })).body
      .data!;
    expect(byUnit.list.length).toBeGreaterThan(0);
    expect(byUnit.list.every((r) => r.unitName!.includes(mine.list[0].unitName!.slice(0, 6)) && r.operation === 'insert' && r.resource === 'demo-notice')).toBe(
      true,
    );
    expect((await list(session.authority, { userName: mine.list[0].userName!, recordId: first.id })).body.data!.count).toBe(2);
    expect((await list(session.authority, { recordId: first.id, time_gte: '2000-01-01', time_lte: '2000-01-02' })).body.data!.count).toBe(0);
    expect((await list(session.authority, { recordId: first.id, time_gte: mine.list[1].time, time_lte: mine.list[0].time })).body.data!.count).toBe(2);
    const paged = (await list(session.authority, { pageSize: 1, pageNo: 2 })).body.data!;
    expect(paged.list).toHaveLength(1);
    expect(paged.list[0].id).toBe(all.list[1].id);

    // One row, as its detail screen reads it.
    const one = await call<Row>(app, session.authority, 'GET', `/r/audit-log/get/${mine.list[0].id}`);
    expect(one.body.data).toMatchObject({ id: mine.list[0].id, recordId: first.id, operation: 'update' });
    const farAuthority = (await list(units[1].sid, { pageSize: 100 })).body.data!;
    expect(farAuthority.list.map((r) => r.recordId)).toContain(far.id);
    expect(farAuthority.list.every((r) => r.areaCode.startsWith('3303'))).toBe(true);
    // Another area's row does not exist for the authority.
    const farRow = farAuthority.list.find((r) => r.recordId === far.id)!;
    expect((await call(app, session.authority, 'GET', `/r/audit-log/get/${farRow.id}`)).body.code).toBe('RECORD_NOT_FOUND');
  });

  it('exports the search as XLSX with the screen’s columns and readable changes', async () => {
    const saved = await save(session.unit, '导出审计');
    await call(app, session.unit, 'POST', '/r/demo-notice/save', {
      id: saved.id,
      version: saved.version,
      title: '导出审计（改）',
      category: '1',
      content: '正文',
    });
    const res = await withSession(app, session.authority, {
      method: 'GET',
      url: api('/r/audit-log/export'),
      query: { recordId: saved.id, screen: 'audit-log-list' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const ExcelJS = await loadExcel();
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const rows = book.worksheets[0]
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    const header = rows.findIndex((r) => r[0] === '时间');
    expect(rows[header]).toEqual(['时间', '单位', '操作人', '操作', '业务', '记录编号', '变更内容']);
    const data = rows.slice(header + 1);
    expect(data).toHaveLength(2);
    expect(data[0].slice(3, 6)).toEqual(['修改', '单位通知', saved.id]);
    expect(String(data[0][6])).toContain('标题：导出审计 → 导出审计（改）');
  });

  it('lists sign-in, refused sign-in and sign-out as security events', async () => {
    const { loginName, orgCode, password } = demo('nbadmin');
    expect((await login(app, loginName, 'Wrong@2026x', orgCode)).result).toBe('false');
    const ok = await login(app, loginName, password, orgCode);
    expect(ok.result).toBe('true');
    await withSession(app, ok.sessionid!, { method: 'GET', url: api('/a/logout') });
    const events = (await list(session.authority, { resource: ['auth'], recordId: loginName })).body.data!;
    expect(events.list.slice(0, 3).map((r) => [r.operation, r.resource, r.userName !== null])).toEqual([
      ['logout', 'auth', true],
      ['login', 'auth', true],
      ['login-failed', 'auth', true],
    ]);
    expect(events.list[2].changes.split('\n').map((line) => line.split('：')[0])).toEqual(['来源地址', '原因']);
  });

  it('refuses using units', async () => {
    for (const sid of [session.unit, session.other, units[0].sid]) {
      for (const path of ['/r/audit-log/list', '/r/audit-log/export', '/r/audit-log/stats']) {
        const res = await withSession(app, sid, { method: 'GET', url: api(path) });
        expect(res.statusCode, path).toBe(403);
      }
    }
  });

  it('has no write route; the rows and their hash chain stay as the server wrote them', async () => {
    const before = (await list(session.authority, { pageSize: 1 })).body.data!;
    const row = before.list[0];
    for (const [method, path] of [
      ['POST', '/r/audit-log/save'],
      ['POST', `/r/audit-log/delete/${row.id}`],
      ['POST', '/r/audit-log/import'],
      ['GET', '/r/audit-log/import-template'],
      ['GET', `/r/audit-log/auditLog/${row.id}`],
      ['GET', `/r/audit-log/flowLog/${row.id}`],
    ] as const) {
      const res = await withSession(app, session.authority, {
        method,
        url: api(path),
        payload: method === 'POST' ? { id: row.id, changes: 'x', recordId: 'x' } : undefined,
      });
      expect(res.statusCode, path).toBe(404);
    }
    // The view refuses a write even from SQL: it is not updatable.
    await expect(sql`DELETE FROM sys_audit_log_view WHERE id = ${row.id}`.execute(app.db)).rejects.toThrow();
    await expect(sql`UPDATE sys_audit_log_view SET operation = 'x' WHERE id = ${row.id}`.execute(app.db)).rejects.toThrow();
    const after = (await call<Row>(app, session.authority, 'GET', `/r/audit-log/get/${row.id}`)).body.data!;
    expect(after).toEqual(row);
    expect((await verifyAuditChain(app.db, auditChainOf(app.db)!)).problem).toBeNull();
  });
});
