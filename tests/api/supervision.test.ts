/**
 * Supervision orders (监督整改: 整改通知 correctQuery/correctDetail, 责令改正指令书 demandNoteManage,
 * 监督检查隐患 supervisionCheckHiddenDanger): the authority drafts an order naming a unit of
 * its area by credit code and issues it (下发), the order becomes the unit's; the unit answers with a
 * description, a completion date and evidence (all required), the authority returns it with a
 * required opinion or verifies it (销号). A unit sees only its own orders and answers only in the
 * right state; another city's authority can neither issue to nor see this area's units.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { supervisionFeature } from '../../src/server/domain/supervision/index';
import { appSuite, call, dbTargets, downloadFile, resourceCalls, uploadFile } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number; orderNo: string; useUnitName: string; category: string };

const R = '/r/supervision-order';
const EVIDENCE = [{ name: '整改后照片.jpg', url: '/files/after.jpg' }];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');

describe.each(dbTargets())('supervision orders (%s)', (target) => {
  // farUnit: a using unit of 杭州 (outside 宁波's authority); farAuthority: 杭州's authority.
  const {
    app,
    session,
    units: [farUnit, farAuthority],
  } = appSuite(target, { units: ['330106', ['330106', 'authority']], sessions: { unit: 'nbadmin', sub: 'nbsub', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 12, secondEquipment: 6, features: [equipmentFeature, supervisionFeature] });
  });

  /** A complete order to the demo unit (宁波甬江), due in 15 days. */
  const body = (extra: Record<string, unknown> = {}) => ({
    category: 'correct',
    targetCreditCode: DEMO_UNITS.using.orgcode,
    problem: '电梯安全管理员未持证上岗',
    requirement: '安排持证人员担任安全管理员',
    deadline: addToDate(today, 15, 'd'),
    inspector: '陈静',
    ...extra,
  });
  const get = async (sid: string, id: string) => (await call<Row>(app, sid, 'GET', `${R}/get/${id}`)).body;
  const issue = async (extra: Record<string, unknown> = {}) => ok(session.authority, `${R}/save`, { ...body(extra), isCommit: true });
  const reply = (sid: string, id: string, extra: Record<string, unknown> = {}) =>
    post(sid, `${R}/reply/${id}`, { rectifyMeasures: '已安排持证人员上岗，证书复印件见附件', rectifyFinishDate: today, evidence: EVIDENCE, ...extra });
  const flow = async (sid: string, id: string) => (await ok<FlowLogEntry[]>(sid, `${R}/flowLog/${id}`)).map((e) => [e.action, e.toState, e.opinion]);
  const list = async (sid: string, params: Record<string, unknown> = {}) => (await ok<Page<Row>>(sid, `${R}/list`, { pageSize: 200, ...params })).list;

  it('has demo orders of all three kinds for both units, in every state the unit meets', async () => {
    expect(seeded.supervisionOrders).toBe(21);
    const mine = await list(session.unit);
    expect(new Set(mine.map((r) => r.category))).toEqual(new Set(['correct', 'demand', 'check']));
    expect(new Set(mine.map((r) => r.status))).toEqual(new Set(['issued', 'submitted', 'returned', 'closed', 'cancelled']));
    expect(mine.every((r) => r.useUnitName === DEMO_UNITS.using.orgname && /^ZG\d{9}$/.test(r.orderNo))).toBe(true);
    // Overdue and due-soon orders still waiting for an answer.
    const waiting = mine.filter((r) => r.status === 'issued');
    expect(waiting.some((r) => String(r.deadline) < today)).toBe(true);
    expect(waiting.some((r) => String(r.deadline) >= today && String(r.deadline) <= addToDate(today, 7, 'd'))).toBe(true);
    // A returned order carries the authority's opinion.
    const returned = mine.find((r) => r.status === 'returned')!;
    expect((await flow(session.unit, returned.id)).at(-1)).toEqual(['audit-disagree', 'returned', '反馈材料中缺少3台压力容器的定期检验报告，请补充后重新反馈']);
    // The list of one kind (the screens' `where`).
    expect((await list(session.unit, { category: 'check' })).every((r) => r.category === 'check')).toBe(true);

    const theirs = await list(session.other);
    expect(theirs.length).toBe(4);
    expect(theirs.every((r) => r.useUnitName === DEMO_UNITS.second.orgname)).toBe(true);
    // The authority sees both units' orders and its own draft.
    const all = await list(session.authority);
    expect(all.length).toBe(21);
    expect(all.filter((r) => r.status === 'draft').length).toBe(1);
  });

  it('is issued by the authority, answered with evidence by the unit, returned with an opinion, answered again and verified', async () => {
    const draft = await ok(session.authority, `${R}/save`, body({ category: 'demand', basis: '《中华人民共和国特种设备安全法》第十四条' }));
    expect(draft).toMatchObject({ status: 'draft', useUnitName: DEMO_UNITS.using.orgname, issuingAuthority: DEMO_UNITS.authority.orgname });
    // Not the unit's until issued.
    expect((await get(session.unit, draft.id)).message).toBe('记录不存在或无权访问');
    const issued = await ok(session.authority, `${R}/commit/${draft.id}`);
    expect(issued).toMatchObject({ status: 'issued', issueDate: today });
    expect((await get(session.unit, draft.id)).data!.status).toBe('issued');

    // The answer needs its description, completion date and evidence.
    expect((await reply(session.unit, draft.id, { evidence: [] })).body).toMatchObject({ result: 'false', message: '请上传整改证明材料' });
    expect((await reply(session.unit, draft.id, { rectifyMeasures: '' })).body).toMatchObject({ result: 'false', message: '请填写整改情况说明' });
    expect((await reply(session.unit, draft.id, { rectifyFinishDate: addToDate(today, 1, 'd') })).body.result).toBe('false');
    expect((await get(session.unit, draft.id)).data!.status).toBe('issued');
    const answered = (await reply(session.unit, draft.id)).body;
    expect(answered.result, answered.message).toBe('true');
    expect(answered.data).toMatchObject({ status: 'submitted', replyDate: today, evidence: EVIDENCE });

    // Returning needs an opinion; the unit answers again (the sub-account may too).
    expect((await post(session.authority, `${R}/audit-disagree/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请填写审核意见' });
    expect((await ok(session.authority, `${R}/audit-disagree/${draft.id}`, { opinion: '请补充整改后的现场照片' })).status).toBe('returned');
    expect((await reply(session.sub, draft.id, { rectifyMeasures: '已补充现场照片' })).body.data).toMatchObject({
      status: 'submitted',
      rectifyMeasures: '已补充现场照片',
    });
    const closed = await ok(session.authority, `${R}/accept/${draft.id}`, { opinion: '整改到位，予以销号' });
    expect(closed).toMatchObject({ status: 'closed', verifyDate: today });
    expect(await flow(session.unit, draft.id)).toEqual([
      ['save', 'draft', null],
      ['commit', 'issued', null],
      ['reply', 'submitted', null],
      ['audit-disagree', 'returned', '请补充整改后的现场照片'],
      ['reply', 'submitted', null],
      ['accept', 'closed', '整改到位，予以销号'],
    ]);
  });

  it('refuses an answer or a verification in the wrong state, with a Chinese message', async () => {
    const order = await issue();
    // Not answered yet: nothing to verify or return.
    expect((await post(session.authority, `${R}/accept/${order.id}`)).body).toMatchObject({ result: 'false', message: '当前状态不允许此操作' });
    expect((await post(session.authority, `${R}/audit-disagree/${order.id}`, { opinion: '不合格' })).body.message).toBe('当前状态不允许此操作');
    expect((await reply(session.unit, order.id)).body.result).toBe('true');
    // Answered: it waits for the authority, the unit cannot answer again, nor can it be withdrawn.
    expect((await reply(session.unit, order.id)).body).toMatchObject({ result: 'false', message: '当前状态不允许此操作' });
    expect((await post(session.authority, `${R}/cancel/${order.id}`, { opinion: '撤销' })).body.message).toBe('当前状态不允许此操作');
    await ok(session.authority, `${R}/accept/${order.id}`);
    expect((await reply(session.unit, order.id)).body.message).toBe('当前状态不允许此操作');
    // An issued order is no longer edited or deleted.
    const current = (await get(session.authority, order.id)).data!;
    expect((await post(session.authority, `${R}/save`, { ...body({ problem: '改' }), id: order.id, version: current.version })).body.message).toBe(
      '当前状态不允许此操作',
    );
    expect((await post(session.authority, `${R}/delete/${order.id}`)).body.message).toBe('当前状态不允许此操作');
    // A withdrawn order cannot be answered.
    const withdrawn = await issue();
    expect((await post(session.authority, `${R}/cancel/${withdrawn.id}`)).body.message).toBe('请填写审核意见');
    expect((await ok(session.authority, `${R}/cancel/${withdrawn.id}`, { opinion: '误发' })).status).toBe('cancelled');
    expect((await reply(session.unit, withdrawn.id)).body.message).toBe('当前状态不允许此操作');
  });

  it('keeps each unit to its own orders, and the roles to their own actions', async () => {
    const mine = await issue();
    const theirs = await issue({ targetCreditCode: DEMO_UNITS.second.orgcode });
    expect(theirs.useUnitName).toBe(DEMO_UNITS.second.orgname);
    for (const [sid, id] of [
      [session.other, mine.id],
      [session.unit, theirs.id],
    ] as const) {
      expect((await get(sid, id)).message).toBe('记录不存在或无权访问');
      expect((await reply(sid, id)).body.message).toBe('记录不存在或无权访问');
      expect((await post(sid, `${R}/flowLog/${id}`)).body.result).toBe('false');
      expect((await list(sid)).some((r) => r.id === id)).toBe(false);
    }
    // A unit neither drafts, issues nor verifies; the authority does not answer for the unit.
    expect((await post(session.unit, `${R}/save`, body())).body.message).toBe('当前角色无权执行此操作');
    expect((await post(session.unit, `${R}/accept/${mine.id}`)).body.message).toBe('当前角色无权执行此操作');
    expect((await reply(session.authority, mine.id)).body.message).toBe('当前角色无权执行此操作');
    expect((await get(session.unit, mine.id)).data!.status).toBe('issued');
  });

  it('issues only to units of the authority’s area, and another area’s authority sees none of them', async () => {
    const { orgcode: farCode } = await app.db.selectFrom('sys_unit').select(['orgcode']).where('id', '=', farUnit.unitId).executeTakeFirstOrThrow();
    const outside = await post(session.authority, `${R}/save`, body({ targetCreditCode: farCode }));
    expect(outside.body).toMatchObject({ result: 'false', message: '该使用单位不在本机构辖区内，不能对其下发整改文书', data: { field: 'targetCreditCode' } });
    const unknown = await post(session.authority, `${R}/save`, body({ targetCreditCode: makeUscc('91', '330212', 'MA2B7777') }));
    expect(unknown.body).toMatchObject({ result: 'false', message: '未找到该统一社会信用代码对应的单位，请核对' });
    expect((await post(session.authority, `${R}/save`, body({ targetCreditCode: 'ABC' }))).body.message).toBe('请输入有效的统一社会信用代码');
    // 杭州's authority may issue to its own unit, not to 宁波's, and sees none of 宁波's orders.
    expect((await post(farAuthority.sid, `${R}/save`, body())).body.message).toBe('该使用单位不在本机构辖区内，不能对其下发整改文书');
    const own = await ok(farAuthority.sid, `${R}/save`, { ...body({ targetCreditCode: farCode }), isCommit: true });
    expect(own.status).toBe('issued');
    expect((await list(farAuthority.sid)).map((r) => r.id)).toEqual([own.id]);
    expect((await list(session.authority)).some((r) => r.id === own.id)).toBe(false);
    expect((await list(farUnit.sid)).map((r) => r.id)).toEqual([own.id]);
    const ningbo = (await list(session.unit))[0];
    expect((await get(farAuthority.sid, ningbo.id)).message).toBe('记录不存在或无权访问');
  });

  it('names equipment of the unit’s registry only, and checks the dates', async () => {
    const piece = (await ok<Page<Row>>(session.unit, '/r/equipment/list', { pageSize: 1, useStatus: '1' })).list[0];
    const order = await ok(session.authority, `${R}/save`, body({ equcode: piece.equcode }));
    expect(order.equipmentName).toBe(piece.equipmentName);
    const foreign = (await ok<Page<Row>>(session.other, '/r/equipment/list', { pageSize: 1 })).list[0];
    expect((await post(session.authority, `${R}/save`, body({ equcode: foreign.equcode }))).body.message).toBe('该使用单位的设备台账中没有此设备代码');
    // A check finding needs its date and level; a demand note its legal basis.
    expect((await post(session.authority, `${R}/save`, body({ category: 'check', dangerLevel: 'major' }))).body.message).toBe('请选择检查日期');
    expect((await post(session.authority, `${R}/save`, body({ category: 'demand' }))).body.message).toBe('请填写依据条款');
    expect((await post(session.authority, `${R}/save`, body({ deadline: addToDate(today, -1, 'd') }))).body.result).toBe('false');
    // A draft whose deadline has passed since it was saved is not issued.
    await app.db
      .updateTable('supervision_order' as never)
      .set({ deadline: addToDate(today, -1, 'd') } as never)
      .where('id' as never, '=', order.id as never)
      .execute();
    expect((await post(session.authority, `${R}/commit/${order.id}`)).body.message).toBe('整改期限已过，请修改整改期限后再下发');
    expect((await get(session.authority, order.id)).data!.status).toBe('draft');
    // The completion date may not precede the issue date.
    const issued = await issue();
    await app.db
      .updateTable('supervision_order' as never)
      .set({ issue_date: today } as never)
      .where('id' as never, '=', issued.id as never)
      .execute();
    expect((await reply(session.unit, issued.id, { rectifyFinishDate: addToDate(today, -3, 'd') })).body.message).toBe('整改完成日期不能早于下发日期');
  });

  it('lets the unit read the order’s file and the authority the unit’s evidence', async () => {
    const upload = (sid: string, name: string) => uploadFile(app, sid, name, PDF);
    const download = (sid: string, id: string) => downloadFile(app, sid, id);
    const notice = await upload(session.authority, '整改通知书.pdf');
    const order = await issue({ noticeFile: [notice] });
    expect((await download(session.unit, notice.id)).statusCode).toBe(200);
    expect((await download(session.other, notice.id)).statusCode).toBe(404);
    const proof = await upload(session.unit, '整改报告.pdf');
    expect((await reply(session.unit, order.id, { evidence: [proof] })).body.result).toBe('true');
    expect((await download(session.authority, proof.id)).statusCode).toBe(200);
    expect((await download(session.other, proof.id)).statusCode).toBe(404);
  });
});
