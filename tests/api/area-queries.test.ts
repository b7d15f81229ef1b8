/**
 * The authority's area queries (辖区监管: 综合查询, 超期未检, 检验不合格, 即将到期, 证书到期): the
 * equipment and certificate registers read across the using units of the authority's area
 * (resource oversightRead), each row with its unit's name (field `owner`), never written by the
 * authority; a district authority sees its district only, a using unit still its own rows only.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { newId } from '../../src/server/db/ids';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { passwordHasher } from '../../src/server/services/password';
import { api, appSuite, call, dbTargets, login, withSession } from './helpers';

type Row = Record<string, unknown>;
type Page = { list: Row[]; count: number };

const EQUIPMENT = '/r/equipment';
const CERTIFICATES = '/r/operator-certificate';

describe.each(dbTargets())('area queries of the authority (%s)', (target) => {
  const { app, session, units } = appSuite(target, {
    sessions: { city: 'jgadmin', district: 'yzjg', first: 'nbadmin', second: 'bladmin', operator: 'nbsub' },
    units: ['330212'],
  });
  const list = async (sid: string, path: string, query: Record<string, unknown> = {}) =>
    call<Page>(app, sid, 'POST', `${path}/list`, { pageSize: 100, ...query });
  const page = async (sid: string, path: string, query: Record<string, unknown> = {}) => {
    const { body } = await list(sid, path, query);
    expect(body.result, body.message).toBe('true');
    return body.data!;
  };

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 6 });
    // One overdue elevator per unit, whatever the few random demo pieces hold: inspected two years
    // ago, yearly inspections, so the next date the server derives passed a year ago.
    for (const sid of [session.first, session.second]) {
      const saved = await call<Row>(app, sid, 'POST', `${EQUIPMENT}/save`, {
        equclacode: '3000',
        equipmentName: '超期未检电梯',
        useStatus: '1',
        locationArea: '330212',
        address: '宁波市测试路1号',
        putIntoUseDate: addToDate(todayIn(), -5, 'y'),
        lastInspectionDate: addToDate(todayIn(), -2, 'y'),
        lastConclusion: '1',
      });
      expect(saved.body.result, saved.body.message).toBe('true');
    }
  }, 180_000);

  it('lists the equipment of every using unit of the city, each row with its unit name', async () => {
    const city = await page(session.city, EQUIPMENT);
    const first = await page(session.first, EQUIPMENT);
    const second = await page(session.second, EQUIPMENT);
    expect(first.count).toBeGreaterThan(0);
    expect(second.count).toBeGreaterThan(0);
    expect(city.count).toBe(first.count + second.count);
    const names = new Set(city.list.map((r) => r.unitName));
    expect(names).toEqual(new Set([DEMO_UNITS.using.orgname, DEMO_UNITS.second.orgname]));
    const secondIds = new Set(second.list.map((r) => r.id));
    for (const row of city.list) expect(row.unitName, String(row.id)).toBe(secondIds.has(row.id) ? DEMO_UNITS.second.orgname : DEMO_UNITS.using.orgname);
  });

  it('filters by the unit name (contains) and sorts by it', async () => {
    const second = await page(session.second, EQUIPMENT);
    const beilun = await page(session.city, EQUIPMENT, { unitName: '北仑港城' });
    expect(beilun.count).toBe(second.count);
    expect(beilun.list.every((r) => r.unitName === DEMO_UNITS.second.orgname)).toBe(true);
    expect((await page(session.city, EQUIPMENT, { unitName: '没有这个单位' })).count).toBe(0);
    const sorted = await page(session.city, EQUIPMENT, { orderBy: 'unitName desc' });
    const shown = sorted.list.map((r) => String(r.unitName));
    expect(shown).toEqual([...shown].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    expect(new Set(shown).size).toBe(2);
  });

  it('the overdue query holds rows of both units, in use and past their inspection date', async () => {
    const overdue = await page(session.city, EQUIPMENT, { useStatus: '1', nextInspectionDate_lte: 'today-1d' });
    expect(new Set(overdue.list.map((r) => r.unitName))).toEqual(new Set([DEMO_UNITS.using.orgname, DEMO_UNITS.second.orgname]));
    expect(overdue.list.every((r) => r.useStatus === '1' && typeof r.nextInspectionDate === 'string')).toBe(true);
  });

  it('exports a query with the unit name column', async () => {
    const res = await withSession(app, session.city, {
      method: 'GET',
      url: api(`${EQUIPMENT}/export`),
      query: { screen: 'area-equipment-timeout', useStatus: '1', nextInspectionDate_lte: 'today-1d' },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0].eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const column = rows[0].indexOf('使用单位');
    expect(column).toBeGreaterThanOrEqual(0);
    expect(new Set(rows.slice(1).map((r) => r[column]))).toEqual(new Set([DEMO_UNITS.using.orgname, DEMO_UNITS.second.orgname]));
  });

  it('lists certificates of both units expiring within 90 days, with the unit name', async () => {
    const expiring = await page(session.city, CERTIFICATES, { expiryDate_lte: 'today+90d' });
    expect(new Set(expiring.list.map((r) => r.unitName))).toEqual(new Set([DEMO_UNITS.using.orgname, DEMO_UNITS.second.orgname]));
  });

  it('a district authority sees its district only', async () => {
    const first = await page(session.first, EQUIPMENT);
    const district = await page(session.district, EQUIPMENT);
    expect(district.count).toBe(first.count);
    expect(district.list.every((r) => r.unitName === DEMO_UNITS.using.orgname && String(r.areaCode).startsWith('330212'))).toBe(true);
    const theirs = (await page(session.second, EQUIPMENT, { pageSize: 1 })).list[0];
    expect((await call(app, session.district, 'GET', `${EQUIPMENT}/get/${String(theirs.id)}`)).body.code).toBe('RECORD_NOT_FOUND');
    const certificates = await page(session.district, CERTIFICATES);
    expect(certificates.count).toBeGreaterThan(0);
    expect(certificates.list.every((r) => r.unitName === DEMO_UNITS.using.orgname)).toBe(true);
  });

  it('a using unit still sees only its own rows', async () => {
    for (const [sid, unit] of [
      [session.first, DEMO_UNITS.using],
      [session.second, DEMO_UNITS.second],
    ] as const) {
      const own = await page(sid, EQUIPMENT);
      expect(own.list.every((r) => r.unitName === unit.orgname)).toBe(true);
      expect((await page(sid, EQUIPMENT, { unitName: '宁波' })).count).toBe(own.count);
    }
    // A unit of the same district, with no equipment, sees none of the district's.
    expect((await page(units[0].sid, EQUIPMENT)).count).toBe(0);
  });

  it('the authority reads a row whole but neither saves nor deletes it', async () => {
    const row = (await page(session.first, EQUIPMENT, { pageSize: 1 })).list[0];
    const read = await call<Row>(app, session.city, 'GET', `${EQUIPMENT}/get/${String(row.id)}`);
    expect(read.body.data).toMatchObject({ id: row.id, unitName: DEMO_UNITS.using.orgname });
    const save = await call(app, session.city, 'POST', `${EQUIPMENT}/save`, { ...read.body.data, equipmentName: '监管改名' });
    expect(save.body.code).toBe('ACTION_NOT_PERMITTED');
    const remove = await call(app, session.city, 'POST', `${EQUIPMENT}/delete/${String(row.id)}`);
    expect(remove.body.code).toBe('ACTION_NOT_PERMITTED');
    const again = await call<Row>(app, session.first, 'GET', `${EQUIPMENT}/get/${String(row.id)}`);
    expect(again.body.data).toMatchObject({ equipmentName: row.equipmentName });
  });

  it('the unit name is never written: a save ignores it and the audit log does not record it', async () => {
    const row = (await page(session.first, EQUIPMENT, { pageSize: 1 })).list[0];
    const full = (await call<Row>(app, session.first, 'GET', `${EQUIPMENT}/get/${String(row.id)}`)).body.data!;
    const saved = await call<Row>(app, session.first, 'POST', `${EQUIPMENT}/save`, { ...full, unitName: '伪造的单位', remarks: '辖区查询测试' });
    expect(saved.body.result, saved.body.message).toBe('true');
    expect(saved.body.data).toMatchObject({ unitName: DEMO_UNITS.using.orgname, remarks: '辖区查询测试' });
    const log = await call<Array<{ changes?: Array<{ field: string }> }>>(app, session.first, 'GET', `${EQUIPMENT}/auditLog/${String(row.id)}`);
    expect(log.body.result).toBe('true');
    expect(JSON.stringify(log.body.data)).not.toContain('unitName');
  });

  it('follows a renamed unit', async () => {
    const renamed = `${DEMO_UNITS.second.orgname}（更名）`;
    await sql`UPDATE sys_unit SET orgname = ${renamed} WHERE id = ${DEMO_UNITS.second.id}`.execute(app.db);
    try {
      const shown = await page(session.city, EQUIPMENT, { unitName: '更名' });
      expect(shown.count).toBe((await page(session.second, EQUIPMENT)).count);
      expect(shown.list.every((r) => r.unitName === renamed)).toBe(true);
    } finally {
      await sql`UPDATE sys_unit SET orgname = ${DEMO_UNITS.second.orgname} WHERE id = ${DEMO_UNITS.second.id}`.execute(app.db);
    }
  });

  it('a using-unit role without the area ids (nor the registers its own) is refused the queries', async () => {
    // nbsub (使用单位经办人) holds the equipment menus but no 作业人员 or 辖区监管 ones.
    expect((await list(session.operator, CERTIFICATES, { expiryDate_lte: 'today+90d' })).body.code).toBe('FORBIDDEN');
    // A user of the first unit whose role holds one menu of neither.
    const role = newId();
    const user = newId();
    await sql`INSERT INTO sys_role (id, name, role_type, sort, menu_ids) VALUES (${role}, '仅公告', 'unit', 99, ${JSON.stringify(['company-service:notice'])})`.execute(
      app.db,
    );
    await sql`INSERT INTO sys_user (id, unit_id, login_name, name, password_hash, is_user_seed, basic_unit_flag, office_id)
      VALUES (${user}, ${DEMO_UNITS.using.id}, 'area_noaccess', '无权用户', ${await passwordHasher.hash('Test@2026x')}, 0, 1, ${DEMO_UNITS.using.id})`.execute(
      app.db,
    );
    await sql`INSERT INTO sys_user_role (user_id, role_id) VALUES (${user}, ${role})`.execute(app.db);
    const reply = await login(app, 'area_noaccess', 'Test@2026x', DEMO_UNITS.using.orgcode);
    expect(reply.result, reply.message).toBe('true');
    const sid = reply.sessionid!;
    expect((await list(sid, EQUIPMENT)).body.code).toBe('FORBIDDEN');
    expect((await list(sid, CERTIFICATES)).body.code).toBe('FORBIDDEN');
    const exported = await withSession(app, sid, { method: 'GET', url: api(`${EQUIPMENT}/export`), query: { screen: 'area-equipment-query' } });
    expect(exported.json<{ code?: string }>().code).toBe('FORBIDDEN');
  });
});
