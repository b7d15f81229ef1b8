/**
 * XLSX import (src/server/resources/import.ts) on the equipment registry: the template's header and
 * notes sheet, a good file inserted through the save path (owner unit, defaults, derived due
 * dates), all-or-nothing with the Excel row and column of every problem, refused files (not an
 * .xlsx, too large, too many rows, a wrong header), the RBAC check, and an export imported back.
 */
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { XLSX_CONTENT_TYPE } from '../../src/server/resources/xlsx/export';
import type { Envelope, Page } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, sessionOf, unitUser, withSession, type UnitUser } from './helpers';
import { match } from '../support/match';

const R = '/r/equipment';
const MAX_ROWS = 6;
/** The file size limit of these tests (PORTAL_ATTACHMENT_MAX_MB = 0.05: 52 428 bytes). */
const MAX_MB = 0.05;

type Row = Record<string, unknown> & { id: string };
type Cell = string | number | boolean | Date | null;

interface ImportProblem {
  row: number;
  field: string;
  message: string;
}
interface ImportFailure {
  problems: ImportProblem[];
  total: number;
}

/** An .xlsx file with the header row and the rows given. */
async function xlsx(header: string[], rows: Cell[][], sheet = '设备'): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet(sheet);
  ws.addRow(header);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** A multipart body as a browser's FormData sends it. */
async function multipart(name: string, bytes: Buffer, fields: Record<string, string> = {}): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: XLSX_CONTENT_TYPE }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

async function workbookOf(body: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(body as unknown as ArrayBuffer);
  return workbook;
}

const values = (row: ExcelJS.Row): unknown[] => (row.values as unknown[]).slice(1);

const HEADER = ['*设备种类', '设备类别', '*设备名称', '*设备使用地点', '设备所在区域', '上次检验日期', '吊运熔融金属', '安全管理员电话'];

describe.each(dbTargets())('XLSX import (%s)', (target) => {
  const { app } = appSuite(target, { build: { importMaxRows: MAX_ROWS, attachmentMaxMb: MAX_MB } });

  const upload = async <T = unknown>(sid: string, name: string, bytes: Buffer, fields: Record<string, string> = {}) => {
    const res = await withSession(app, sid, { method: 'POST', url: api(`${R}/import`), ...(await multipart(name, bytes, fields)) });
    return { status: res.statusCode, body: res.json<Envelope<T>>() };
  };
  const listed = async (sid: string) => (await call<Page<Row>>(app, sid, 'GET', `${R}/list`, { pageSize: '100', orderBy: 'equipmentName' })).body.data!;

  it('offers a template: the writable columns by label, required ones marked *, and a notes sheet with the codes', async () => {
    const sid = (await unitUser(app, '330212')).sid;
    const res = await withSession(app, sid, { method: 'GET', url: api(`${R}/import-template`), query: { screen: 'equipment-query' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('设备综合查询导入模板.xlsx')}`);
    const workbook = await workbookOf(res.rawPayload);
    const [sheet, notes] = workbook.worksheets;
    const header = values(sheet.getRow(1));
    expect(header.slice(0, 4)).toEqual(['*设备种类', '设备类别', '*设备名称', '规格型号']);
    expect(header).toEqual(expect.arrayContaining(['*使用状态', '*设备所在区域', '*设备使用地点', '安全管理员电话', '上次检验日期', '吊运熔融金属']));
    // Readonly (derived) fields and attachments are not imported.
    expect(header).not.toContain('下次检验日期');
    expect(header).not.toContain('附件');
    expect(sheet.rowCount).toBe(1);

    expect(notes.name).toBe('说明');
    const lines = notes
      .getSheetValues()
      .slice(1)
      .map((r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(lines).toContainEqual(['设备种类', '3000', '电梯']);
    expect(lines).toContainEqual(['设备类别', '3100', '曳引与强制驱动电梯']);
    expect(lines).toContainEqual(['设备所在区域', '330212', '鄞州区']);
    expect(lines.some((l) => l[0] === '使用状态' && String(l[2]).startsWith('是（留空默认：'))).toBe(true);

    // Another resource's screen is refused, like the export.
    const wrong = await withSession(app, sid, { method: 'GET', url: api(`${R}/import-template`), query: { screen: 'demo-notice-list' } });
    expect(wrong.statusCode).toBe(400);
  });

  it('imports a good file: every row through the save path, owned by the caller, defaults and derived dates applied', async () => {
    const unit: UnitUser = await unitUser(app, '330212');
    const file = await xlsx(HEADER, [
      ['电梯', '曳引与强制驱动电梯', '导入1号客梯', '宁波市鄞州区导入路1号', '鄞州区', new Date(Date.UTC(2025, 2, 1)), null, '13805741234'],
      ['4000', '4100', '导入桥式起重机', '宁波市鄞州区导入路2号', '330212', '2025-03-01', '否', '0574-87654321'],
      ['起重机械', '桥式起重机', '导入熔融金属吊', '宁波市鄞州区导入路3号', null, '2025/3/1', '是', null],
    ]);
    const { status, body } = await upload<{ count: number }>(unit.sid, '设备导入.xlsx', file, { screen: 'equipment-query' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ result: 'true', message: '成功导入 3 条', data: { count: 3 } });

    const page = await listed(unit.sid);
    expect(page.count).toBe(3);
    const byName = new Map(page.list.map((r) => [r.equipmentName, r]));
    expect(byName.get('导入1号客梯')).toMatchObject({
      equclacode: '3000',
      subCategory: '3100',
      locationArea: '330212',
      lastInspectionDate: '2025-03-01',
      nextInspectionDate: '2026-03-01',
      unitId: unit.unitId,
      areaCode: '330212',
    });
    // Crane: every 2 years; one lifting molten metal: every year.
    expect(byName.get('导入桥式起重机')).toMatchObject({ nextInspectionDate: '2027-03-01', liftsMoltenMetal: false, safetyManagerPhone: '0574-****4321' });
    // Blank cells take the field's default (use status 未登记, the area's default).
    expect(byName.get('导入熔融金属吊')).toMatchObject({ nextInspectionDate: '2026-03-01', liftsMoltenMetal: true, useStatus: '0', locationArea: '330200' });
    // Nobody else sees them.
    const other = await unitUser(app, '330212');
    expect((await listed(other.sid)).count).toBe(0);
  });

  it("the product-data paths (the original API /api/prop*) are the registry's template, import and export", async () => {
    const unit = await unitUser(app, '330212');
    const template = await withSession(app, unit.sid, { method: 'GET', url: api('/api/prop/template') });
    expect(template.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    const file = await xlsx(HEADER, [['电梯', '3100', '产品数据客梯', '宁波市鄞州区产品路1号', '鄞州区', '2025-03-01', null, null]]);
    const res = await withSession(app, unit.sid, { method: 'POST', url: api('/api/prop/import'), ...(await multipart('产品数据.xlsx', file)) });
    expect(res.json()).toMatchObject({ result: 'true', data: { count: 1 } });
    expect((await listed(unit.sid)).list.map((r) => r.equipmentName)).toEqual(['产品数据客梯']);
    const exported = await withSession(app, unit.sid, { method: 'GET', url: api('/api/prop/export') });
    expect(exported.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    const sheet = (await workbookOf(exported.rawPayload)).worksheets[0];
    expect(JSON.stringify(sheet.getSheetValues())).toContain('产品数据客梯');
  });

  it.each([
    [
      'a required cell left blank',
      ['电梯', '3100', null, '宁波市鄞州区导入路9号', '鄞州区', null, null, null],
      { row: 3, field: '设备名称', message: '请填写设备名称' },
    ],
    [
      'a bad phone number (catalogue rule)',
      ['电梯', '3100', '坏电话', '宁波市鄞州区导入路9号', '鄞州区', null, null, '12345'],
      { row: 3, field: '安全管理员电话', message: '请输入有效的手机号或者座机号' },
    ],
    [
      'a label that is not in the dictionary',
      ['火箭', '3100', '火箭', '宁波市鄞州区导入路9号', '鄞州区', null, null, null],
      { row: 3, field: '设备种类', message: match.stringContaining('“火箭”不是有效的选项') },
    ],
    [
      'a day that does not exist',
      ['电梯', '3100', '坏日期', '宁波市鄞州区导入路9号', '鄞州区', '2025-02-30', null, null],
      { row: 3, field: '上次检验日期', message: match.stringContaining('请填写有效的日期') },
    ],
  ])('imports nothing when one row has %s, and names its Excel row and column', async (_name, bad, problem) => {
    const unit = await unitUser(app, '330212');
    const good: Cell[] = ['电梯', '3100', '好的一行', '宁波市鄞州区导入路8号', '鄞州区', '2025-03-01', null, null];
    const { status, body } = await upload<ImportFailure>(unit.sid, '设备导入.xlsx', await xlsx(HEADER, [good, bad, good]));
    expect(status).toBe(200);
    expect(body.result).toBe('false');
    expect(body.code).toBe('IMPORT_INVALID');
    expect(body.data!.problems).toEqual([problem]);
    expect(body.data!.total).toBe(1);
    expect(body.message).toMatch(new RegExp(`^第3行 ${problem.field}：`));
    expect(body.message).toContain('未导入任何数据');
    expect((await listed(unit.sid)).count).toBe(0);
  });

  it('reports the problems of every row at once (later rows too, duplicates within the file included)', async () => {
    const unit = await unitUser(app, '330212');
    const header = ['设备种类', '设备名称', '设备使用地点', '注册代码', '安全管理员电话'];
    const { body } = await upload<ImportFailure>(
      unit.sid,
      'x.xlsx',
      await xlsx(header, [
        ['电梯', '甲', '地点', '33100302122026000001', null],
        ['电梯', null, '地点', null, 'abc'],
        ['电梯', '乙', '地点', '33100302122026000001', null],
        ['电梯', '丙', '地点', '123', null],
      ]),
    );
    expect(body.code).toBe('IMPORT_INVALID');
    expect(body.data!.problems).toEqual([
      { row: 3, field: '设备名称', message: '请填写设备名称' },
      { row: 4, field: '注册代码', message: '注册代码已存在，不能重复' },
      { row: 5, field: '注册代码', message: '请输入有效的20位注册代码' },
    ]);
    expect(body.message).toBe('第3行 设备名称：请填写设备名称（共3处错误，未导入任何数据）');
    expect((await listed(unit.sid)).count).toBe(0);
  });

  it('refuses a wrong header before reading any row: unknown and missing required columns', async () => {
    const unit = await unitUser(app, '330212');
    const { body } = await upload<ImportFailure>(
      unit.sid,
      'x.xlsx',
      await xlsx(['设备种类', '设备名字', '设备使用地点', '下次检验日期'], [['电梯', '甲', '地点', '2030-01-01']]),
    );
    expect(body.code).toBe('IMPORT_INVALID');
    // The derived column of an exported file is skipped; the typo is not.
    expect(body.data!.problems).toEqual([
      { row: 1, field: '设备名字', message: '不是可导入的列，请使用导入模板' },
      { row: 1, field: '设备名称', message: '缺少必填列' },
    ]);
  });

  it('refuses what is not an .xlsx workbook, a file over the size limit, an empty sheet and more rows than the limit, in Chinese', async () => {
    const { sid } = await unitUser(app, '330212');
    const notXlsx = await upload(sid, '设备.xlsx', Buffer.from('设备名称,设备种类\n甲,电梯\n'));
    expect(notXlsx.body).toMatchObject({ result: 'false', code: 'IMPORT_NOT_XLSX', message: '仅支持导入 Excel（.xlsx）文件，请下载导入模板填写后上传' });
    const wrongName = await upload(sid, '设备.xls', await xlsx(HEADER, []));
    expect(wrongName.body.code).toBe('IMPORT_NOT_XLSX');
    // The magic bytes of a zip, then not a workbook.
    const zipLike = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)]);
    expect((await upload(sid, 'z.xlsx', zipLike)).body.code).toBe('IMPORT_NOT_XLSX');

    expect((await upload(sid, 'empty.xlsx', await xlsx(HEADER, []))).body).toMatchObject({ code: 'IMPORT_EMPTY', message: '文件中没有可导入的数据行' });

    const large = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(Math.ceil(MAX_MB * 1024 * 1024), 1)]);
    expect((await upload(sid, 'large.xlsx', large)).body).toMatchObject({
      result: 'false',
      code: 'IMPORT_FILE_TOO_LARGE',
      message: '导入文件大小超过上限，请分批导入',
      data: { maxMb: MAX_MB },
    });

    const many = Array.from({ length: MAX_ROWS + 2 }, (_, i): Cell[] => ['电梯', '3100', `设备${i}`, '地点', null, null, null, null]);
    const tooMany = await upload<{ count: number; max: number }>(sid, 'many.xlsx', await xlsx(HEADER, many));
    expect(tooMany.body).toMatchObject({ result: 'false', code: 'IMPORT_TOO_MANY_ROWS', data: { count: MAX_ROWS + 2, max: MAX_ROWS } });
    expect(tooMany.body.message).toBe(`单次最多导入${MAX_ROWS}行数据（文件中有${MAX_ROWS + 2}行），请分批导入`);

    const missing = await withSession(app, sid, { method: 'POST', url: api(`${R}/import`), payload: {} });
    expect(missing.json<Envelope<unknown>>().code).toBe('IMPORT_FILE_MISSING');
    expect((await listed(sid)).count).toBe(0);
  });

  it('answers a role without access to the resource with the RBAC error, and an anonymous request with 401', async () => {
    // The analyst's role holds no menu of the registry.
    const analyst = await sessionOf(app, 'analyst');
    const file = await xlsx(HEADER, [['电梯', '3100', '甲', '地点', null, null, null, null]]);
    const denied = await upload(analyst, 'x.xlsx', file);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ result: 'false', code: 'FORBIDDEN', message: '无权访问' });
    const template = await withSession(app, analyst, { method: 'GET', url: api(`${R}/import-template`) });
    expect(template.statusCode).toBe(403);
    // The authority reads the registry of its area (oversightRead) but never writes it, an import neither.
    const authority = await sessionOf(app, 'jgadmin');
    const refused = await upload(authority, 'x.xlsx', file);
    expect(refused.body).toMatchObject({ result: 'false', code: 'ACTION_NOT_PERMITTED' });
    const anonymous = await app.inject({ method: 'POST', url: api(`${R}/import`), ...(await multipart('x.xlsx', file)) });
    expect(anonymous.statusCode).toBe(401);
  });

  it('has no import on a resource the server alone writes (readOnly)', async () => {
    const { sid } = await unitUser(app, '330212');
    const res = await withSession(app, sid, { method: 'GET', url: api('/r/inspection-record/import-template') });
    expect(res.statusCode).toBe(404);
  });

  it('takes back what the export wrote (labels, date cells, derived columns skipped)', async () => {
    const source = await unitUser(app, '330212');
    const seed = [
      {
        equclacode: '3000',
        subCategory: '3100',
        equipmentName: '回环客梯',
        address: '回环路1号',
        locationArea: '330212',
        useStatus: '1',
        lastInspectionDate: '2025-06-30',
        lastConclusion: '1',
      },
      {
        equclacode: '4000',
        subCategory: '4300',
        equipmentName: '回环塔吊',
        address: '回环路2号',
        locationArea: '330203',
        useStatus: '0',
        lastInspectionDate: '2025-01-31',
        equcode: 'QZ0001',
      },
    ];
    for (const fields of seed) expect((await call(app, source.sid, 'POST', `${R}/save`, fields)).body.result).toBe('true');
    const exported = await withSession(app, source.sid, { method: 'GET', url: api(`${R}/export`), query: { screen: 'equipment-query' } });
    expect(exported.statusCode).toBe(200);

    const target = await unitUser(app, '330212');
    const { body } = await upload<{ count: number }>(target.sid, '导出.xlsx', exported.rawPayload, { screen: 'equipment-query' });
    expect(body).toMatchObject({ result: 'true', data: { count: 2 } });
    const pick = (r: Row) => [
      r.equipmentName,
      r.equclacode,
      r.subCategory,
      r.locationArea,
      r.useStatus,
      r.lastInspectionDate,
      r.nextInspectionDate,
      r.lastConclusion,
      r.equcode,
    ];
    expect((await listed(target.sid)).list.map(pick)).toEqual((await listed(source.sid)).list.map(pick));
  });
});

describe.each(dbTargets())('XLSX import of references by label (%s)', (target) => {
  const {
    app,
    units: [mine, theirs],
  } = appSuite(target, { units: ['330212', '330206'] });
  const HEADER = ['*姓名', '*身份证号', '*手机号码', '*岗位', '*任命日期', '所在部门'];
  const importStaff = async (user: UnitUser, rows: Cell[][]) => {
    const { payload, headers } = await multipart('人员.xlsx', await xlsx(HEADER, rows, '安全管理人员'));
    const res = await withSession(app, user.sid, { method: 'POST', url: api('/r/safety-staff/import'), payload, headers });
    return res.json<Envelope<{ count?: number } & Partial<ImportFailure>>>();
  };
  const saveDept = async (user: UnitUser, name: string) => {
    const res = await call<{ id: string }>(app, user.sid, 'POST', '/r/safety-dept/save', { name, head: '王工', headMobile: '13800001112' });
    expect(res.body.result, res.body.message).toBe('true');
    return res.body.data!.id;
  };

  it("takes the referenced record's label as the export writes it, among the importer's own records only", async () => {
    const own = await saveDept(mine, '设备安全部');
    // The other unit has a department of the same name and one of its own: neither is the importer's.
    await saveDept(theirs, '设备安全部');
    await saveDept(theirs, '北仑安全部');
    const imported = await importStaff(mine, [
      ['按名称导入', '11010519491231002X', '13800001111', '主要负责人', '2024-01-01', '设备安全部'],
      ['按编号导入', '110105198001010032', '13800001113', '主要负责人', '2024-01-01', own],
    ]);
    expect(imported.result, imported.message).toBe('true');
    expect(imported.data?.count).toBe(2);
    const staff = await call<Page<Row>>(app, mine.sid, 'GET', '/r/safety-staff/list', { pageSize: 100 });
    expect(Object.fromEntries(staff.body.data!.list.map((r) => [r.name, r.dept]))).toEqual({ 按名称导入: own, 按编号导入: own });

    const refused = await importStaff(mine, [['跨单位部门', '110105198001010059', '13800001114', '主要负责人', '2024-01-01', '北仑安全部']]);
    expect(refused.result).toBe('false');
    expect(refused.data?.problems).toEqual([{ row: 2, field: '所在部门', message: '所在部门不存在或不属于本单位' }]);
    expect((await call<Page<Row>>(app, mine.sid, 'GET', '/r/safety-staff/list', { name: '跨单位部门' })).body.data!.count).toBe(0);
  });
});
