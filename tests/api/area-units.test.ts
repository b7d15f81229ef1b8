/**
 * 辖区单位 and 单位档案 (resource `area-unit` over the view of src/server/domain/area-units/view.ts):
 * the authority lists the units of its area with their equipment and overdue counts — filtered,
 * sorted, paged —, a district authority only its district's, a using unit nothing; the file's tabs
 * read the unit's records of other resources (filtered by the owner unitId) and refuse every write;
 * the rectification order picks its unit (targetUnit) and keeps the server's credit-code checks.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { companyFeature } from '../../src/server/domain/company-info/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { supervisionFeature } from '../../src/server/domain/supervision/index';
import { workersFeature } from '../../src/server/domain/workers/index';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

interface UnitRow {
  id: string;
  orgname: string;
  orgcode: string;
  district: string;
  unitType: string;
  equipmentCount: number;
  overdueCount: number;
  hasOverdue: boolean;
  contact: string | null;
  areaCode: string;
}
type Row = Record<string, unknown> & { id: string; version: number };

describe.each(dbTargets())('area units and unit files (%s)', (target) => {
  // A district authority of 鄞州 (330212) and a using unit of 杭州 (outside 宁波).
  const {
    app,
    session,
    units: [district, farUnit],
  } = appSuite(target, { units: [['330212', 'authority'], '330106'], sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  const list = (sid: string, query: Record<string, unknown> = {}) => call<Page<UnitRow>>(app, sid, 'GET', '/r/area-unit/list', { pageSize: 100, ...query });
  const rows = async (sid: string, query: Record<string, unknown> = {}) => {
    const reply = await list(sid, query);
    expect(reply.body.result, reply.body.message).toBe('true');
    return reply.body.data!.list;
  };
  /** The counts as the equipment table holds them (the portal's overdue rule: 在用, next inspection before today). */
  const truth = async (unitId: string) => {
    const {
      rows: [row],
    } = await sql<{ total: string; overdue: string }>`
      SELECT count(*) AS total, count(*) FILTER (WHERE use_status = '1' AND next_inspection_date < ${today}::date) AS overdue FROM equipment WHERE unit_id = ${unitId}`.execute(
      app.db,
    );
    return { equipmentCount: Number(row.total), overdueCount: Number(row.overdue) };
  };
  const equipment = (sid: string, fields: Record<string, unknown>) =>
    ok(sid, '/r/equipment/save', {
      equipmentName: '辖区单位测试设备',
      equclacode: '3000',
      subCategory: '3100',
      useStatus: '1',
      locationArea: '330212',
      address: '宁波市鄞州区测试路1号',
      ...fields,
    });

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 6, features: [equipmentFeature, workersFeature, companyFeature, supervisionFeature] });
    // Known rows beside the demo's: two overdue (inspected two years ago, yearly), one not in use (never overdue), one due in eleven months.
    await equipment(session.unit, { lastInspectionDate: addToDate(today, -24, 'm') });
    await equipment(session.unit, { lastInspectionDate: addToDate(today, -25, 'm') });
    await equipment(session.unit, { useStatus: '0', lastInspectionDate: addToDate(today, -30, 'm') });
    await equipment(session.other, { locationArea: '330206', lastInspectionDate: addToDate(today, -1, 'm') });
  }, 180_000);

  it('lists the city’s units with their equipment and overdue counts, no authority among them', async () => {
    const all = await rows(session.authority);
    const using = all.find((r) => r.id === DEMO_UNITS.using.id)!;
    const second = all.find((r) => r.id === DEMO_UNITS.second.id)!;
    expect(using).toMatchObject({
      orgname: DEMO_UNITS.using.orgname,
      orgcode: DEMO_UNITS.using.orgcode,
      district: '330212',
      unitType: 'use',
      contact: DEMO_UNITS.using.contact,
      ...(await truth(DEMO_UNITS.using.id)),
    });
    expect(second).toMatchObject({ orgname: DEMO_UNITS.second.orgname, district: '330206', ...(await truth(DEMO_UNITS.second.id)) });
    expect(using.equipmentCount).toBeGreaterThanOrEqual(15);
    expect(using.overdueCount).toBeGreaterThanOrEqual(2);
    expect(using.hasOverdue).toBe(true);
    expect(second.equipmentCount).toBeGreaterThanOrEqual(7);
    expect(second.hasOverdue).toBe(second.overdueCount > 0);
    // Authorities are not units under supervision; 杭州 is not the city's.
    expect(all.some((r) => r.unitType === 'authority' || r.id === DEMO_UNITS.authority.id || r.id === district.unitId)).toBe(false);
    expect(all.some((r) => r.id === farUnit.unitId)).toBe(false);
    expect(all.every((r) => r.areaCode.startsWith('3302'))).toBe(true);
    // One unit, as the file reads it.
    const one = (await call<UnitRow>(app, session.authority, 'GET', `/r/area-unit/get/${DEMO_UNITS.using.id}`)).body.data!;
    expect(one).toMatchObject({ id: DEMO_UNITS.using.id, equipmentCount: using.equipmentCount });
  });

  it('filters by district, type, keyword, counts and overdue; sorts and pages', async () => {
    // 北仑 holds the second using unit, the inspection body serving it and the second maintenance unit.
    expect((await rows(session.authority, { district: '330206' })).map((r) => r.id).sort()).toEqual(
      [DEMO_UNITS.second.id, DEMO_UNITS.inspectionSecond.id, DEMO_UNITS.maintenanceSecond.id].sort(),
    );
    expect((await rows(session.authority, { district: '330206', unitType: ['maintenance'] })).map((r) => r.id)).toEqual([DEMO_UNITS.maintenanceSecond.id]);
    expect((await rows(session.authority, { district: '330206', unitType: ['use'] })).map((r) => r.id)).toEqual([DEMO_UNITS.second.id]);
    expect((await rows(session.authority, { q: '甬江' })).map((r) => r.id)).toEqual([DEMO_UNITS.using.id]);
    expect((await rows(session.authority, { q: DEMO_UNITS.second.orgcode })).map((r) => r.id)).toEqual([DEMO_UNITS.second.id]);
    expect((await rows(session.authority, { unitType: ['install'] })).length).toBe(0);
    const using = (await rows(session.authority, { q: '甬江' }))[0];
    const bounded = await rows(session.authority, { equipmentCount_gte: using.equipmentCount, equipmentCount_lte: using.equipmentCount });
    expect(bounded.map((r) => r.id)).toContain(DEMO_UNITS.using.id);
    expect(bounded.every((r) => r.equipmentCount === using.equipmentCount)).toBe(true);
    const overdue = await rows(session.authority, { hasOverdue: true });
    expect(overdue.map((r) => r.id)).toContain(DEMO_UNITS.using.id);
    expect(overdue.every((r) => r.overdueCount > 0)).toBe(true);
    expect((await rows(session.authority, { hasOverdue: false })).every((r) => r.overdueCount === 0)).toBe(true);
    expect((await rows(session.authority, { overdueCount_gte: using.overdueCount + 1000 })).length).toBe(0);
    const byCount = await rows(session.authority, { orderBy: 'equipmentCount desc' });
    expect(byCount.map((r) => r.equipmentCount)).toEqual([...byCount.map((r) => r.equipmentCount)].sort((a, b) => b - a));
    // The sort by 超期未检数: the order of the counts shown, ties by id.
    const byOverdue = await rows(session.authority, { orderBy: 'overdueCount desc' });
    expect(byOverdue.length).toBe(byCount.length);
    expect(byOverdue.map((r) => r.id)).toEqual([...byOverdue].sort((a, b) => b.overdueCount - a.overdueCount || (a.id < b.id ? -1 : 1)).map((r) => r.id));
    expect(byOverdue[0].overdueCount).toBeGreaterThanOrEqual(using.overdueCount);
    expect((await rows(session.authority, { orderBy: 'overdueCount asc' })).map((r) => r.overdueCount)).toEqual(
      [...byOverdue.map((r) => r.overdueCount)].reverse(),
    );
    const byName = await rows(session.authority, { orderBy: 'orgname asc' });
    const page = (await list(session.authority, { orderBy: 'orgname asc', pageSize: 1, pageNo: 2 })).body.data!;
    expect(page.count).toBe(byName.length);
    expect(page.list.map((r) => r.id)).toEqual([byName[1].id]);
  });

  it('shows a district authority its district alone, and refuses a using unit', async () => {
    const mine = await rows(district.sid);
    expect(mine.map((r) => r.id)).toContain(DEMO_UNITS.using.id);
    expect(mine.every((r) => r.district.startsWith('330212'))).toBe(true);
    expect(mine.some((r) => r.id === DEMO_UNITS.second.id)).toBe(false);
    expect((await call(app, district.sid, 'GET', `/r/area-unit/get/${DEMO_UNITS.second.id}`)).body.message).toBe('记录不存在或无权访问');
    // The district's file tabs read its units' records only.
    const theirs = (await ok<Page<Row>>(district.sid, '/r/equipment/list', { unitId: DEMO_UNITS.second.id, pageSize: 1 })).count;
    expect(theirs).toBe(0);
    for (const sid of [session.unit, session.other]) {
      const refused = await list(sid);
      expect(refused.status).toBe(403);
      expect(refused.body.result).toBe('false');
    }
  });

  it('opens each tab of a unit’s file with that unit’s records only', async () => {
    const unitId = DEMO_UNITS.using.id;
    const expected = await truth(unitId);
    const tabs: Array<[string, number]> = [
      ['equipment', expected.equipmentCount],
      ['operator', 1],
      ['operator-certificate', 1],
      ['unit-version', 1],
      ['supervision-order', 1],
      ['inspection-record', 1],
      ['use-regist-apply', 0],
    ];
    for (const [resource, atLeast] of tabs) {
      const page = await ok<Page<Row>>(session.authority, `/r/${resource}/list`, { unitId, pageSize: 100 });
      expect(page.count, resource).toBeGreaterThanOrEqual(atLeast);
      if (resource === 'equipment') expect(page.count).toBe(expected.equipmentCount);
      // Each row names its unit (the id a link column's toId passes to /area/unit-file).
      expect(
        page.list.every((r) => r.unitId === unitId),
        resource,
      ).toBe(true);
      const { rows: owners } = await sql<{
        unit_id: string;
      }>`SELECT DISTINCT unit_id FROM ${sql.table(app.resources.get(resource)!.model.table)} WHERE id = ANY(${page.list.map((r) => r.id)}::text[])`.execute(
        app.db,
      );
      expect(
        owners.every((o) => o.unit_id.trim() === unitId),
        resource,
      ).toBe(true);
    }
  });

  it('refuses the authority’s writes through the file’s tabs', async () => {
    const piece = (await ok<Page<Row>>(session.authority, '/r/equipment/list', { unitId: DEMO_UNITS.using.id, pageSize: 1 })).list[0];
    const save = await post(session.authority, '/r/equipment/save', { ...piece, address: '监管部门改写' });
    expect(save.body.result).toBe('false');
    expect((await post(session.authority, `/r/equipment/delete/${piece.id}`)).body.result).toBe('false');
    const person = (await ok<Page<Row>>(session.authority, '/r/operator/list', { unitId: DEMO_UNITS.using.id, pageSize: 1 })).list[0];
    expect((await post(session.authority, '/r/operator/save', { ...person, name: '改写' })).body.result).toBe('false');
    expect((await post(session.authority, '/r/operator/save', { name: '新人', idCard: '330203199001011234' })).body.result).toBe('false');
    // Nothing changed; the unit itself still writes.
    expect((await ok<Row>(session.unit, `/r/equipment/get/${piece.id}`)).address).toBe(piece.address);
  });

  it('the rectification order takes a picked unit, fills its code and name, and keeps the area check', async () => {
    const base = { category: 'correct', problem: '未按期申报定期检验', requirement: '立即申报检验', deadline: addToDate(today, 15, 'd'), inspector: '陈静' };
    // The picker sends the unit and the code it copied; a legacy client the code alone; both end with the same unit.
    const picked = await ok(session.authority, '/r/supervision-order/save', {
      ...base,
      targetUnit: DEMO_UNITS.second.id,
      targetCreditCode: DEMO_UNITS.second.orgcode,
    });
    expect(picked).toMatchObject({ targetUnit: DEMO_UNITS.second.id, targetCreditCode: DEMO_UNITS.second.orgcode, useUnitName: DEMO_UNITS.second.orgname });
    const typed = await ok(session.authority, '/r/supervision-order/save', { ...base, targetCreditCode: DEMO_UNITS.using.orgcode });
    expect(typed).toMatchObject({ targetUnit: DEMO_UNITS.using.id, useUnitName: DEMO_UNITS.using.orgname });
    // A unit outside the authority's area cannot be picked (no such record for it), nor typed.
    expect((await post(session.authority, '/r/supervision-order/save', { ...base, targetUnit: farUnit.unitId })).body.result).toBe('false');
    const {
      rows: [far],
    } = await sql<{ orgcode: string }>`SELECT orgcode FROM sys_unit WHERE id = ${farUnit.unitId}`.execute(app.db);
    expect((await post(session.authority, '/r/supervision-order/save', { ...base, targetCreditCode: far.orgcode })).body.result).toBe('false');
    // The picker's search: by name or credit code, using units only.
    expect((await rows(session.authority, { q: '北仑', unitType: ['use'] })).map((r) => r.id)).toEqual([DEMO_UNITS.second.id]);
  });
});
