/**
 * XLSX export of the demo resource (schemas/resources/demo-notice.json): the file holds exactly
 * the rows `list` finds for the same parameters, in the same order, within the caller's scope,
 * with Chinese headers, labels for codes and real date cells; the row cap and the legacy alias.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCHEMA_DIR } from '../../src/server/resources/catalog';
import { XLSX_CONTENT_TYPE } from '../../src/server/resources/xlsx/export';
import type { Envelope, Page } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, unitUser, withSession } from './helpers';

const R = '/r/demo-notice';
const MAX_ROWS = 20;

interface Notice {
  id: string;
  title: string;
}

/** The rows of the first sheet as arrays of cell values (row 1 is the header). */
async function sheetRows(body: Buffer): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

describe.each(dbTargets())('XLSX export (%s)', (target) => {
  const {
    app,
    units: [unitA, unitB],
  } = appSuite(target, { build: { exportMaxRows: MAX_ROWS }, units: ['330212', '330203'] });

  const exportFile = (sid: string, query: Record<string, string | string[]> = {}, options: Partial<InjectOptions> = {}) =>
    withSession(app, sid, { method: 'GET', url: api(`${R}/export`), query, ...options } as InjectOptions & { url: string });
  const list = async (sid: string, query: Record<string, string | string[]>) =>
    (await call<Page<Notice>>(app, sid, 'GET', `${R}/list`, { pageSize: '100', ...query })).body.data!;

  beforeAll(async () => {
    const categories = ['1', '2', '3'];
    for (let i = 0; i < 30; i++) {
      const day = String(1 + (i % 28)).padStart(2, '0');
      const res = await call(app, unitA.sid, 'POST', `${R}/save`, {
        title: `甲单位公告${i}`,
        content: '正文',
        category: categories[i % 3],
        publishDate: `2026-03-${day}`,
        urgent: i % 2 === 0,
        ...(i % 2 === 0 ? { urgentReason: '紧急' } : {}),
        isCommit: i % 4 === 0,
      });
      expect(res.body.result).toBe('true');
    }
    for (let i = 0; i < 5; i++)
      await call(app, unitB.sid, 'POST', `${R}/save`, { title: `乙单位公告${i}`, content: '正文', category: '2', publishDate: '2026-03-05' });
  });

  it('streams an XLSX with the same rows, in the same order, as list for the same filters', async () => {
    const filters = { category: ['2', '3'], publishDate_gte: '2026-03-05', publishDate_lte: '2026-03-25', orderBy: 'publishDate desc,title' };
    const page = await list(unitA.sid, filters);
    expect(page.count).toBeGreaterThan(5);
    const res = await exportFile(unitA.sid, filters);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    const rows = await sheetRows(res.rawPayload);
    expect(rows.length - 1).toBe(page.count);
    expect(rows.slice(1).map((r) => r[0])).toEqual(page.list.map((n) => n.title));
  });

  it('accepts the filters in a form-encoded POST body, as legacy clients send them', async () => {
    const page = await list(unitA.sid, { category: '1' });
    const res = await withSession(app, unitA.sid, {
      method: 'POST',
      url: api(`${R}/export`),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ category: '1', __ajax: 'json' }).toString(),
    });
    expect((await sheetRows(res.rawPayload)).length - 1).toBe(page.count);
  });

  it('writes Chinese headers, dictionary and state labels, 是/否 and YYYY-MM-DD date cells', async () => {
    const res = await exportFile(unitA.sid, { title: '甲单位公告0' });
    const [header, first] = await sheetRows(res.rawPayload);
    expect(header).toEqual(['标题', '类别', '发布日期', '有效期至', '紧急', '紧急原因', '联系邮箱', '正文', '状态', '创建时间', '更新时间']);
    expect(first.slice(0, 3)).toEqual(['甲单位公告0', '通知', new Date('2026-03-01T00:00:00Z')]);
    expect(first[4]).toBe('是');
    expect(first[8]).toBe('已提交');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0].getRow(2).getCell(3).numFmt).toBe('yyyy-mm-dd');
  });

  it('names the file after the title (RFC 5987) and sends it as an attachment', async () => {
    const res = await exportFile(unitA.sid, { category: '3' });
    expect(res.headers['content-disposition']).toBe(`attachment; filename="demo-notice.xlsx"; filename*=UTF-8''${encodeURIComponent('单位通知.xlsx')}`);
  });

  it("never contains another unit's rows", async () => {
    const own = await sheetRows((await exportFile(unitA.sid, { category: '2' })).rawPayload);
    expect(own.slice(1).every((r) => String(r[0]).startsWith('甲单位'))).toBe(true);
    const other = await sheetRows((await exportFile(unitB.sid)).rawPayload);
    expect(
      other
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(['乙单位公告0', '乙单位公告1', '乙单位公告2', '乙单位公告3', '乙单位公告4']);
  });

  it("uses a list screen's columns with screen=<id>", async () => {
    const res = await exportFile(unitA.sid, { screen: 'demo-notice-list', title: '甲单位公告29' });
    const [header, first] = await sheetRows(res.rawPayload);
    expect(header).toEqual(['标题', '发布单位', '状态', '类别', '发布日期', '更新时间']);
    expect([first[0], ...first.slice(2, 5)]).toEqual(['甲单位公告29', '草稿', '政策法规', new Date('2026-03-02T00:00:00Z')]);
    expect(first[1]).toMatch(/^测试单位/);
  });

  it('refuses an unknown screen, or one of another resource', async () => {
    const res = await exportFile(unitA.sid, { screen: 'no-such-screen' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
  });

  it('refuses more rows than the cap with a Chinese message, before sending any file', async () => {
    const res = await exportFile(unitA.sid);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({
      result: 'false',
      code: 'EXPORT_TOO_LARGE',
      message: '导出数据量超过上限，请缩小查询范围后再导出',
      data: { count: 30, max: MAX_ROWS },
    });
  });

  it('checks parameters and the session like list', async () => {
    const bad = await exportFile(unitA.sid, { orderBy: 'content; drop table x' });
    expect(bad.json()).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    const anonymous = await app.inject({ method: 'GET', url: api(`${R}/export`) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<Envelope<unknown>>().result).toBe('false');
  });
});

describe.each(dbTargets())('XLSX export through a legacy alias (%s)', (target) => {
  let schemaDir: string;

  beforeAll(() => {
    schemaDir = mkdtempSync(join(tmpdir(), 'export-alias-'));
    cpSync(DEFAULT_SCHEMA_DIR, schemaDir, { recursive: true });
    const file = join(schemaDir, 'resources', 'demo-notice.json');
    const resource = JSON.parse(readFileSync(file, 'utf8')) as { api?: Record<string, string>; [key: string]: unknown };
    resource.api = { ...resource.api, export: '/a/demo/notice/exportData' };
    writeFileSync(file, JSON.stringify(resource));
  });
  afterAll(() => rmSync(schemaDir, { recursive: true, force: true })); // after the suite's app closes
  const { app } = appSuite(target, { build: () => ({ schemaDir }) });

  it("serves the resource's `export` alias with the generic export", async () => {
    const unit = await unitUser(app, '330212');
    await call(app, unit.sid, 'POST', `${R}/save`, { title: '旧路径导出', content: '正文' });
    const res = await withSession(app, unit.sid, { method: 'POST', url: api('/a/demo/notice/exportData'), payload: { title: '旧路径' } });
    expect(res.headers['content-type']).toBe(XLSX_CONTENT_TYPE);
    expect((await sheetRows(res.rawPayload)).map((r) => r[0])).toEqual(['标题', '旧路径导出']);
  });
});

describe.each(dbTargets())('XLSX export of a reference (%s)', (target) => {
  const {
    app,
    units: [unit],
  } = appSuite(target, { units: ['330212'] });

  it("writes the referenced record's label, as screens show it, not its id", async () => {
    const dept = await call<{ id: string }>(app, unit.sid, 'POST', '/r/safety-dept/save', { name: '设备安全部', head: '王工', headMobile: '13800001112' });
    expect(dept.body.result).toBe('true');
    const staff = { name: '导出测试员', idCard: '11010519491231002X', mobile: '13800001111', post: 'principal', appointDate: '2024-01-01' };
    expect((await call(app, unit.sid, 'POST', '/r/safety-staff/save', { ...staff, dept: dept.body.data!.id })).body.result).toBe('true');
    expect((await call(app, unit.sid, 'POST', '/r/safety-staff/save', { ...staff, name: '无部门测试员', idCard: '110105198001010032' })).body.result).toBe(
      'true',
    );
    const res = await withSession(app, unit.sid, {
      method: 'GET',
      url: api('/r/safety-staff/export'),
      query: { screen: 'safety-staff-list', orderBy: 'name' },
    });
    const [header, ...rows] = await sheetRows(res.rawPayload);
    const column = header.indexOf('所在部门');
    expect(column).toBeGreaterThanOrEqual(0);
    const byName = new Map(rows.map((r) => [r[0], r[column]]));
    expect(byName.get('导出测试员')).toBe('设备安全部');
    expect(byName.get('无部门测试员') ?? null).toBeNull();
  });
});

describe.each(dbTargets())('XLSX export of formula-like text (%s)', (target) => {
  const {
    app,
    units: [unit],
  } = appSuite(target, { units: ['330212'] });

  it('writes text starting with =, +, -, @, a tab or a CR as a text cell, never a formula', async () => {
    const texts = ['=1+1', '=HYPERLINK("http://evil.example","点我")', '+1+1', '-2+3', '@SUM(A1)', '\t=1+1', '\r=1+1', "=cmd|' /C calc'!A0"];
    for (const [i, text] of texts.entries()) {
      const res = await call(app, unit.sid, 'POST', `${R}/save`, { title: `${text}#${i}`, content: text, category: '1' });
      expect(res.body.result, res.body.message).toBe('true');
    }
    const stored = (await call<Page<{ title: string; content: string }>>(app, unit.sid, 'GET', `${R}/list`, { pageSize: '100', orderBy: 'title' })).body.data!
      .list;
    expect(stored).toHaveLength(texts.length);
    const res = await withSession(app, unit.sid, { method: 'GET', url: api(`${R}/export`), query: { orderBy: 'title' } });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const columns = [header.indexOf('标题') + 1, header.indexOf('正文') + 1];
    stored.forEach((row, i) => {
      for (const [column, value] of [
        [columns[0], row.title],
        [columns[1], row.content],
      ] as const) {
        const cell = sheet.getRow(i + 2).getCell(column);
        expect(cell.type, JSON.stringify(value)).toBe(ExcelJS.ValueType.String);
        expect(cell.formula).toBeUndefined();
        expect(cell.value).toBe(value);
      }
    });
  });
});
