/**
 * The self-service remainder (/company-service): fault registrations, termination and
 * maintenance project applications (service-apply: draft → submitted → the authority agrees or
 * returns with an opinion; each type's fields needed to submit; only the right role moves a state;
 * an agreed termination stops the equipment), the check-online / check-install / check-record lists
 * over inspection-record (fixed `where`; online records written by the online inspection's inspect),
 * maintenance records (weibaoDa: the unit types a visit of a maintenance unit off the platform and
 * registers it, 登记 → 已确认), the gas-cylinder link from configuration — with both demo using
 * units, which never see or reference each other's rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { API, type FlowLogEntry, type Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { onlineInspectionFeature } from '../../src/server/domain/online-inspection/index';
import { serviceRecordsFeature } from '../../src/server/domain/service-records/index';
import { api, appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const FILE = [{ name: '签字单.pdf', url: '/files/sign.pdf' }];
const GAS_URL = 'https://qp.example.test/trace';

describe.each(dbTargets())('self-service records (%s)', (target) => {
  const { app, session } = appSuite(target, {
    build: { gasCylinderUrl: GAS_URL },
    sessions: { unit: 'nbadmin', sub: 'nbsub', other: 'bladmin', authority: 'jgadmin' },
  });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};
  let mine: Row[] = [];
  let theirs: Row[] = [];
  let maintainer: Row;

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 80, secondEquipment: 40, features: [equipmentFeature, onlineInspectionFeature, serviceRecordsFeature] });
    mine = (await ok<Page<Row>>(session.unit, '/r/equipment/list', { pageSize: 20, useStatus: '1' })).list;
    theirs = (await ok<Page<Row>>(session.other, '/r/equipment/list', { pageSize: 20, useStatus: '1' })).list;
    // A maintenance unit off the platform with a valid licence (an expired one is refused).
    const registry = (await ok<Page<Row>>(session.unit, '/r/maintenance-unit/list', { pageSize: 50, expiryDate_gte: today })).list;
    maintainer = registry.find((m) => !m.accountUnitId)!;
  }, 180_000);

  const list = (sid: string, resource: string, params: Record<string, unknown> = {}) => ok<Page<Row>>(sid, `/r/${resource}/list`, { pageSize: 100, ...params });
  const get = async (sid: string, resource: string, id: string) => (await call<Row>(app, sid, 'GET', `/r/${resource}/get/${id}`)).body;
  const fault = (equipment: string, extra: Record<string, unknown> = {}) => ({
    applyType: 'fault',
    equipment,
    faultDate: addToDate(today, -1, 'd'),
    faultType: 'electrical',
    faultDescription: '控制柜报警，无法启动',
    ...extra,
  });

  it('seeds applications of every type and state, maintenance records and inspection records for both units', async () => {
    expect(seeded.serviceApplications).toBe(10);
    const first = await list(session.unit, 'service-apply');
    expect(new Set(first.list.map((r) => r.applyType))).toEqual(new Set(['fault', 'termination', 'maintenance']));
    expect(new Set(first.list.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'approved', 'returned']));
    expect(first.list.every((r) => /^FW\d{10}$/.test(String(r.applyNo)))).toBe(true);
    const second = await list(session.other, 'service-apply');
    expect(second.list.length).toBe(3);
    expect(second.list.some((r) => first.list.some((m) => m.id === r.id))).toBe(false);

    for (const sid of [session.unit, session.other]) {
      const records = (await list(sid, 'maintenance-record')).list;
      expect(records.length).toBeGreaterThanOrEqual(9);
      // Typed and registered by the unit: confirmed, with the unit's confirmer and the date.
      expect(records.every((r) => r.status === 'confirmed' && r.unitConfirmer && r.confirmDate && !r.maintenanceAccountId)).toBe(true);
      // One latest visit per piece of equipment, the newest.
      const byPiece = new Map<string, Row[]>();
      for (const r of records) byPiece.set(String(r.equipment), [...(byPiece.get(String(r.equipment)) ?? []), r]);
      for (const visits of byPiece.values()) {
        const latest = visits.filter((v) => v.latest === true);
        expect(latest).toHaveLength(1);
        expect(latest[0].maintenanceDate).toBe(
          visits
            .map((v) => String(v.maintenanceDate))
            .sort()
            .at(-1),
        );
      }
      const online = (await list(sid, 'inspection-record', { source: 'online' })).list;
      expect(online.length).toBeGreaterThan(0);
      expect(online.every((r) => typeof r.onlineApply === 'string' && r.inspectionType === 'periodic')).toBe(true);
      const install = (await list(sid, 'inspection-record', { inspectionType: 'supervision' })).list;
      expect(install.length).toBeGreaterThanOrEqual(2);
      expect(install.every((r) => Array.isArray(r.report) && ['1', '2'].includes(String(r.conclusion)))).toBe(true);
    }
    // The first unit's overdue and due-soon maintenance, on the latest visits.
    const latest = (await list(session.unit, 'maintenance-record', { latest: true })).list;
    expect(latest.some((r) => String(r.nextMaintenanceDate) < today)).toBe(true);
    expect(latest.some((r) => String(r.nextMaintenanceDate) >= today && String(r.nextMaintenanceDate) <= addToDate(today, 7, 'd'))).toBe(true);
  });

  it('files a fault registration: a draft may be incomplete, commit needs the fault fields, the authority returns with an opinion and agrees', async () => {
    const draft = await ok(session.sub, '/r/service-apply/save', { applyType: 'fault', equipment: mine[0].id });
    expect(draft).toMatchObject({ status: 'draft', applicant: '宁波甬江特种设备使用有限公司', equipmentName: mine[0].equipmentName, equcode: mine[0].equcode });
    expect((await post(session.sub, `/r/service-apply/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请选择故障发生日期' });
    const filled = await ok(session.sub, '/r/service-apply/save', { ...fault(mine[0].id), id: draft.id, version: draft.version });
    // Fields of another type are not stored.
    expect(filled.terminationKind ?? null).toBeNull();
    expect((await ok(session.sub, `/r/service-apply/commit/${draft.id}`)).status).toBe('submitted');
    // The unit may not decide its own application; the authority must give a reason to return it.
    expect((await post(session.unit, `/r/service-apply/audit-agree/${draft.id}`)).body).toMatchObject({ result: 'false', message: '当前角色无权执行此操作' });
    expect((await post(session.authority, `/r/service-apply/audit-disagree/${draft.id}`)).body.message).toBe('请填写审核意见');
    expect((await ok(session.authority, `/r/service-apply/audit-disagree/${draft.id}`, { opinion: '请补充处置措施' })).status).toBe('returned');
    const flow = await ok<FlowLogEntry[]>(session.unit, `/r/service-apply/flowLog/${draft.id}`);
    expect(flow.map((e) => [e.action, e.opinion]).at(-1)).toEqual(['audit-disagree', '请补充处置措施']);
    const returned = (await get(session.unit, 'service-apply', draft.id)).data!;
    await ok(session.unit, '/r/service-apply/save', {
      ...fault(mine[0].id, { faultHandling: '已停机，通知维保单位' }),
      id: draft.id,
      version: returned.version,
      isCommit: true,
    });
    expect((await ok(session.authority, `/r/service-apply/audit-agree/${draft.id}`, { opinion: '已知悉' })).status).toBe('approved');
    // Nothing moves an agreed application.
    for (const action of ['audit-agree', 'audit-disagree', 'revoke', 'commit', 'delete']) {
      const sid = action.startsWith('audit') ? session.authority : session.unit;
      const reply = (await post(sid, `/r/service-apply/${action}/${draft.id}`, { opinion: '再次' })).body;
      expect(reply.result, action).toBe('false');
    }
    expect((await post(session.authority, `/r/service-apply/audit-agree/${draft.id}`)).body.message).toBe('当前状态不允许此操作');
  });

  it('needs each type its own fields to submit, and checks dates', async () => {
    const termination = await ok(session.unit, '/r/service-apply/save', { applyType: 'termination', equipment: mine[1].id });
    expect((await post(session.unit, `/r/service-apply/commit/${termination.id}`)).body.message).toBe('请选择申请事项');
    const maintenance = await ok(session.unit, '/r/service-apply/save', { applyType: 'maintenance', equipment: mine[1].id });
    expect((await post(session.unit, `/r/service-apply/commit/${maintenance.id}`)).body.message).toBe('请选择维保单位');
    const early = await post(session.unit, '/r/service-apply/save', {
      applyType: 'maintenance',
      equipment: mine[1].id,
      maintenanceUnitId: maintainer.id,
      planStartDate: addToDate(today, 10, 'd'),
      planEndDate: addToDate(today, 5, 'd'),
    });
    expect(early.body.message).toBe('计划完成日期不能早于计划开始日期');
    const future = await post(session.unit, '/r/service-apply/save', fault(mine[1].id, { faultDate: addToDate(today, 1, 'd') }));
    expect(future.body.result).toBe('false');
    // The maintenance unit's name is copied from the chosen unit.
    const copied = await ok(session.unit, '/r/service-apply/save', { applyType: 'maintenance', equipment: mine[1].id, maintenanceUnitId: maintainer.id });
    expect(copied.maintenanceUnitName).toBe(maintainer.unitName);
  });

  it('stops the equipment when the authority agrees to a stop application', async () => {
    const piece = mine[2];
    const filed = await ok(session.unit, '/r/service-apply/save', {
      applyType: 'termination',
      equipment: piece.id,
      terminationKind: 'stop',
      stopDate: addToDate(today, 3, 'd'),
      resumeDate: addToDate(today, 200, 'd'),
      terminationReason: '车间改造',
      isCommit: true,
    });
    expect(filed.status).toBe('submitted');
    expect((await get(session.unit, 'equipment', piece.id)).data!.useStatus).toBe('1');
    // The unit can revoke before the decision, and commit again.
    expect((await ok(session.unit, `/r/service-apply/revoke/${filed.id}`)).status).toBe('draft');
    expect((await ok(session.unit, `/r/service-apply/commit/${filed.id}`)).status).toBe('submitted');
    expect((await ok(session.authority, `/r/service-apply/audit-agree/${filed.id}`)).status).toBe('approved');
    expect((await get(session.unit, 'equipment', piece.id)).data!.useStatus).toBe('2');
  });

  it('keeps the two units apart: rows, actions and equipment references', async () => {
    const own = await ok(session.unit, '/r/service-apply/save', fault(mine[3].id));
    const other = await ok(session.other, '/r/service-apply/save', fault(theirs[0].id));
    expect(other.applicant).toBe('宁波北仑港城起重设备使用有限公司');
    for (const [sid, id] of [
      [session.other, own.id],
      [session.unit, other.id],
    ] as const) {
      expect((await get(sid, 'service-apply', id)).result).toBe('false');
      expect((await post(sid, `/r/service-apply/commit/${id}`)).body.message).toBe('记录不存在或无权访问');
      expect((await post(sid, `/r/service-apply/delete/${id}`)).body.result).toBe('false');
    }
    expect((await list(session.other, 'service-apply')).list.some((r) => r.id === own.id)).toBe(false);
    // Another unit's equipment cannot be referenced, neither by an application nor a maintenance record.
    // (nothing is copied from a record the unit may not see: with the copied fields sent, the reference itself is refused)
    expect((await post(session.unit, '/r/service-apply/save', fault(theirs[0].id))).body).toMatchObject({ result: 'false', message: '请填写设备名称' });
    expect((await post(session.unit, '/r/service-apply/save', fault(theirs[0].id, { equipmentName: String(theirs[0].equipmentName) }))).body).toMatchObject({
      result: 'false',
      message: '设备不存在或不属于本单位',
    });
    const visit = (equipment: string) => ({
      equipment,
      maintenanceDate: addToDate(today, -1, 'd'),
      maintenanceUnitId: maintainer.id,
      items: ['clean'],
      maintainer: '李强',
      signature: FILE,
      nextMaintenanceDate: addToDate(today, 14, 'd'),
    });
    expect((await post(session.unit, '/r/maintenance-record/save', { ...visit(theirs[0].id), equipmentName: 'x' })).body.message).toBe(
      '设备不存在或不属于本单位',
    );
    expect((await list(session.unit, 'maintenance-record', { equipment: theirs[0].id })).list).toEqual([]);
    const record = await ok(session.other, '/r/maintenance-record/save', visit(theirs[0].id));
    expect((await get(session.unit, 'maintenance-record', record.id)).result).toBe('false');
    expect((await post(session.unit, `/r/maintenance-record/delete/${record.id}`)).body.result).toBe('false');
    // Inspection records: each unit lists its own only.
    const firstIds = new Set((await list(session.unit, 'inspection-record', { inspectionType: 'supervision' })).list.map((r) => r.id));
    const secondRows = (await list(session.other, 'inspection-record', { inspectionType: 'supervision' })).list;
    expect(secondRows.some((r) => firstIds.has(r.id))).toBe(false);
    expect((await get(session.unit, 'inspection-record', secondRows[0].id)).result).toBe('false');
  });

  it('shows the authority submitted applications of its area, never a draft', async () => {
    const draft = await ok(session.unit, '/r/service-apply/save', fault(mine[4].id));
    const audited = (await list(session.authority, 'service-apply')).list;
    expect(audited.some((r) => r.status === 'submitted')).toBe(true);
    expect(audited.some((r) => r.status === 'draft')).toBe(false);
    expect((await get(session.authority, 'service-apply', draft.id)).result).toBe('false');
    expect((await post(session.authority, `/r/service-apply/audit-agree/${draft.id}`)).body.result).toBe('false');
  });

  it('keeps maintenance records: required fields, the next date not before the visit, the latest visit per piece', async () => {
    const piece = mine[5].id;
    const body = (date: string, extra: Record<string, unknown> = {}) => ({
      equipment: piece,
      maintenanceDate: date,
      maintenanceUnitId: maintainer.id,
      items: ['clean', 'brake'],
      maintainer: '王海波',
      signature: FILE,
      nextMaintenanceDate: addToDate(date, 15, 'd'),
      ...extra,
    });
    expect((await post(session.unit, '/r/maintenance-record/save', body(today, { signature: [] }))).body.message).toBe('请上传维保签字单');
    expect((await post(session.unit, '/r/maintenance-record/save', body(today, { nextMaintenanceDate: addToDate(today, -1, 'd') }))).body.message).toBe(
      '下次维保日期不能早于维保日期',
    );
    const recent = await ok(session.unit, '/r/maintenance-record/save', body(addToDate(today, -2, 'd'), { unitConfirmer: '冒填' }));
    // The confirmer is not the request's: it comes with 登记 (or the unit's confirmation of a maintenance unit's record).
    expect(recent).toMatchObject({ status: 'draft', latest: true, maintenanceUnit: maintainer.unitName, unitConfirmer: null });
    expect((await post(session.unit, `/r/maintenance-record/register/${recent.id}`, { unitConfirmer: '张伟' })).body.data).toMatchObject({
      status: 'confirmed',
      unitConfirmer: '张伟',
      confirmDate: today,
    });
    // Registered: no longer editable, nor deletable.
    expect((await post(session.unit, '/r/maintenance-record/save', { ...body(addToDate(today, -2, 'd')), id: recent.id, version: 99 })).body.result).toBe(
      'false',
    );
    expect((await post(session.unit, `/r/maintenance-record/delete/${recent.id}`)).body.code).toBe('WRONG_STATE');
    // An older visit entered afterwards does not take its place.
    const older = await ok(session.unit, '/r/maintenance-record/save', body(addToDate(today, -17, 'd')));
    expect(older.latest).toBe(false);
    expect((await get(session.unit, 'maintenance-record', recent.id)).data!.latest).toBe(true);
    // A newer one does.
    const newest = await ok(session.unit, '/r/maintenance-record/save', body(today));
    expect(newest.latest).toBe(true);
    expect((await get(session.unit, 'maintenance-record', recent.id)).data!.latest).toBe(false);
    // Deleting the latest hands it back to the visit before it (onDelete).
    expect((await post(session.unit, `/r/maintenance-record/delete/${newest.id}`)).body.result).toBe('true');
    expect((await get(session.unit, 'maintenance-record', recent.id)).data!.latest).toBe(true);
    // So does moving the latest (a draft) to another piece, in the group it leaves; the other piece keeps one latest.
    const other = mine[6].id;
    const moving = await ok(session.unit, '/r/maintenance-record/save', body(addToDate(today, -1, 'd')));
    expect((await get(session.unit, 'maintenance-record', recent.id)).data!.latest).toBe(false);
    await ok(session.unit, '/r/maintenance-record/save', { ...body(addToDate(today, -1, 'd')), equipment: other, id: moving.id, version: moving.version });
    expect((await get(session.unit, 'maintenance-record', recent.id)).data!.latest).toBe(true);
    const visits = (await list(session.unit, 'maintenance-record', { equipment: other })).list;
    expect(visits.filter((v) => v.latest === true)).toHaveLength(1);
    expect(visits.find((v) => v.latest === true)!.maintenanceDate).toBe(
      visits
        .map((v) => String(v.maintenanceDate))
        .sort()
        .at(-1),
    );
  });

  it('writes an online record with its application when the authority records the inspection', async () => {
    const before = (await list(session.unit, 'inspection-record', { source: 'online' })).count;
    const applied = await list(session.unit, 'online-apply', { status: 'inspected' });
    expect(applied.list.length).toBeGreaterThan(0);
    const online = (await list(session.unit, 'inspection-record', { source: 'online' })).list;
    expect(online.every((r) => applied.list.some((a) => a.id === r.onlineApply))).toBe(true);
    expect(before).toBe(online.length);
    // The records are the server's: no save through the API.
    expect((await post(session.unit, '/r/inspection-record/save', { equipment: mine[0].id })).status).toBe(404);
  });

  it('hands the gas-cylinder link to the browser from the configuration', async () => {
    const res = await app.inject({ method: 'GET', url: api(API.appConfig) });
    expect(res.json()).toMatchObject({ result: 'true', data: { links: { gasCylinder: GAS_URL } } });
  });
});
