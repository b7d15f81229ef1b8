/**
 * Change of using unit (变更使用单位; use-change-apply changeType `unit`): the receiving
 * unit must be another using unit of the platform; on commit it gets an incoming transfer
 * (use-transfer-receipt) it accepts or refuses; the authority's approval is refused until it
 * accepted, and then moves the equipment (unit, area, new place) and its use registration to the
 * receiver in one transaction. Tried with the two demo units nbadmin (宁波甬江) → bladmin (北仑港城).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { useRegistrationFeature } from '../../src/server/domain/use-registration/index';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const FILE = [{ name: '变更登记表.pdf', url: '/files/change.pdf' }];
const CHANGE = '/r/use-change-apply';
const RECEIPT = '/r/use-transfer-receipt';

describe.each(dbTargets())('change of using unit (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin', otherSub: 'blsub' } });
  const { post, ok } = resourceCalls<Row>(() => app);

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 3, features: [equipmentFeature, useRegistrationFeature] });
  });

  const get = async (sid: string, path: string, id: string) => (await call<Row>(app, sid, 'GET', `${path}/get/${id}`)).body;
  /** A new elevator of nbadmin's, registered for use (an approved use registration holding it alone). */
  const registeredElevator = async (name: string) => {
    const piece = await ok(session.unit, '/r/equipment/save', {
      equclacode: '3000',
      subCategory: '3100',
      equipmentName: name,
      useStatus: '0',
      locationArea: '330212',
      address: '宁波市鄞州区测试路1号',
    });
    const registration = await ok(session.unit, '/r/use-regist-apply/save', {
      registMode: 'regBySets',
      useUnitName: '宁波甬江特种设备使用有限公司',
      contactPerson: '张伟',
      contactMobile: '13805740001',
      useStartDate: '2026-11-01',
      locationArea: '330212',
      applyForm: FILE,
      items: [{ equipment: piece.id }],
      isCommit: true,
    });
    await ok(session.authority, `/r/use-regist-apply/accept/${registration.id}`);
    const approved = await ok(session.authority, `/r/use-regist-apply/audit-agree/${registration.id}`);
    return { piece: { ...piece, useCertNo: approved.certNo }, registration: approved };
  };
  const transfer = (equipment: string[], extra: Record<string, unknown> = {}) => ({
    changeType: 'unit',
    useUnitName: '宁波甬江特种设备使用有限公司',
    newUseUnitName: '北仑港城',
    newUseUnitCreditCode: DEMO_UNITS.second.orgcode,
    newLocationArea: '330206',
    newAddress: '宁波市北仑区明州路88号2号仓库',
    effectiveDate: '2026-12-01',
    reason: '设备整体转让',
    contactPerson: '张伟',
    contactMobile: '13805740001',
    applyForm: FILE,
    items: equipment.map((id) => ({ equipment: id })),
    ...extra,
  });
  const receiptOf = async (applyNo: unknown) => (await ok<Page<Row>>(session.other, `${RECEIPT}/list`, { applyNo })).list;

  it('seeds one transfer in progress: 北仑港城 sees it waiting, the authority cannot approve it yet', async () => {
    const incoming = await ok<Page<Row>>(session.other, `${RECEIPT}/list`, { status: 'pending' });
    expect(incoming.list).toHaveLength(1);
    expect(incoming.list[0]).toMatchObject({ fromUnitName: '宁波甬江特种设备使用有限公司', fromUnitCreditCode: DEMO_UNITS.using.orgcode, equipmentCount: 1 });
    const application = (await ok<Page<Row>>(session.unit, `${CHANGE}/list`, { changeType: 'unit' })).list[0];
    expect(application).toMatchObject({
      status: 'submitted',
      receiverStatus: 'pending',
      newUseUnitName: DEMO_UNITS.second.orgname,
      applyNo: incoming.list[0].applyNo,
    });
    await ok(session.authority, `${CHANGE}/accept/${application.id}`);
    expect((await post(session.authority, `${CHANGE}/audit-agree/${application.id}`)).body).toMatchObject({
      result: 'false',
      message: '接收单位尚未确认接收，不能审核通过',
    });
    // The sending unit does not see the receipt; the authority neither.
    expect((await ok<Page<Row>>(session.unit, `${RECEIPT}/list`)).count).toBe(0);
    expect((await post(session.authority, `${RECEIPT}/list`)).status).toBe(403);
  });

  it('refuses a receiving unit that is not registered, not a using unit, or the applicant itself', async () => {
    const { piece } = await registeredElevator('转让校验电梯');
    const refused = async (code: string, message: string) => {
      const { body } = await post(session.unit, `${CHANGE}/save`, transfer([piece.id], { newUseUnitCreditCode: code }));
      expect(body).toMatchObject({ result: 'false', message, data: { field: 'newUseUnitCreditCode' } });
    };
    await refused(makeUscc('91', '330206', 'MA2YYYY9'), '接收单位未在平台注册，请核对变更后单位统一社会信用代码');
    await refused(DEMO_UNITS.authority.orgcode, '接收单位须为使用单位');
    await refused(DEMO_UNITS.using.orgcode, '接收单位不能是本单位');
    // Committing a draft checks it again (a unit may have left the platform since).
    const draft = await ok(session.unit, `${CHANGE}/save`, transfer([piece.id]));
    await app.db
      .updateTable('use_change_apply' as never)
      .set({ new_use_unit_credit_code: makeUscc('91', '330206', 'MA2YYYY9') } as never)
      .where('id' as never, '=', draft.id as never)
      .execute();
    expect((await post(session.unit, `${CHANGE}/commit/${draft.id}`)).body.message).toBe('接收单位未在平台注册，请核对变更后单位统一社会信用代码');
    expect((await get(session.unit, CHANGE, draft.id)).data!.status).toBe('draft');
    // The receiving unit's registered name is kept, whatever was typed.
    const saved = await ok(session.unit, `${CHANGE}/save`, transfer([piece.id]));
    expect(saved).toMatchObject({ newUseUnitName: DEMO_UNITS.second.orgname, receiverUnitId: DEMO_UNITS.second.id, receiverStatus: null });
  });

  it('moves the equipment and its use registration once the receiving unit accepted and the authority approves', async () => {
    const { piece, registration } = await registeredElevator('转让电梯');
    const application = await ok(session.unit, `${CHANGE}/save`, { ...transfer([piece.id]), isCommit: true });
    expect(application.receiverStatus).toBe('pending');
    const [receipt] = await receiptOf(application.applyNo);
    expect(receipt).toMatchObject({ status: 'pending', equipmentCount: 1, newAddress: '宁波市北仑区明州路88号2号仓库' });
    expect(String(receipt.equipmentList)).toContain(String(piece.useCertNo));
    // Only the receiving unit answers; nobody writes a receipt by hand.
    expect((await post(session.unit, `${RECEIPT}/accept/${receipt.id}`)).body.message).toBe('记录不存在或无权访问');
    expect((await post(session.other, `${RECEIPT}/save`, { id: receipt.id, reason: '改' })).body.result).toBe('false');
    expect((await post(session.other, `${RECEIPT}/save`, { applyNo: 'X' })).body.result).toBe('false');

    await ok(session.authority, `${CHANGE}/accept/${application.id}`);
    expect((await post(session.authority, `${CHANGE}/audit-agree/${application.id}`)).body.message).toBe('接收单位尚未确认接收，不能审核通过');
    // The sub-account of the receiving unit may answer (使用单位经办人: 自助服务).
    expect((await ok(session.otherSub, `${RECEIPT}/accept/${receipt.id}`, { opinion: '同意接收' })).status).toBe('accepted');
    expect((await get(session.unit, CHANGE, application.id)).data).toMatchObject({ receiverStatus: 'accepted', receiverOpinion: '同意接收' });
    expect((await get(session.unit, '/r/equipment', piece.id)).data!.unitId).toBe(DEMO_UNITS.using.id);

    const approved = await ok(session.authority, `${CHANGE}/audit-agree/${application.id}`, { opinion: '准予变更' });
    expect(approved.status).toBe('approved');
    // Now the receiver's: its registry and its use registration, not the sender's any more.
    expect((await get(session.unit, '/r/equipment', piece.id)).result).toBe('false');
    const moved = (await get(session.other, '/r/equipment', piece.id)).data!;
    expect(moved).toMatchObject({
      unitId: DEMO_UNITS.second.id,
      areaCode: '330206',
      locationArea: '330206',
      address: '宁波市北仑区明州路88号2号仓库',
      useStatus: '1',
      useCertNo: piece.useCertNo,
    });
    expect((await get(session.unit, '/r/use-regist-apply', registration.id)).result).toBe('false');
    expect((await get(session.other, '/r/use-regist-apply', registration.id)).data).toMatchObject({
      useUnitName: DEMO_UNITS.second.orgname,
      useUnitCreditCode: DEMO_UNITS.second.orgcode,
      certNo: piece.useCertNo,
    });
    // The application stays the sender's record.
    expect((await get(session.unit, CHANGE, application.id)).data!.status).toBe('approved');
  });

  it('a refusal (opinion required) blocks the approval; the returned application withdraws nothing twice and opens a new receipt when filed again', async () => {
    const { piece } = await registeredElevator('拒收电梯');
    const application = await ok(session.unit, `${CHANGE}/save`, { ...transfer([piece.id]), isCommit: true });
    const [receipt] = await receiptOf(application.applyNo);
    expect((await post(session.other, `${RECEIPT}/refuse/${receipt.id}`)).body.message).toBe('请填写审核意见');
    expect((await ok(session.other, `${RECEIPT}/refuse/${receipt.id}`, { opinion: '仓库容量不足，不予接收' })).status).toBe('refused');
    expect((await get(session.unit, CHANGE, application.id)).data).toMatchObject({ receiverStatus: 'refused', receiverOpinion: '仓库容量不足，不予接收' });
    await ok(session.authority, `${CHANGE}/accept/${application.id}`);
    expect((await post(session.authority, `${CHANGE}/audit-agree/${application.id}`)).body.message).toBe('接收单位已拒绝接收，请退回该申请');
    expect((await ok(session.authority, `${CHANGE}/audit-disagree/${application.id}`, { opinion: '接收单位拒收' })).status).toBe('returned');
    expect((await get(session.unit, CHANGE, application.id)).data!.receiverStatus).toBe('refused');
    // Filed again: a new receipt waits, the refused one stays as it was.
    const current = (await get(session.unit, CHANGE, application.id)).data!;
    expect((await ok(session.unit, `${CHANGE}/commit/${application.id}`, { version: current.version })).receiverStatus).toBe('pending');
    const receipts = await receiptOf(application.applyNo);
    expect(receipts.map((r) => r.status).sort()).toEqual(['pending', 'refused']);
    // Withdrawn by the sender: the receiver can no longer accept it.
    expect((await ok(session.unit, `${CHANGE}/revoke/${application.id}`)).receiverStatus).toBe('withdrawn');
    const reopened = receipts.find((r) => r.status === 'pending')!;
    expect((await get(session.other, RECEIPT, reopened.id)).data!.status).toBe('withdrawn');
    expect((await post(session.other, `${RECEIPT}/accept/${reopened.id}`)).body.result).toBe('false');
    const log = (await ok<FlowLogEntry[]>(session.other, `${RECEIPT}/flowLog/${reopened.id}`)).map((e) => e.action);
    expect(log).toEqual(['save', 'withdraw']);
    expect((await get(session.unit, '/r/equipment', piece.id)).data!.unitId).toBe(DEMO_UNITS.using.id);
  });

  it('moves all the pieces or none: a piece no longer the applicant’s undoes the whole approval', async () => {
    const first = await registeredElevator('整体转让电梯一');
    const second = await registeredElevator('整体转让电梯二');
    const application = await ok(session.unit, `${CHANGE}/save`, { ...transfer([first.piece.id, second.piece.id]), isCommit: true });
    const [receipt] = await receiptOf(application.applyNo);
    expect(receipt.equipmentCount).toBe(2);
    await ok(session.other, `${RECEIPT}/accept/${receipt.id}`);
    await ok(session.authority, `${CHANGE}/accept/${application.id}`);
    // Meanwhile the second piece went elsewhere (written directly, as another process might have).
    await app.db
      .updateTable('equipment' as never)
      .set({ unit_id: DEMO_UNITS.authority.id } as never)
      .where('id' as never, '=', second.piece.id as never)
      .execute();
    expect((await post(session.authority, `${CHANGE}/audit-agree/${application.id}`)).body.message).toBe('设备不属于申请单位，不能转移');
    expect((await get(session.unit, CHANGE, application.id)).data!.status).toBe('accepted');
    expect((await get(session.unit, '/r/equipment', first.piece.id)).data).toMatchObject({ unitId: DEMO_UNITS.using.id, areaCode: '330212' });
    expect((await get(session.unit, '/r/use-regist-apply', first.registration.id)).data!.useUnitName).toBe('宁波甬江特种设备使用有限公司');
  });
});
