/**
 * Maintenance-unit basic data (the original API /api/epbrmogmmaibasic/epBrmOgmMaiBasic): shared
 * rows every role with equipment access reads (the picker of an equipment's 维保单位), kept by the
 * authority only; the credit code and phone go through the validation catalogue; an equipment that
 * picks a unit keeps its name beside the reference (copied by the server when the request leaves
 * it out).
 */
import { describe, expect, it } from 'vitest';
import type { Page } from '../../src/shared/contract';
import { addToDate, todayIn } from '../../src/shared/dates';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { newId } from '../../src/server/db/ids';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; version: number };

const R = '/r/maintenance-unit';
const LEGACY = '/api/epbrmogmmaibasic/epBrmOgmMaiBasic';

describe.each(dbTargets())('maintenance units (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', sub: 'nbsub', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let serial = 0;
  /** A valid new unit; each call gets its own credit code and licence number (both unique). */
  const unit = (overrides: Record<string, unknown> = {}) => {
    serial++;
    return {
      unitName: `宁波测试电梯维保有限公司${serial}`,
      creditCode: makeUscc('91', '330212', `MA2T${String(1000 + serial)}`),
      licenceNo: `TS3333${String(900 + serial)}-2028`,
      licenceItems: ['T-B', 'T-R'],
      issueDate: addToDate(today, -1, 'y'),
      expiryDate: addToDate(today, 3, 'y'),
      area: '330212',
      address: '宁波市鄞州区测试路1号',
      contactPerson: '测试员',
      contactPhone: '0574-87000000',
      ...overrides,
    };
  };
  const create = (overrides: Record<string, unknown> = {}) => ok(session.authority, `${R}/save`, unit(overrides));

  it('lets the authority create, edit and delete a unit', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'active', licenceItems: ['T-B', 'T-R'], area: '330212' });
    const edited = await ok(session.authority, `${R}/save`, { id: created.id, version: created.version, contactPerson: '李工', contactPhone: '13906741228' });
    expect(edited).toMatchObject({ contactPerson: '李工', contactPhone: '13906741228', unitName: created.unitName });
    expect(await ok(session.authority, `${R}/delete/${created.id}`)).toBeNull();
    expect((await call(app, session.authority, 'GET', `${R}/get/${created.id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
  });

  it('lets a using unit read the units through both paths, but neither save nor delete them', async () => {
    const created = await create();
    for (const sid of [session.unit, session.sub, session.other]) {
      for (const path of [`${R}/list`, `${LEGACY}/list`]) {
        const { status, body } = await call<Page<Row>>(app, sid, 'GET', path, { q: String(created.unitName) });
        expect(status, path).toBe(200);
        expect(
          body.data!.list.map((r) => r.id),
          path,
        ).toEqual([created.id]);
      }
      expect((await call<Row>(app, sid, 'GET', `${R}/get/${created.id}`)).body.data).toMatchObject({
        unitName: created.unitName,
        licenceNo: created.licenceNo,
      });
      expect((await call<Row>(app, sid, 'GET', `${LEGACY}/get`, { id: created.id })).body.data).toMatchObject({ unitName: created.unitName });
    }

    const refused = { result: 'false', code: 'ACTION_NOT_PERMITTED', message: '当前角色无权执行此操作' };
    for (const path of [`${R}/save`, `${LEGACY}/save`]) {
      const insert = await post(session.unit, path, unit());
      expect(insert.status, path).toBe(403);
      expect(insert.body, path).toMatchObject(refused);
      const update = await post(session.unit, path, { id: created.id, version: created.version, unitName: '改名有限公司' });
      expect(update.body, path).toMatchObject(refused);
    }
    expect((await post(session.unit, `${R}/delete/${created.id}`)).body).toMatchObject(refused);
    expect((await post(session.sub, `${LEGACY}/delete`, { id: created.id })).body).toMatchObject(refused);
    // Nothing changed, nothing was added.
    expect((await call<Row>(app, session.authority, 'GET', `${R}/get/${created.id}`)).body.data).toMatchObject({
      unitName: created.unitName,
      version: created.version,
    });
    const listed = (await call<Page<Row>>(app, session.authority, 'GET', `${R}/list`, { q: '改名' })).body.data!;
    expect(listed.count).toBe(0);
  });

  it('answers the legacy save and delete for the authority', async () => {
    const { body } = await post(session.authority, `${LEGACY}/save`, unit());
    expect(body.result, body.message).toBe('true');
    const removed = await post(session.authority, `${LEGACY}/delete`, { id: body.data!.id });
    expect(removed.body.result, removed.body.message).toBe('true');
  });

  it('refuses a bad credit code, phone, licence item or expiry with the catalogue messages', async () => {
    const badCode = await post(session.authority, `${R}/save`, unit({ creditCode: '91330212MA2T00000X' }));
    expect(badCode.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请输入有效的统一社会信用代码', data: { field: 'creditCode' } });
    const badPhone = await post(session.authority, `${R}/save`, unit({ contactPhone: '12345' }));
    expect(badPhone.body).toMatchObject({ result: 'false', message: '请输入有效的手机号或者座机号', data: { field: 'contactPhone' } });
    const badItem = await post(session.authority, `${R}/save`, unit({ licenceItems: ['elevator'] }));
    expect(badItem.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '许可项目及级别的值不在可选范围内' });
    const early = await post(session.authority, `${R}/save`, unit({ issueDate: addToDate(today, -10, 'd'), expiryDate: addToDate(today, -20, 'd') }));
    expect(early.body).toMatchObject({ result: 'false', data: { field: 'expiryDate' } });
    expect(String(early.body.message)).toContain('许可证有效期至不能早于');
    // Without an issue date the expiry stands alone.
    expect(await create({ issueDate: null, expiryDate: addToDate(today, -20, 'd') })).toMatchObject({ expiryDate: addToDate(today, -20, 'd') });
    const missing = await post(session.authority, `${R}/save`, unit({ unitName: '' }));
    expect(missing.body).toMatchObject({ result: 'false', message: '请填写单位名称' });
    const first = await create();
    const duplicate = await post(session.authority, `${R}/save`, unit({ creditCode: first.creditCode }));
    expect(duplicate.body).toMatchObject({ result: 'false', message: '统一社会信用代码已存在，不能重复' });
  });

  it('lists by licence expiry and item, as the picker and the list screen ask', async () => {
    const soon = await create({ expiryDate: addToDate(today, 10, 'd'), licenceItems: ['Q-A'] });
    const valid = (await call<Page<Row>>(app, session.unit, 'GET', `${R}/list`, { expiryDate_gte: 'today', pageSize: '100' })).body.data!;
    expect(valid.list.every((r) => String(r.expiryDate) >= today)).toBe(true);
    expect(valid.list.map((r) => r.id)).toContain(soon.id);
    const cranes = (await call<Page<Row>>(app, session.authority, 'GET', `${R}/list`, { licenceItems: 'Q-A', pageSize: '100' })).body.data!;
    expect(cranes.list.map((r) => r.id)).toContain(soon.id);
    expect(cranes.list.every((r) => (r.licenceItems as string[]).includes('Q-A'))).toBe(true);
  });

  it('seeds demo units in 宁波 (some licences expired or expiring) and links the demo equipment to them', async () => {
    await seedDemoRecords(app, { equipment: 40, secondEquipment: 4 });
    const units = (await call<Page<Row>>(app, session.authority, 'GET', `${R}/list`, { pageSize: '100', orderBy: 'expiryDate' })).body.data!.list.filter(
      (u) => !String(u.unitName).startsWith('宁波测试'),
    );
    expect(units.length).toBeGreaterThanOrEqual(5);
    expect(units.every((u) => String(u.area).startsWith('3302'))).toBe(true);
    expect(units.some((u) => String(u.expiryDate) < today)).toBe(true);
    expect(units.some((u) => String(u.expiryDate) >= today && String(u.expiryDate) <= addToDate(today, 30, 'd'))).toBe(true);
    const equipment = (await call<Page<Row>>(app, session.unit, 'GET', '/r/equipment/list', { pageSize: '100' })).body.data!.list;
    const linked = equipment.filter((e) => e.maintenanceUnitId);
    expect(linked.length).toBeGreaterThan(0);
    const names = new Map(units.map((u) => [u.id, u.unitName]));
    for (const e of linked) expect(e.maintenanceUnit).toBe(names.get(String(e.maintenanceUnitId)));
    // The two demo maintenance units on the platform (wbadmin, gcwb): linked to their sys_unit, valid licences covering elevators.
    const onPlatform = units.filter((u) => u.accountUnitId);
    expect(onPlatform.map((u) => [u.creditCode, u.accountUnitId]).sort()).toEqual(
      [DEMO_UNITS.maintenance, DEMO_UNITS.maintenanceSecond].map((u) => [u.orgcode, u.id]).sort(),
    );
    for (const u of onPlatform) {
      expect(String(u.expiryDate) > addToDate(today, 300, 'd'), String(u.unitName)).toBe(true);
      expect(u.licenceItems).toContain('T-B');
    }
  });

  it('links a row to the maintenance unit on the platform with its credit code, whatever a request sends', async () => {
    const [registered] = await app.db
      .insertInto('sys_unit')
      .values({
        id: newId(),
        orgname: '宁波测试电梯维保平台单位',
        orgcode: makeUscc('91', '330212', 'MA2T7777'),
        areacode: '330212',
        unit_type: 'maintenance',
        sso_user_id: null,
      })
      .returning(['id', 'orgcode'])
      .execute();
    const linked = await create({ creditCode: registered.orgcode, accountUnitId: 'f'.repeat(32) });
    expect(linked.accountUnitId).toBe(registered.id);
    // Another credit code: unlinked (a using unit's code never links).
    const moved = await ok(session.authority, `${R}/save`, { id: linked.id, version: linked.version, creditCode: DEMO_UNITS.using.orgcode });
    expect(moved.accountUnitId ?? null).toBeNull();
    const offPlatform = await create({ accountUnitId: registered.id });
    expect(offPlatform.accountUnitId ?? null).toBeNull();
  });

  describe('as the picker of an equipment', () => {
    const equipment = {
      equclacode: '3000',
      subCategory: '3100',
      equipmentName: '维保测试客梯',
      locationArea: '330212',
      address: '宁波市鄞州区测试路2号',
      useStatus: '1',
    };

    it('copies the unit name when the request sends only the reference, and keeps a name it sends', async () => {
      const chosen = await create();
      const saved = await ok(session.unit, '/r/equipment/save', { ...equipment, maintenanceUnitId: chosen.id });
      expect(saved).toMatchObject({ maintenanceUnitId: chosen.id, maintenanceUnit: chosen.unitName });
      // The snapshot: the unit renamed later leaves the equipment's name as it was.
      await ok(session.authority, `${R}/save`, { id: chosen.id, version: chosen.version, unitName: `${String(chosen.unitName)}（新）` });
      const again = await ok(session.unit, '/r/equipment/save', {
        id: saved.id,
        version: saved.version,
        maintenanceUnitId: chosen.id,
        remarks: '年度维保合同续签',
      });
      expect(again.maintenanceUnit).toBe(chosen.unitName);

      // Another unit chosen: its name, unless the request carries one (as the form does).
      const other = await create();
      const moved = await ok(session.unit, '/r/equipment/save', { id: again.id, version: again.version, maintenanceUnitId: other.id });
      expect(moved.maintenanceUnit).toBe(other.unitName);
      const sent = await ok(session.unit, '/r/equipment/save', { ...equipment, maintenanceUnitId: other.id, maintenanceUnit: '宁波某电梯公司（手填）' });
      expect(sent.maintenanceUnit).toBe('宁波某电梯公司（手填）');

      // The free text alone still works (existing data, imports).
      const free = await ok(session.unit, '/r/equipment/save', { ...equipment, maintenanceUnit: '名录外的维保公司' });
      expect(free).toMatchObject({ maintenanceUnit: '名录外的维保公司', maintenanceUnitId: null });
      const shown = (await call<Row>(app, session.unit, 'GET', `/r/equipment/get/${saved.id}`)).body.data!;
      expect(shown).toMatchObject({ maintenanceUnitId: other.id, maintenanceUnit: other.unitName });
    });

    it('refuses a reference to no unit', async () => {
      const { body } = await post(session.unit, '/r/equipment/save', { ...equipment, maintenanceUnitId: 'f'.repeat(32) });
      expect(body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', data: { field: 'maintenanceUnitId' } });
    });
  });
});
