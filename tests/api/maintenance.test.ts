/**
 * Maintenance units on the platform (wing src/server/domain/maintenance): the using unit commits a
 * maintenance contract naming a registered maintenance unit (its account copied by the server), the
 * maintenance unit confirms or returns it; while active, the maintenance unit reads exactly the
 * contract's equipment (equipment party.through) and files records for it that belong to the unit
 * (maintenance-record party.via contract), commits them, and the unit confirms them with its
 * confirmer or returns them with an opinion. The server refuses a piece outside the contract, a
 * contract not in force, an expired licence and an elevator interval beyond
 * PORTAL_ELEVATOR_MAINTENANCE_DAYS. A second maintenance unit (gcwb) never sees the first one's rows;
 * a maintenance unit never reads the unit's draft contracts nor the records the unit types itself.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { maintenanceFeature } from '../../src/server/domain/maintenance/index';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const C = '/r/maintenance-contract';
const M = '/r/maintenance-record';
const FILE = [{ name: '合同.pdf', url: '/files/contract.pdf' }];
const NOT_FOUND = '记录不存在或无权访问';

describe.each(dbTargets())('maintenance contracts and records (%s)', (target) => {
  const { app, session } = appSuite(target, {
    sessions: { unit: 'nbadmin', other: 'bladmin', wb: 'wbadmin', gc: 'gcwb', authority: 'jgadmin' },
  });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};
  /** The registry rows of wbadmin's and gcwb's units, and one off the platform. */
  let wbLicence: Row;
  let offPlatform: Row;
  /** nbadmin's in-use elevators in no contract yet. */
  let free: Row[] = [];

  const list = async (sid: string, path: string, params: Record<string, unknown> = {}) =>
    (await ok<Page<Row>>(sid, `${path}/list`, { pageSize: 100, ...params })).list;
  const get = async (sid: string, path: string, id: string) => (await call<Row>(app, sid, 'GET', `${path}/get/${id}`)).body;
  const refused = async (sid: string, path: string, body: Record<string, unknown> = {}) => {
    const reply = (await post(sid, path, body)).body;
    expect(reply.result, path).toBe('false');
    return reply;
  };
  /** Sets a column of a row directly (an expiry passing, a contract ending), returning the value it had. */
  const setColumn = async (resource: string, field: string, id: string, value: string) => {
    const model = app.resources.get(resource)!.model;
    const table = sql.table(model.table);
    const column = sql.ref(model.byName.get(field)!.column);
    const { rows } = await sql<{ v: string }>`SELECT to_char(${column}, 'YYYY-MM-DD') AS v FROM ${table} WHERE id = ${id}`.execute(app.db);
    await sql`UPDATE ${table} SET ${column} = ${value} WHERE id = ${id}`.execute(app.db);
    return rows[0].v;
  };

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 120, secondEquipment: 50, features: [equipmentFeature, maintenanceFeature] });
    const registry = await list(session.unit, '/r/maintenance-unit', { expiryDate_gte: today });
    wbLicence = registry.find((m) => m.accountUnitId === DEMO_UNITS.maintenance.id)!;
    offPlatform = registry.find((m) => !m.accountUnitId)!;
    const contracted = new Set<string>();
    for (const c of await list(session.unit, C)) {
      const full = (await get(session.unit, C, c.id)).data!;
      for (const item of full.equipments as Row[]) contracted.add(String(item.equipment));
    }
    free = (await list(session.unit, '/r/equipment', { useStatus: '1', equclacode: '3000' })).filter((e) => !contracted.has(e.id));
    // The tests below each take their own pieces, free[0] to free[11].
    expect(free.length).toBeGreaterThanOrEqual(12);
  }, 240_000);

  const contractBody = (pieces: Row[], extra: Record<string, unknown> = {}) => ({
    maintenanceUnitId: wbLicence.id,
    startDate: addToDate(today, -30, 'd'),
    endDate: addToDate(today, 1, 'y'),
    equipments: pieces.map((e) => ({ equipment: e.id })),
    contractScan: FILE,
    ...extra,
  });
  const visit = (contract: string, equipment: string, extra: Record<string, unknown> = {}) => ({
    contract,
    equipment,
    maintenanceDate: addToDate(today, -1, 'd'),
    items: ['clean', 'brake', 'door'],
    maintainer: '孙建国',
    nextMaintenanceDate: addToDate(today, 14, 'd'),
    ...extra,
  });
  /** A contract of nbadmin with wbadmin over `pieces`, confirmed by wbadmin. */
  const activeContract = async (pieces: Row[]) => {
    const saved = await ok(session.unit, `${C}/save`, { ...contractBody(pieces), isCommit: true });
    return ok(session.wb, `${C}/confirm/${saved.id}`, { opinion: '确认' });
  };

  it('seeds contracts in every state and records filed by the maintenance units', async () => {
    expect(seeded.maintenanceContracts).toBe(4);
    const wbContracts = await list(session.wb, C);
    expect(new Set(wbContracts.map((c) => c.status))).toEqual(new Set(['active', 'submitted', 'returned']));
    expect(wbContracts.every((c) => c.unitId === DEMO_UNITS.using.id && c.maintenanceAccountId === DEMO_UNITS.maintenance.id)).toBe(true);
    expect(wbContracts.every((c) => /^WB\d{10}$/.test(String(c.contractNo)))).toBe(true);
    const gcContracts = await list(session.gc, C);
    expect(gcContracts.map((c) => [c.status, c.unitId])).toEqual([['active', DEMO_UNITS.second.id]]);

    const records = await list(session.wb, M);
    expect(new Set(records.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'returned', 'confirmed']));
    expect(records.every((r) => r.unitId === DEMO_UNITS.using.id && r.maintenanceAccountId === DEMO_UNITS.maintenance.id)).toBe(true);
    // The unit's view of them: the latest next visit of one piece overdue, of another due within the week.
    const latest = await list(session.unit, M, { latest: true, maintenanceUnit: DEMO_UNITS.maintenance.orgname, status: 'confirmed' });
    expect(latest.some((r) => String(r.nextMaintenanceDate) < today)).toBe(true);
    expect(latest.some((r) => String(r.nextMaintenanceDate) >= today && String(r.nextMaintenanceDate) <= addToDate(today, 7, 'd'))).toBe(true);
    // gcwb's, and none of wbadmin's.
    const gcRecords = await list(session.gc, M);
    expect(gcRecords.length).toBeGreaterThan(0);
    expect(gcRecords.every((r) => r.unitId === DEMO_UNITS.second.id)).toBe(true);
  });

  it('commits a contract, the maintenance unit confirms it and then sees exactly its equipment', async () => {
    const pieces = free.slice(0, 2);
    const draft = await ok(session.unit, `${C}/save`, contractBody(pieces, { maintenanceAccountId: DEMO_UNITS.maintenanceSecond.id }));
    // The party column is the chosen unit's account, whatever the request says.
    expect(draft).toMatchObject({ status: 'draft', maintenanceUnit: wbLicence.unitName, maintenanceAccountId: DEMO_UNITS.maintenance.id });
    // A draft stays the unit's.
    expect(await get(session.wb, C, draft.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND', message: NOT_FOUND });
    expect((await list(session.wb, C)).some((c) => c.id === draft.id)).toBe(false);
    expect((await ok(session.unit, `${C}/commit/${draft.id}`)).status).toBe('submitted');
    // Before confirmation its equipment is not the maintenance unit's.
    expect(await get(session.wb, '/r/equipment', pieces[0].id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    // Only the maintenance unit confirms; the other maintenance unit does not see it.
    expect((await refused(session.unit, `${C}/confirm/${draft.id}`)).code).toBe('ACTION_NOT_PERMITTED');
    expect(await get(session.gc, C, draft.id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    const active = await ok(session.wb, `${C}/confirm/${draft.id}`, { opinion: '合同无误' });
    expect(active).toMatchObject({ status: 'active', opinion: '合同无误' });
    // The register names the maintenance unit of each piece now under contract.
    expect((await get(session.unit, '/r/equipment', pieces[0].id)).data).toMatchObject({
      maintenanceUnitId: wbLicence.id,
      maintenanceUnit: wbLicence.unitName,
    });
    // A piece can be under one contract at a time (submitted or active).
    const again = await ok(session.unit, `${C}/save`, contractBody([pieces[0]]));
    expect(await refused(session.unit, `${C}/commit/${again.id}`)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `设备${String(pieces[0].equipmentName)}已在维保合同${String(active.contractNo)}（待确认或生效中）中，请先终止原合同或从清单中移除该设备`,
      data: { field: 'equipments' },
    });
    const log = await ok<FlowLogEntry[]>(session.unit, `${C}/flowLog/${draft.id}`);
    expect(log.map((e) => e.action)).toEqual(expect.arrayContaining(['commit', 'confirm']));

    // wbadmin reads the equipment of its active contracts only, read only.
    const seen = new Set((await list(session.wb, '/r/equipment')).map((e) => e.id));
    for (const piece of pieces) expect(seen.has(piece.id)).toBe(true);
    expect(seen.has(free[5].id)).toBe(false);
    expect((await get(session.wb, '/r/equipment', pieces[0].id)).data?.id).toBe(pieces[0].id);
    expect((await refused(session.wb, '/r/equipment/save', { ...pieces[0], version: pieces[0].version })).result).toBe('false');
    // None of bladmin's (gcwb's contract) and gcwb none of these.
    const gcContract = (await list(session.gc, C))[0];
    const gcPieces = ((await get(session.gc, C, gcContract.id)).data!.equipments as Row[]).map((i) => String(i.equipment));
    expect(gcPieces.length).toBeGreaterThan(0);
    for (const id of gcPieces) {
      expect(seen.has(id)).toBe(false);
      expect(await get(session.wb, '/r/equipment', id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    }
    const gcSeen = new Set((await list(session.gc, '/r/equipment')).map((e) => e.id));
    expect(gcPieces.every((id) => gcSeen.has(id))).toBe(true);
    expect(pieces.some((p) => gcSeen.has(p.id))).toBe(false);
  });

  it('files a record for the unit, commits it, the unit confirms it with its confirmer', async () => {
    const pieces = free.slice(2, 4);
    const contract = await activeContract(pieces);
    const record = await ok(session.wb, `${M}/save`, visit(contract.id, pieces[0].id, { maintenanceAccountId: DEMO_UNITS.maintenanceSecond.id }));
    expect(record).toMatchObject({
      status: 'draft',
      unitId: DEMO_UNITS.using.id,
      maintenanceAccountId: DEMO_UNITS.maintenance.id,
      maintenanceUnitId: wbLicence.id,
      maintenanceUnit: wbLicence.unitName,
      equipmentName: pieces[0].equipmentName,
      unitConfirmer: null,
    });
    // Only the maintenance unit commits; the unit confirms.
    expect((await refused(session.unit, `${M}/commit/${record.id}`)).code).toBe('ACTION_NOT_PERMITTED');
    expect((await ok(session.wb, `${M}/commit/${record.id}`)).status).toBe('submitted');
    expect((await refused(session.wb, `${M}/confirm/${record.id}`, { unitConfirmer: '钱伟' })).code).toBe('ACTION_NOT_PERMITTED');
    expect((await refused(session.unit, `${M}/confirm/${record.id}`)).message).toBe('请填写使用单位确认人');
    const confirmed = await ok(session.unit, `${M}/confirm/${record.id}`, { unitConfirmer: '张伟' });
    expect(confirmed).toMatchObject({ status: 'confirmed', unitConfirmer: '张伟', confirmDate: today });
    expect((await list(session.unit, M, { status: 'confirmed' })).some((r) => r.id === record.id)).toBe(true);
    // Confirmed: the maintenance unit keeps reading it, nobody edits it.
    expect((await get(session.wb, M, record.id)).data?.status).toBe('confirmed');
    expect((await refused(session.wb, `${M}/save`, { ...visit(contract.id, pieces[0].id), id: record.id, version: confirmed.version })).code).toBe(
      'WRONG_STATE',
    );
    // A record the maintenance unit filed is its own while a draft: the unit neither sees, registers, edits nor deletes it.
    const other = await ok(session.wb, `${M}/save`, visit(contract.id, pieces[1].id));
    expect((await list(session.unit, M)).some((r) => r.id === other.id)).toBe(false);
    expect(await get(session.unit, M, other.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
    expect((await refused(session.unit, `${M}/register/${other.id}`, { unitConfirmer: '张伟' })).code).toBe('RECORD_NOT_FOUND');
    expect((await refused(session.unit, `${M}/save`, { ...visit(contract.id, pieces[1].id), id: other.id, version: other.version })).code).toBe(
      'RECORD_NOT_FOUND',
    );
    expect((await refused(session.unit, `${M}/delete/${other.id}`)).code).toBe('RECORD_NOT_FOUND');
    expect((await post(session.wb, `${M}/delete/${other.id}`)).body.result).toBe('true');
  });

  it('returns a record with an opinion; the maintenance unit edits and commits it again', async () => {
    const pieces = free.slice(4, 5);
    const contract = await activeContract(pieces);
    const record = await ok(session.wb, `${M}/save`, { ...visit(contract.id, pieces[0].id), isCommit: true });
    expect(record.status).toBe('submitted');
    expect((await refused(session.unit, `${M}/return/${record.id}`)).message).toBe('请填写审核意见');
    expect((await ok(session.unit, `${M}/return/${record.id}`, { opinion: '漏填限速器校验' })).status).toBe('returned');
    const back = (await get(session.wb, M, record.id)).data!;
    const again = await ok(session.wb, `${M}/save`, {
      ...visit(contract.id, pieces[0].id, { items: ['clean', 'brake', 'door', 'safety-device'] }),
      id: record.id,
      version: back.version,
      isCommit: true,
    });
    expect(again.status).toBe('submitted');
    const log = await ok<FlowLogEntry[]>(session.wb, `${M}/flowLog/${record.id}`);
    expect(log.some((e) => e.action === 'return' && e.opinion === '漏填限速器校验')).toBe(true);
  });

  it('refuses a piece outside the contract, a contract not in force, an expired licence and a long elevator interval', async () => {
    const pieces = free.slice(5, 6);
    const contract = await activeContract(pieces);
    const no = String(contract.contractNo);
    // A piece of the unit the contract does not list (the maintenance unit cannot even name it; the unit can).
    expect((await refused(session.wb, `${M}/save`, visit(contract.id, free[7].id))).code).toBe('VALIDATION_FAILED');
    const outside = await refused(session.unit, `${M}/save`, visit(contract.id, free[7].id));
    expect(outside).toMatchObject({ code: 'VALIDATION_FAILED', message: `该设备不在维保合同${no}的设备清单中`, data: { field: 'equipment' } });
    // Interval: an elevator's next visit at most 15 days after this one.
    const visitDate = addToDate(today, -1, 'd');
    const long = await refused(session.wb, `${M}/save`, visit(contract.id, pieces[0].id, { nextMaintenanceDate: addToDate(visitDate, 16, 'd') }));
    expect(long).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `电梯维保间隔不得超过15天（TSG T5002），下次维保日期最迟为${addToDate(visitDate, 15, 'd')}`,
      data: { field: 'nextMaintenanceDate' },
    });
    // A contract not yet confirmed (its equipment is not yet the maintenance unit's: the unit tries).
    const pending = await ok(session.unit, `${C}/save`, { ...contractBody(free.slice(6, 7)), isCommit: true });
    expect((await refused(session.unit, `${M}/save`, visit(pending.id, free[6].id))).message).toBe(
      `维保合同${String(pending.contractNo)}未生效（待确认、已退回或已终止），不能按其填报维保记录`,
    );
    // A contract that has ended.
    const end = await setColumn('maintenance-contract', 'endDate', contract.id, addToDate(today, -2, 'd'));
    expect(await refused(session.wb, `${M}/save`, visit(contract.id, pieces[0].id, { maintenanceDate: addToDate(today, -3, 'd') }))).toMatchObject({
      message: `维保合同${no}已于${addToDate(today, -2, 'd')}到期，请续签合同后再填报`,
      data: { field: 'contract' },
    });
    await setColumn('maintenance-contract', 'endDate', contract.id, end);
    // An expired licence: no record, no contract committed.
    const expiry = await setColumn('maintenance-unit', 'expiryDate', wbLicence.id, addToDate(today, -1, 'd'));
    try {
      expect(await refused(session.wb, `${M}/save`, visit(contract.id, pieces[0].id))).toMatchObject({
        message: `${String(wbLicence.unitName)}的维保许可证已于${addToDate(today, -1, 'd')}过期，不能承担维保工作，请更换维保单位`,
        data: { field: 'contract' },
      });
      const draft = await ok(session.unit, `${C}/save`, contractBody(free.slice(8, 9)));
      expect((await refused(session.unit, `${C}/commit/${draft.id}`)).data).toMatchObject({ field: 'maintenanceUnitId' });
    } finally {
      await setColumn('maintenance-unit', 'expiryDate', wbLicence.id, expiry);
    }
    // Within the rules it is filed.
    expect((await ok(session.wb, `${M}/save`, visit(contract.id, pieces[0].id))).status).toBe('draft');
  });

  it('terminates an active contract: its equipment leaves the maintenance unit, the contract stays its history', async () => {
    const pieces = free.slice(11, 12);
    const contract = await activeContract(pieces);
    expect((await get(session.wb, '/r/equipment', pieces[0].id)).data?.id).toBe(pieces[0].id);
    expect((await refused(session.wb, `${C}/terminate/${contract.id}`, { opinion: '到期' })).code).toBe('ACTION_NOT_PERMITTED');
    expect((await refused(session.unit, `${C}/terminate/${contract.id}`)).message).toBe('请填写审核意见');
    expect(await ok(session.unit, `${C}/terminate/${contract.id}`, { opinion: '更换维保单位' })).toMatchObject({
      status: 'terminated',
      opinion: '更换维保单位',
    });
    expect(await get(session.wb, '/r/equipment', pieces[0].id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    expect((await get(session.wb, C, contract.id)).data?.status).toBe('terminated');
    expect((await refused(session.wb, `${M}/save`, visit(contract.id, pieces[0].id))).code).toBe('VALIDATION_FAILED');
    expect((await refused(session.unit, `${M}/save`, visit(contract.id, pieces[0].id))).message).toBe(
      `维保合同${String(contract.contractNo)}未生效（待确认、已退回或已终止），不能按其填报维保记录`,
    );
  });

  it('refuses to commit a contract with a maintenance unit off the platform', async () => {
    const draft = await ok(session.unit, `${C}/save`, contractBody(free.slice(9, 10), { maintenanceUnitId: offPlatform.id }));
    expect(draft.maintenanceAccountId ?? null).toBeNull();
    expect(await refused(session.unit, `${C}/commit/${draft.id}`)).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: `${String(offPlatform.unitName)}尚未在本平台注册，无法在线确认合同；请联系该单位注册后再提交`,
      data: { field: 'maintenanceUnitId' },
    });
  });

  it("keeps each maintenance unit to its own: gcwb never reads wbadmin's, wbadmin never the unit's drafts or typed records", async () => {
    const wbContracts = await list(session.wb, C);
    const wbRecords = await list(session.wb, M);
    for (const c of wbContracts) expect(await get(session.gc, C, c.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
    for (const r of wbRecords.slice(0, 5)) {
      expect(await get(session.gc, M, r.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
      expect((await refused(session.gc, `${M}/commit/${r.id}`)).code).toBe('RECORD_NOT_FOUND');
    }
    const gcIds = new Set([...(await list(session.gc, C)), ...(await list(session.gc, M))].map((r) => r.id));
    expect([...wbContracts, ...wbRecords].some((r) => gcIds.has(r.id))).toBe(false);
    // gcwb cannot file under wbadmin's contract.
    const active = wbContracts.find((c) => c.status === 'active')!;
    const piece = ((await get(session.wb, C, active.id)).data!.equipments as Row[])[0];
    expect((await refused(session.gc, `${M}/save`, visit(active.id, String(piece.equipment)))).result).toBe('false');

    // The unit's draft contract and the records it types itself stay its own.
    const draft = await ok(session.unit, `${C}/save`, contractBody(free.slice(10, 11)));
    expect(await get(session.wb, C, draft.id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    const typed = await ok(session.unit, `${M}/save`, {
      equipment: String(piece.equipment),
      maintenanceDate: addToDate(today, -1, 'd'),
      maintenanceUnitId: offPlatform.id,
      items: ['clean'],
      maintainer: '李强',
      signature: FILE,
      nextMaintenanceDate: addToDate(today, 10, 'd'),
    });
    expect(typed).toMatchObject({ status: 'draft', maintenanceAccountId: null });
    expect(await get(session.wb, M, typed.id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
    expect((await list(session.wb, M)).some((r) => r.id === typed.id)).toBe(false);
    // Registered, it is the unit's archive; still not the maintenance unit's.
    expect((await ok(session.unit, `${M}/register/${typed.id}`, { unitConfirmer: '张伟' })).status).toBe('confirmed');
    expect(await get(session.wb, M, typed.id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
  });

  it("lets the authority read its area's contracts and records, and do nothing to them", async () => {
    const contracts = await list(session.authority, C, { status: ['submitted', 'active', 'returned', 'terminated'] });
    expect(contracts.some((c) => c.unitId === DEMO_UNITS.using.id)).toBe(true);
    expect(contracts.some((c) => c.unitId === DEMO_UNITS.second.id)).toBe(true);
    const submitted = contracts.find((c) => c.status === 'submitted')!;
    expect((await refused(session.authority, `${C}/confirm/${submitted.id}`)).code).toBe('ACTION_NOT_PERMITTED');
    const records = await list(session.authority, M, { status: 'submitted' });
    expect(records.length).toBeGreaterThan(0);
    expect((await refused(session.authority, `${M}/confirm/${records[0].id}`, { unitConfirmer: 'x' })).code).toBe('ACTION_NOT_PERMITTED');
  });
});
