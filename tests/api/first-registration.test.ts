/**
 * First registration (首次登记, /firstRegisterManagement): the unit files equipment not yet
 * in the registry with its manufacturer data and two certificates (required at commit), the
 * authority approves — the equipment enters the unit's registry 未登记 in the same transaction — or
 * returns with a required opinion; the same manufacturer + factory number is refused when it is
 * already registered or waits in another application; the two demo units never see each other's
 * applications.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { firstRegistrationFeature } from '../../src/server/domain/first-registration/index';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';
import { match } from '../support/match';

type Row = Record<string, unknown> & { id: string; status: string; version: number; applyNo: string };

const FILE = [{ name: '产品合格证.pdf', url: '/files/cert.pdf' }];
const R = '/r/first-regist-apply';

describe.each(dbTargets())('first registration (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin', sub: 'nbsub' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};
  let serial = 0;

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 6, secondEquipment: 3, features: [equipmentFeature, firstRegistrationFeature] });
  });

  /** A complete application of a new crane with a factory number of its own. */
  const body = (extra: Record<string, unknown> = {}) => ({
    equclacode: '4000',
    subCategory: '4100',
    equipmentName: '测试桥式起重机',
    equipmentModel: 'LD5-16.5',
    manufacturer: '河南卫华重型机械股份有限公司',
    manufacturerLicenceNo: 'TS2441007-2029',
    manufactureDate: addToDate(today, -1, 'm'),
    factoryNo: `FR${Date.now()}${serial++}`,
    locationArea: '330212',
    address: '宁波市鄞州区测试路1号',
    productCert: FILE,
    supervisionCert: [{ name: '监督检验证书.pdf', url: '/files/sup.pdf' }],
    ...extra,
  });
  const get = async (sid: string, id: string) => (await call<Row>(app, sid, 'GET', `${R}/get/${id}`)).body;
  const equipmentCount = async (sid: string): Promise<number> => Number((await ok<Page<Row>>(sid, '/r/equipment/list', { pageSize: 1 })).count);

  it('has the demo applications of both units in their states', async () => {
    expect(seeded.firstRegistrations).toBe(6);
    const mine = await ok<Page<Row>>(session.unit, `${R}/list`, { pageSize: 50 });
    expect(new Set(mine.list.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'approved', 'returned']));
    expect(mine.list.every((r) => /^SC\d{10}$/.test(r.applyNo))).toBe(true);
    const approved = mine.list.find((r) => r.status === 'approved')!;
    const piece = (await call<Row>(app, session.unit, 'GET', `/r/equipment/get/${String(approved.equipment)}`)).body.data!;
    expect(piece).toMatchObject({ useStatus: '0', equipmentName: approved.equipmentName, factoryNo: approved.factoryNo });
    const theirs = await ok<Page<Row>>(session.other, `${R}/list`, { pageSize: 50 });
    expect(new Set(theirs.list.map((r) => r.status))).toEqual(new Set(['submitted', 'approved']));
    expect(theirs.list.some((r) => mine.list.some((m) => m.id === r.id))).toBe(false);
    // The authority sees what waits and what it decided in its area, never a unit's draft.
    const audited = await ok<Page<Row>>(session.authority, `${R}/list`, { pageSize: 50 });
    expect(audited.list.some((r) => r.status === 'draft')).toBe(false);
    expect(audited.list.filter((r) => r.status === 'submitted')).toHaveLength(2);
  });

  it('saves a draft, commits, and on approval the equipment enters the registry 未登记 in the same step', async () => {
    const before = await equipmentCount(session.unit);
    const draft = await ok(session.unit, `${R}/save`, body({ productCert: [], supervisionCert: [] }));
    expect(draft).toMatchObject({ status: 'draft', useUnitName: '宁波甬江特种设备使用有限公司', contactPerson: '张伟' });
    // The certificates are required to submit, not to keep a draft.
    expect((await post(session.unit, `${R}/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请上传产品合格证' });
    const current = (await get(session.unit, draft.id)).data!;
    const committed = await ok(session.unit, `${R}/save`, { ...body(), factoryNo: draft.factoryNo, id: draft.id, version: current.version, isCommit: true });
    expect(committed.status).toBe('submitted');
    // The unit cannot approve its own application.
    expect((await post(session.unit, `${R}/audit-agree/${draft.id}`)).body.result).toBe('false');
    expect(await equipmentCount(session.unit)).toBe(before);

    const approved = await ok(session.authority, `${R}/audit-agree/${draft.id}`, { opinion: '准予首次登记' });
    expect(approved).toMatchObject({ status: 'approved', approveDate: today, auditOpinion: '准予首次登记' });
    expect(await equipmentCount(session.unit)).toBe(before + 1);
    const piece = (await call<Row>(app, session.unit, 'GET', `/r/equipment/get/${String(approved.equipment)}`)).body.data!;
    expect(piece).toMatchObject({
      useStatus: '0',
      equclacode: '4000',
      subCategory: '4100',
      equipmentName: '测试桥式起重机',
      manufacturer: '河南卫华重型机械股份有限公司',
      factoryNo: draft.factoryNo,
      locationArea: '330212',
      useCertNo: null,
    });
    expect(String(piece.remarks)).toContain('TS2441007-2029');
    // Ready for use registration: the registry's 未登记 query lists it.
    const unregistered = await ok<Page<Row>>(session.unit, '/r/equipment/list', { useStatus: '0', factoryNo: draft.factoryNo });
    expect(unregistered.list.map((r) => r.id)).toEqual([approved.equipment]);
    // Not the other unit's.
    expect((await call(app, session.other, 'GET', `/r/equipment/get/${String(approved.equipment)}`)).body.result).toBe('false');
    const log = (await ok<FlowLogEntry[]>(session.unit, `${R}/flowLog/${draft.id}`)).map((e) => [e.action, e.opinion]);
    expect(log.at(-1)).toEqual(['audit-agree', '准予首次登记']);
  });

  it('returns with a required opinion; the unit corrects and submits again', async () => {
    const filed = await ok(session.unit, `${R}/save`, { ...body(), isCommit: true });
    expect((await post(session.authority, `${R}/audit-disagree/${filed.id}`)).body).toMatchObject({ result: 'false', message: '请填写审核意见' });
    expect((await ok(session.authority, `${R}/audit-disagree/${filed.id}`, { opinion: '合格证不清晰' })).status).toBe('returned');
    const current = (await get(session.unit, filed.id)).data!;
    expect((await ok(session.unit, `${R}/save`, { id: filed.id, version: current.version, remarks: '已重新扫描', isCommit: true })).status).toBe('submitted');
    // Withdrawn before the audit, it is the unit's draft again; only drafts are deleted.
    expect((await post(session.unit, `${R}/delete/${filed.id}`)).body.result).toBe('false');
    expect((await ok(session.unit, `${R}/revoke/${filed.id}`)).status).toBe('draft');
    expect((await ok(session.unit, `${R}/delete/${filed.id}`)) ?? null).toBeNull();
  });

  it('refuses equipment already in the registry or waiting in another application, at commit and at approval', async () => {
    const first = await ok(session.unit, `${R}/save`, { ...body(), isCommit: true });
    // The same piece filed again (by another unit too) waits already.
    const twice = await post(session.other, `${R}/save`, { ...body({ factoryNo: first.factoryNo, locationArea: '330206' }), isCommit: true });
    expect(twice.body).toMatchObject({ result: 'false', message: '该设备（制造单位、出厂编号相同）已有待审核的首次登记申请' });
    // A draft of it may be kept, and is refused at commit once the first is registered.
    const draft = await ok(session.other, `${R}/save`, body({ factoryNo: first.factoryNo, locationArea: '330206' }));
    await ok(session.authority, `${R}/audit-agree/${first.id}`);
    expect((await post(session.other, `${R}/commit/${draft.id}`)).body).toMatchObject({
      result: 'false',
      message: '该设备（制造单位、出厂编号相同）已在设备台账中，不能重复首次登记',
    });
    expect((await get(session.other, draft.id)).data!.status).toBe('draft');
    // Equipment already recorded by hand in the registry cannot be first-registered either.
    const piece = (await ok<Page<Row>>(session.unit, '/r/equipment/list', { pageSize: 1, useStatus: '1' })).list[0];
    const registered = await post(session.unit, `${R}/save`, { ...body({ manufacturer: piece.manufacturer, factoryNo: piece.factoryNo }), isCommit: true });
    expect(registered.body.message).toBe('该设备（制造单位、出厂编号相同）已在设备台账中，不能重复首次登记');
  });

  it('refuses a manufacture date in the future and keeps the two units and the sub-account apart', async () => {
    const future = await post(session.unit, `${R}/save`, body({ manufactureDate: addToDate(today, 1, 'd') }));
    expect(future.body).toMatchObject({ result: 'false', message: match.stringContaining('制造日期不能晚于') });
    const mine = await ok(session.unit, `${R}/save`, body());
    for (const sid of [session.other]) {
      expect((await get(sid, mine.id)).result).toBe('false');
      expect((await post(sid, `${R}/commit/${mine.id}`)).body.message).toBe('记录不存在或无权访问');
      expect((await post(sid, `${R}/delete/${mine.id}`)).body.result).toBe('false');
    }
    // The authority never sees a draft; the sub-account (使用单位经办人) has no first-registration menu.
    expect((await get(session.authority, mine.id)).result).toBe('false');
    expect((await post(session.sub, `${R}/list`)).status).toBe(403);
  });
});
