/**
 * Online inspection application (在线报检) with fees and payment: the fee is the server's (one fee
 * function for the save hook, billing and getChargeInspectionFee); the commit routes the application
 * to the inspection body serving the unit's area (鄞州 → nbjy, 北仑 → zjjy) with a due date some
 * working days on; the body accepts and bills, the unit pays through the sandbox provider whose
 * HMAC-signed notification settles the order and runs the internal `pay` action in one transaction,
 * and the body's inspection result updates the equipment's dates. Replayed, forged and mismatched
 * notifications change nothing. The authority oversees: it reads, reassigns the body and notes, and
 * does none of the body's work; a body never reads another body's applications or a unit's drafts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holds } from '../../src/schema/expr';
import type { ListScreen } from '../../src/schema/types';
import { DEFAULT_SCHEMA_DIR } from '../../src/server/resources/catalog';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import type { PayOrderInfo } from '../../src/shared/payment';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { loadPaymentSecret, signPayload } from '../../src/server/domain/online-inspection/payment';
import { addWorkingDays, isWorkingDay } from '../../src/server/domain/online-inspection/workdays';
import { productWorkCalendar } from '../support/work-calendar';
import { api, appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status?: string; version: number };
type Item = Row & { equipment: string; fee: number };

const FILE = [{ name: '银行回单.pdf', url: '/files/receipt.pdf' }];
const REPORT = [{ name: '定期检验报告.pdf', url: '/files/report.pdf' }];

describe.each(dbTargets())('online inspection application with fees and payment (%s)', (target) => {
  const {
    app,
    units: [unit, other, outside],
    session,
  } = appSuite(target, {
    units: ['330212', '330203', '330303'],
    sessions: { authority: 'jgadmin', yinzhou: 'yzjg', nbjy: 'nbjy', zjjy: 'zjjy', beilun: 'bladmin' },
  });
  const { post, ok } = resourceCalls<Row>(() => app);
  const refused = async (sid: string, path: string, body: Record<string, unknown> = {}) => {
    const reply = await post(sid, path, body);
    expect(reply.body.result, path).toBe('false');
    return reply;
  };
  const equipment = (sid: string, fields: Record<string, unknown>) =>
    ok(sid, '/r/equipment/save', { equipmentName: '测试设备', useStatus: '1', locationArea: '330212', address: '宁波市鄞州区测试路1号', ...fields });
  const elevatorOf = (sid: string) =>
    equipment(sid, {
      equclacode: '3000',
      subCategory: '3100',
      equipmentName: '1号乘客电梯',
      equcode: '31103302122026000001',
      lastInspectionDate: '2025-04-01',
    });
  const boilerOf = (sid: string) => equipment(sid, { equclacode: '1000', subCategory: '1100', equipmentName: '1号蒸汽锅炉', lastInspectionDate: '2025-04-01' });

  const apply = (sid: string, equipmentIds: string[], extra: Record<string, unknown> = {}) =>
    ok(sid, '/r/online-apply/save', {
      applicant: '测试使用单位',
      contactPerson: '张三',
      contactMobile: '13805741234',
      expectedDate: addToDate(todayIn(), 14, 'd'),
      items: equipmentIds.map((id) => ({ equipment: id })),
      ...extra,
    });

  /** The body's accept: a planned inspection date and the inspectors (both asked for). */
  const ACCEPT = { scheduledDate: addToDate(todayIn(), 3, 'd'), inspectors: '王磊、陈静' };
  /** An application of `sid`'s unit (routed to nbjy), submitted, accepted and billed by the body: waiting for payment. */
  const unpaid = async (sid = unit.sid) => {
    const elevator = await elevatorOf(sid);
    const application = await apply(sid, [elevator.id], { isCommit: true });
    await ok(session.nbjy, `/r/online-apply/accept/${application.id}`, ACCEPT);
    const billed = await ok(session.nbjy, `/r/online-apply/bill/${application.id}`);
    expect(billed.status).toBe('unpaid');
    return { application: billed, elevator };
  };
  const toPay = (sid: string, id: string, channel = 'wechat') => post<PayOrderInfo>(sid, `/a/stone/appOnline/toPay/${id}/${channel}`);
  const notify = async (payload: Record<string, unknown>) => {
    const res = await app.inject({ method: 'POST', url: api('/pay/notify'), payload });
    expect(res.statusCode).toBe(200);
    return res.json<{ code: string }>().code;
  };
  const signed = async (fields: Record<string, unknown>) => ({ ...fields, sign: signPayload(await loadPaymentSecret(app.db), fields) });
  const notification = (order: PayOrderInfo, overrides: Record<string, unknown> = {}) => ({
    orderNo: order.orderNo,
    transactionId: `TEST${Date.now()}`,
    amount: order.amount.toFixed(2),
    channel: order.channel,
    paidAt: new Date().toISOString(),
    status: 'SUCCESS',
    nonce: 'n0nce',
    ...overrides,
  });
  const flowLog = async (sid: string, id: string) => (await ok<FlowLogEntry[]>(sid, `/r/online-apply/flowLog/${id}`)).map((e) => e.action);

  describe('fees', () => {
    it("are computed by the server from the unit's own equipment; fees and snapshots sent by the client are ignored", async () => {
      const elevator = await elevatorOf(unit.sid);
      const boiler = await boilerOf(unit.sid);
      const saved = await ok(unit.sid, '/r/online-apply/save', {
        applicant: '测试使用单位',
        contactPerson: '张三',
        contactMobile: '13805741234',
        expectedDate: addToDate(todayIn(), 7, 'd'),
        reliefPolicy: 'small-micro',
        feeAmount: 1,
        reliefAmount: 0,
        payableAmount: 0.01,
        items: [
          { equipment: elevator.id, fee: 1, equclacode: '9000', equipmentName: '伪造名称' },
          { equipment: boiler.id, fee: 1 },
        ],
      });
      // 电梯 3100 700 元 + 承压蒸汽锅炉 1100 1500 元 = 2200；小微企业减免 30% = 660
      expect([saved.feeAmount, saved.reliefAmount, saved.payableAmount]).toEqual([2200, 660, 1540]);
      const items = saved.items as Item[];
      expect(items.map((i) => [i.equipment, i.fee, i.equclacode, i.subCategory, i.equipmentName])).toEqual([
        [elevator.id, 700, '3000', '3100', '1号乘客电梯'],
        [boiler.id, 1500, '1000', '1100', '1号蒸汽锅炉'],
      ]);
      expect(items[0].equcode).toBe('31103302122026000001');

      // Changing only the relief policy prices the stored items again.
      const fixed = await ok(unit.sid, '/r/online-apply/save', { id: saved.id, version: saved.version, reliefPolicy: 'first-inspection' });
      expect([fixed.feeAmount, fixed.reliefAmount, fixed.payableAmount]).toEqual([2200, 200, 2000]);
      const none = await ok(unit.sid, '/r/online-apply/save', { id: saved.id, version: fixed.version, reliefPolicy: null });
      expect([none.feeAmount, none.reliefAmount, none.payableAmount]).toEqual([2200, 0, 2200]);
    });

    it('getChargeInspectionFee quotes with the same function; findChaReliefPolicys lists the policies', async () => {
      const elevator = await elevatorOf(unit.sid);
      const boiler = await boilerOf(unit.sid);
      const quote = await ok<{ items: Item[]; feeAmount: number; reliefAmount: number; payableAmount: number }>(
        unit.sid,
        '/a/stone/appOnline/getChargeInspectionFee',
        {
          equipmentIds: [elevator.id, boiler.id],
          reliefPolicy: 'small-micro',
        },
      );
      expect([quote.feeAmount, quote.reliefAmount, quote.payableAmount]).toEqual([2200, 660, 1540]);
      expect(quote.items.map((i) => [i.equipment, i.fee])).toEqual([
        [elevator.id, 700],
        [boiler.id, 1500],
      ]);

      // One row of the form's sub-table asks for its own 检验费 with its `equipment` alone (columnServerValues).
      const row = await ok<{ items: Item[]; feeAmount: number }>(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { equipment: boiler.id });
      expect(row.items.map((i) => [i.equipment, i.fee])).toEqual([[boiler.id, 1500]]);
      expect(row.feeAmount).toBe(1500);

      // By category: a tower crane (4300) has its own fee, another crane (4100) takes the category's.
      const byCategory = await call<{ feeAmount: number; items: Item[] }>(app, unit.sid, 'GET', '/a/stone/appOnline/getChargeInspectionFee', {
        equclacode: '4000',
        subCategory: '4300',
      });
      expect(byCategory.body.data!.feeAmount).toBe(1200);
      const pairs = await ok<{ items: Item[] }>(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', {
        items: [{ equclacode: '4000', subCategory: '4100' }, { equclacode: '9000' }],
      });
      expect(pairs.items.map((i) => i.fee)).toEqual([800, 5000]);

      expect((await refused(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { equclacode: '7000' })).body.message).toBe(
        '该设备种类未配置检验收费标准，请联系检验机构',
      );
      expect((await refused(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { equclacode: '3000', subCategory: '4300' })).body.message).toBe(
        '设备类别与设备种类不符',
      );

      const policies = await ok<{ code: string; percent?: number; amount?: number }[]>(unit.sid, '/a/stone/appOnline/findChaReliefPolicys');
      expect(policies.map((p) => p.code)).toEqual(['small-micro', 'first-inspection', 'public-welfare']);
      expect(policies[0].percent).toBe(30);
      expect(policies[1].amount).toBe(200);
    });

    it("the form's live quote (its item rows as they are) is what the save then stores", async () => {
      const elevator = await elevatorOf(unit.sid);
      const boiler = await boilerOf(unit.sid);
      type Quote = { items: Item[]; feeAmount: number; reliefAmount: number; payableAmount: number };
      const quoteOf = (items: Record<string, unknown>[], reliefPolicy?: string) =>
        ok<Quote>(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { items, ...(reliefPolicy ? { reliefPolicy } : {}) });
      // Rows as the form holds them while the clerk picks: a picked row, a blank row just added.
      const one = await quoteOf([{ equipment: elevator.id, equcode: null }, {}]);
      expect([one.feeAmount, one.payableAmount]).toEqual([700, 700]);
      const rows = [{ equipment: elevator.id }, { equipment: boiler.id, fee: 1 }];
      for (const policy of [undefined, 'small-micro', 'first-inspection']) {
        const quote = await quoteOf(rows, policy);
        const saved = await apply(unit.sid, [elevator.id, boiler.id], policy ? { reliefPolicy: policy } : {});
        expect([saved.feeAmount, saved.reliefAmount, saved.payableAmount], String(policy)).toEqual([quote.feeAmount, quote.reliefAmount, quote.payableAmount]);
        expect((saved.items as Item[]).map((i) => i.fee)).toEqual(quote.items.map((i) => i.fee));
      }
      expect((await quoteOf(rows, 'small-micro')).payableAmount).toBe(1540);
      // Nothing picked yet: no amount, the reason named.
      expect((await refused(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { items: [{}, { equipment: '' }] })).body.message).toBe(
        '请选择设备或设备种类',
      );
    });

    it("another unit's equipment can be neither quoted nor applied for", async () => {
      const foreign = await elevatorOf(other.sid);
      expect((await refused(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { equipmentIds: [foreign.id] })).body.message).toBe(
        '设备不存在或不属于本单位',
      );
      expect((await refused(unit.sid, '/a/stone/appOnline/getChargeInspectionFee', { equipment: foreign.id })).body.message).toBe('设备不存在或不属于本单位');
      const before = (await call<Page<Row>>(app, unit.sid, 'GET', '/r/online-apply/list', { pageSize: '100' })).body.data!.count;
      expect(
        (
          await refused(unit.sid, '/r/online-apply/save', {
            applicant: '单位',
            contactPerson: '张三',
            contactMobile: '13805741234',
            expectedDate: todayIn(),
            items: [{ equipment: foreign.id }],
          })
        ).body.message,
      ).toBe('设备不存在或不属于本单位');
      expect((await call<Page<Row>>(app, unit.sid, 'GET', '/r/online-apply/list', { pageSize: '100' })).body.data!.count).toBe(before);
    });

    it('an application needs equipment, once each, and a valid mobile number', async () => {
      const elevator = await elevatorOf(unit.sid);
      expect(
        (
          await refused(unit.sid, '/r/online-apply/save', {
            applicant: '单位',
            contactPerson: '张三',
            contactMobile: '13805741234',
            expectedDate: todayIn(),
            items: [],
          })
        ).body.message,
      ).toBe('请至少选择一台报检设备');
      expect(
        (
          await refused(unit.sid, '/r/online-apply/save', {
            applicant: '单位',
            contactPerson: '张三',
            contactMobile: '13805741234',
            expectedDate: todayIn(),
            items: [{ equipment: elevator.id }, { equipment: elevator.id }],
          })
        ).body.message,
      ).toBe('同一台设备不能重复报检');
      const badMobile = await refused(unit.sid, '/r/online-apply/save', {
        applicant: '单位',
        contactPerson: '张三',
        contactMobile: '12345',
        expectedDate: todayIn(),
        items: [{ equipment: elevator.id }],
      });
      expect(badMobile.body.message).toBe('请输入有效的手机号码');
    });
  });

  describe('the whole path', () => {
    it('save → commit (routed) → the body accepts → bills → toPay → sandbox pays → notified → paid (receipt) → inspect (equipment dates)', async () => {
      const elevator = await elevatorOf(unit.sid);
      const boiler = await boilerOf(unit.sid);
      const draft = await apply(unit.sid, [elevator.id, boiler.id], { reliefPolicy: 'small-micro' });
      expect(draft.status).toBe('draft');
      expect((await toPay(unit.sid, draft.id)).body.message).toBe('当前状态不允许此操作');

      const submitted = await ok(unit.sid, '/a/stone/appOnline/save', { ...draft, isCommit: true });
      expect(submitted.status).toBe('submitted');
      expect(submitted.inspectionUnitName).toBe('宁波市特种设备检验研究院');
      // Accepting asks for the planned date and the inspectors.
      expect((await refused(session.nbjy, `/r/online-apply/accept/${draft.id}`, { scheduledDate: ACCEPT.scheduledDate })).body.message).toBe('请填写检验人员');
      const accepted = await ok(session.nbjy, `/r/online-apply/accept/${draft.id}`, { ...ACCEPT, opinion: '资料齐全，予以受理' });
      expect([accepted.scheduledDate, accepted.inspectors]).toEqual([ACCEPT.scheduledDate, '王磊、陈静']);
      const billed = await ok(session.nbjy, `/r/online-apply/bill/${draft.id}`);
      expect([billed.status, billed.payableAmount]).toEqual(['unpaid', 1540]);

      const order = (await toPay(unit.sid, draft.id)).body.data!;
      expect(order.orderNo).toMatch(/^JY\d{14}$/);
      expect([order.amount, order.channel, order.status, order.applicationId]).toEqual([1540, 'wechat', 'open', draft.id]);
      expect(order.qrContent).toMatch(new RegExp(`^https?://[^/]+/espServer/pay/sandbox/${order.orderNo}$`));
      expect(new Date(order.expiresAt).getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
      // Idempotent: the same open order again.
      expect((await toPay(unit.sid, draft.id)).body.data!.orderNo).toBe(order.orderNo);

      // The QR code's page needs no session; confirming there makes the provider notify us.
      const page = await app.inject({ method: 'GET', url: api(`/pay/sandbox/${order.orderNo}`) });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('¥1540.00');
      expect(page.body).toContain('确认支付');
      const confirmed = await app.inject({ method: 'POST', url: api(`/pay/sandbox/${order.orderNo}/confirm`) });
      expect(confirmed.body).toContain('支付成功');

      const paid = await ok(unit.sid, `/a/stone/appOnline/detail`, { id: draft.id });
      expect(paid.status).toBe('paid');
      expect(paid.receiptNo).toMatch(new RegExp(`^SF${todayIn().slice(0, 4)}\\d{6}$`));
      expect([paid.orderNo, paid.payChannel]).toEqual([order.orderNo, 'wechat']);
      expect(paid.paidAt).toBeTruthy();
      expect(await flowLog(unit.sid, draft.id)).toEqual(['save', 'commit', 'accept', 'bill', 'pay']);
      expect((await toPay(unit.sid, draft.id)).body.message).toBe('当前状态不允许此操作');
      // Paying the same order again at the sandbox is refused there.
      expect((await app.inject({ method: 'GET', url: api(`/pay/sandbox/${order.orderNo}`) })).body).toContain('该订单已支付');

      // The inspection result: every input required, checked like a field, never in the future.
      const missing = await refused(session.nbjy, `/r/online-apply/inspect/${draft.id}`, { conclusion: '1' });
      expect(missing.body.message).toBe('请选择检验日期');
      const next = (date: string) => addToDate(date, 12, 'm');
      const badCode = await refused(session.nbjy, `/r/online-apply/inspect/${draft.id}`, {
        conclusion: '9',
        inspectionDate: todayIn(),
        nextInspectionDate: next(todayIn()),
        report: REPORT,
      });
      expect(badCode.body.message).toBe('检验结论的值不在可选范围内');
      const future = await refused(session.nbjy, `/r/online-apply/inspect/${draft.id}`, {
        conclusion: '1',
        inspectionDate: addToDate(todayIn(), 1, 'd'),
        nextInspectionDate: next(todayIn()),
        report: REPORT,
      });
      expect(future.body.message).toBe('检验日期不能晚于今天');
      const backwards = await refused(session.nbjy, `/r/online-apply/inspect/${draft.id}`, {
        conclusion: '1',
        inspectionDate: todayIn(),
        nextInspectionDate: todayIn(),
        report: REPORT,
      });
      expect(backwards.body.message).toBe('下次检验日期应晚于检验日期');
      expect((await ok(unit.sid, `/r/online-apply/get/${draft.id}`)).status).toBe('paid');

      const inspectionDate = addToDate(todayIn(), -2, 'd');
      // The body sets the next date (here sooner than the cycle: a conditional pass); its own name is the server's.
      const nextDate = addToDate(inspectionDate, 6, 'm');
      const inspected = await ok(session.nbjy, `/r/online-apply/inspect/${draft.id}`, {
        conclusion: '1',
        inspectionDate,
        nextInspectionDate: nextDate,
        inspectionBody: '单位自填的机构名',
        report: REPORT,
        opinion: '检验合格',
      });
      expect(inspected.nextInspectionDate).toBe(nextDate);
      expect([inspected.status, inspected.conclusion, inspected.inspectionDate, inspected.inspectionBody]).toEqual([
        'inspected',
        '1',
        inspectionDate,
        '宁波市特种设备检验研究院',
      ]);
      expect((inspected.report as { name: string }[])[0].name).toBe('定期检验报告.pdf');

      const elevatorAfter = await ok(unit.sid, `/r/equipment/get/${elevator.id}`);
      expect([elevatorAfter.lastInspectionDate, elevatorAfter.lastConclusion, elevatorAfter.inspectionBody]).toEqual([
        inspectionDate,
        '1',
        '宁波市特种设备检验研究院',
      ]);
      expect(elevatorAfter.nextInspectionDate).toBe(addToDate(inspectionDate, 12, 'm'));
      const boilerAfter = await ok(unit.sid, `/r/equipment/get/${boiler.id}`);
      expect(boilerAfter.nextInspectionDate).toBe(addToDate(inspectionDate, 12, 'm'));

      // Each piece's inspection history (检验记录) gains the inspection, with the report.
      const history = await ok<{ list: Row[] }>(unit.sid, '/r/inspection-record/list', { equipment: elevator.id });
      expect(history.list).toHaveLength(1);
      expect(history.list[0]).toMatchObject({
        inspectionType: 'periodic',
        inspectionDate,
        conclusion: '1',
        inspectionBody: '宁波市特种设备检验研究院',
        nextInspectionDate: nextDate,
      });
      expect((history.list[0].report as { name: string }[])[0].name).toBe('定期检验报告.pdf');
      expect((await ok<{ list: Row[] }>(unit.sid, '/r/inspection-record/list', { equipment: boiler.id })).list).toHaveLength(1);
    });

    it('the unit can revoke before acceptance, edit and submit again; not after acceptance', async () => {
      const elevator = await elevatorOf(unit.sid);
      const application = await apply(unit.sid, [elevator.id], { isCommit: true });
      const revoked = await ok(unit.sid, `/a/stone/appOnline/revocation`, { id: application.id });
      expect(revoked.status).toBe('revoked');
      const again = await ok(unit.sid, '/r/online-apply/save', { id: application.id, version: revoked.version, contactPerson: '李四', isCommit: true });
      expect(again.status).toBe('submitted');
      await ok(session.nbjy, `/r/online-apply/accept/${application.id}`, ACCEPT);
      expect((await refused(unit.sid, `/r/online-apply/revoke/${application.id}`)).body.message).toBe('当前状态不允许此操作');
    });

    it('the body returns an application with a required opinion', async () => {
      const elevator = await elevatorOf(unit.sid);
      const application = await apply(unit.sid, [elevator.id], { isCommit: true });
      expect((await refused(session.nbjy, `/r/online-apply/audit-disagree/${application.id}`)).body.message).toBe('请填写审核意见');
      const returned = await ok(session.nbjy, `/r/online-apply/audit-disagree/${application.id}`, { opinion: '请补充设备使用地点' });
      expect(returned.status).toBe('returned');
      // Returned, it is still the body's to read (the unit corrects and submits again).
      expect((await ok(session.nbjy, `/r/online-apply/get/${application.id}`)).status).toBe('returned');
    });
  });

  describe('who may do what', () => {
    it('another unit can neither see nor pay an application; a unit cannot accept, bill, inspect or run the internal pay', async () => {
      const { application } = await unpaid();
      expect((await toPay(other.sid, application.id)).body.message).toBe('记录不存在或无权访问');
      expect((await refused(other.sid, '/a/stone/appOnline/detail', { id: application.id })).body.message).toBe('记录不存在或无权访问');

      const draft = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      const accept = await post(unit.sid, `/r/online-apply/accept/${draft.id}`);
      expect([accept.status, accept.body.message]).toEqual([403, '当前角色无权执行此操作']);
      expect((await post(unit.sid, `/r/online-apply/bill/${application.id}`)).status).toBe(403);
      expect((await post(unit.sid, `/r/online-apply/confirm-payment/${application.id}`)).status).toBe(403);
      // The internal action has no route at all.
      expect((await post(unit.sid, `/r/online-apply/pay/${application.id}`)).status).toBe(404);
      // The authority oversees the row but does not pay for the unit.
      expect((await toPay(session.authority, application.id)).body.message).toBe('当前角色无权执行此操作');
      expect((await toPay(unit.sid, application.id, 'bitcoin')).body.message).toBe('不支持的支付方式');
      expect((await ok(unit.sid, `/r/online-apply/get/${application.id}`)).status).toBe('unpaid');
    });

    it('the unit cannot record an inspection result', async () => {
      const { application } = await unpaid();
      const inspect = await post(unit.sid, `/r/online-apply/inspect/${application.id}`, {
        conclusion: '1',
        inspectionDate: todayIn(),
        inspectionBody: '单位自检',
        report: REPORT,
      });
      expect(inspect.status).toBe(403);
    });
  });

  describe('payment notifications', () => {
    it('a replayed notification changes nothing: one receipt, one flow-log entry', async () => {
      const { application } = await unpaid();
      const order = (await toPay(unit.sid, application.id, 'alipay')).body.data!;
      const payload = await signed(notification(order));
      expect(await notify(payload)).toBe('SUCCESS');
      const first = await ok(unit.sid, `/r/online-apply/get/${application.id}`);
      expect([first.status, first.payChannel]).toEqual(['paid', 'alipay']);
      expect(await notify(payload)).toBe('SUCCESS');
      expect(await notify(await signed(notification(order, { transactionId: 'OTHER', nonce: 'again' })))).toBe('SUCCESS');
      const after = await ok(unit.sid, `/r/online-apply/get/${application.id}`);
      expect([after.receiptNo, after.version, after.paidAt]).toEqual([first.receiptNo, first.version, first.paidAt]);
      expect((await flowLog(unit.sid, application.id)).filter((a) => a === 'pay')).toHaveLength(1);
    });

    it('concurrent identical notifications settle once', async () => {
      const { application } = await unpaid();
      const order = (await toPay(unit.sid, application.id)).body.data!;
      const payload = await signed(notification(order));
      const codes = await Promise.all([notify(payload), notify(payload), notify(payload)]);
      expect(codes).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
      expect((await flowLog(unit.sid, application.id)).filter((a) => a === 'pay')).toHaveLength(1);
    });

    it('a forged signature, a tampered field or a wrong amount changes nothing', async () => {
      const { application } = await unpaid();
      const order = (await toPay(unit.sid, application.id)).body.data!;
      expect(await notify({ ...notification(order), sign: 'f'.repeat(64) })).toBe('FAIL');
      expect(await notify({ ...notification(order), sign: 'not-hex' })).toBe('FAIL');
      const genuine = await signed(notification(order));
      expect(await notify({ ...genuine, amount: '0.01' })).toBe('FAIL');
      expect(await notify(await signed(notification(order, { amount: (order.amount - 1).toFixed(2) })))).toBe('FAIL');
      expect(await notify(await signed(notification(order, { channel: 'unionpay' })))).toBe('FAIL');
      expect(await notify(await signed(notification(order, { orderNo: 'JY00000000000000' })))).toBe('FAIL');
      const still = await ok(unit.sid, `/r/online-apply/get/${application.id}`);
      expect([still.status, still.receiptNo, still.orderNo]).toEqual(['unpaid', null, null]);
      expect((await toPay(unit.sid, application.id)).body.data!.status).toBe('open');
      // The genuine one still settles afterwards.
      expect(await notify(genuine)).toBe('SUCCESS');
      expect((await ok(unit.sid, `/r/online-apply/get/${application.id}`)).status).toBe('paid');
    });

    it('another channel closes the open order; its late notification is refused', async () => {
      const { application } = await unpaid();
      const wechat = (await toPay(unit.sid, application.id, 'wechat')).body.data!;
      const union = (await toPay(unit.sid, application.id, 'unionpay')).body.data!;
      expect(union.orderNo).not.toBe(wechat.orderNo);
      expect(await notify(await signed(notification(wechat)))).toBe('FAIL');
      expect((await app.inject({ method: 'GET', url: api(`/pay/sandbox/${wechat.orderNo}`) })).body).toContain('订单已关闭');
      expect(await notify(await signed(notification(union)))).toBe('SUCCESS');
    });
  });

  describe('offline payment', () => {
    it('updatePayCert keeps the application unpaid with the certificate; the body confirms it → paid with a receipt; the open order is closed', async () => {
      const { application } = await unpaid();
      const order = (await toPay(unit.sid, application.id)).body.data!;
      expect((await refused(session.nbjy, `/r/online-apply/confirm-payment/${application.id}`)).body.message).toBe('申请单位尚未上传缴费凭证，不能确认缴费');
      expect((await refused(unit.sid, `/a/stone/appOnline/updatePayCert/${application.id}`, {})).body.message).toBe('请上传缴费凭证');

      const withCert = await ok(unit.sid, `/a/stone/appOnline/updatePayCert/${application.id}`, { payCertificate: FILE });
      expect(withCert.status).toBe('unpaid');
      expect(withCert.payCertificate).toEqual(FILE);
      expect((await refused(other.sid, `/a/stone/appOnline/updatePayCert/${application.id}`, { payCertificate: FILE })).body.message).toBe(
        '记录不存在或无权访问',
      );

      const confirmed = await ok(session.nbjy, `/r/online-apply/confirm-payment/${application.id}`);
      expect([confirmed.status, confirmed.payChannel]).toEqual(['paid', 'offline']);
      expect(confirmed.receiptNo).toMatch(/^SF\d{10}$/);
      // The QR code of the open order can no longer pay.
      expect(await notify(await signed(notification(order)))).toBe('FAIL');
      expect((await flowLog(unit.sid, application.id)).slice(-2)).toEqual(['update-pay-cert', 'confirm-payment']);
    });
  });

  describe('确认缴费 only with a certificate', () => {
    const auditList = JSON.parse(readFileSync(join(DEFAULT_SCHEMA_DIR, 'screens', 'body-online-apply-list.json'), 'utf8')) as ListScreen;
    const confirmWhen = (auditList.rowActions ?? []).flatMap((a) => (typeof a === 'object' && a.action === 'confirm-payment' && a.when ? [a.when] : []))[0];

    it("the body's list's row action and the server agree: offered and accepted with a certificate, neither without", async () => {
      expect(confirmWhen).toBeTruthy();
      const bare = (await unpaid()).application;
      const certified = (await unpaid()).application;
      await ok(unit.sid, `/a/stone/appOnline/updatePayCert/${certified.id}`, { payCertificate: FILE });
      // The list filter on the attachment: true keeps the rows with a file, false those without (POST body and GET query).
      const ids = async (params: Record<string, unknown>) =>
        (await ok<Page<Row>>(session.nbjy, '/r/online-apply/list', { status: ['unpaid'], pageSize: 100, ...params })).list.map((r) => r.id);
      expect(await ids({ payCertificate: true })).toContain(certified.id);
      expect(await ids({ payCertificate: true })).not.toContain(bare.id);
      expect(await ids({ payCertificate: false })).toContain(bare.id);
      expect(await ids({ payCertificate: false })).not.toContain(certified.id);
      const byQuery = await call<Page<Row>>(app, session.nbjy, 'GET', '/r/online-apply/list', {
        status: 'unpaid',
        payCertificate: 'true',
        pageSize: '100',
      });
      expect(byQuery.body.data!.list.map((r) => r.id)).toContain(certified.id);
      expect(byQuery.body.data!.list.map((r) => r.id)).not.toContain(bare.id);
      const rows = (await ok<Page<Row>>(session.nbjy, '/r/online-apply/list', { status: ['unpaid'], pageSize: 100 })).list;
      const rowOf = (id: string) => rows.find((r) => r.id === id)!;
      // The browser offers the action where the screen's condition holds on the listed row.
      expect(holds(confirmWhen, rowOf(bare.id))).toBe(false);
      expect(holds(confirmWhen, rowOf(certified.id))).toBe(true);
      expect((await refused(session.nbjy, `/r/online-apply/confirm-payment/${bare.id}`)).body.message).toBe('申请单位尚未上传缴费凭证，不能确认缴费');
      expect((await ok(session.nbjy, `/r/online-apply/get/${bare.id}`)).status).toBe('unpaid');
      expect((await ok(session.nbjy, `/r/online-apply/confirm-payment/${certified.id}`)).status).toBe('paid');
      // Confirmed, it leaves the 待确认缴费 rows.
      expect(await ids({ payCertificate: true })).not.toContain(certified.id);
    });

    it('a filter value other than true or false is refused', async () => {
      const reply = await post(session.nbjy, '/r/online-apply/list', { payCertificate: 'yes' });
      expect(reply.body.result).toBe('false');
    });
  });

  describe('lists', () => {
    it("the legacy list shows the unit its own applications only; the authority sees its area's", async () => {
      const mine = await apply(unit.sid, [(await elevatorOf(unit.sid)).id]);
      const theirs = await apply(other.sid, [(await elevatorOf(other.sid)).id], { isCommit: true });
      const ids = async (sid: string) =>
        (await call<Page<Row>>(app, sid, 'GET', '/a/stone/appOnline/list', { pageSize: '100' })).body.data!.list.map((r) => r.id);
      expect(await ids(unit.sid)).toContain(mine.id);
      expect(await ids(unit.sid)).not.toContain(theirs.id);
      expect(await ids(session.authority)).toContain(theirs.id);
    });
  });
  describe('the serving inspection body', () => {
    const notFound = async (sid: string, path: string, body: Record<string, unknown> = {}) => {
      const reply = await post(sid, path, body);
      expect([reply.body.result, reply.body.code], path).toEqual(['false', 'RECORD_NOT_FOUND']);
    };
    const beilunElevator = () =>
      ok(session.beilun, '/r/equipment/save', {
        equipmentName: '北仑1号货梯',
        useStatus: '1',
        equclacode: '3000',
        subCategory: '3200',
        locationArea: '330206',
        address: '宁波市北仑区测试路2号',
        lastInspectionDate: '2025-04-01',
      });
    const calendar = productWorkCalendar();
    /** Working days (weekends and public holidays skipped) after `from` up to and including `to`. */
    const workingDaysBetween = (from: string, to: string) => {
      let n = 0;
      for (let d = addToDate(from, 1, 'd'); d <= to; d = addToDate(d, 1, 'd')) if (isWorkingDay(d, calendar)) n++;
      return n;
    };

    it('the commit routes: a 鄞州 unit to nbjy, a 北仑 unit (bladmin) to zjjy, with a due date 5 working days on', async () => {
      const draft = await apply(unit.sid, [(await elevatorOf(unit.sid)).id]);
      expect([draft.inspectionUnitId ?? null, draft.dueDate ?? null]).toEqual([null, null]);
      const yinzhou = await ok(unit.sid, '/r/online-apply/save', { id: draft.id, version: draft.version, isCommit: true });
      expect([yinzhou.inspectionUnitId, yinzhou.inspectionUnitName, yinzhou.awaitingAssignment]).toEqual([
        DEMO_UNITS.inspection.id,
        '宁波市特种设备检验研究院',
        false,
      ]);
      const beilun = await apply(session.beilun, [(await beilunElevator()).id], { isCommit: true });
      expect([beilun.inspectionUnitId, beilun.inspectionUnitName]).toEqual([DEMO_UNITS.inspectionSecond.id, '浙江省特种设备科学研究院宁波分院']);

      // The SLA: the configured 5 working days after today, weekends and public holidays skipped, never on a day off.
      for (const row of [yinzhou, beilun]) {
        const due = String(row.dueDate);
        expect(due).toBe(addWorkingDays(todayIn(), 5, calendar));
        expect(workingDaysBetween(todayIn(), due)).toBe(5);
        expect(isWorkingDay(due, calendar)).toBe(true);
        expect(due > addToDate(todayIn(), 4, 'd')).toBe(true);
      }
    });

    it("nbjy never reads zjjy's application, nor zjjy nbjy's: RECORD_NOT_FOUND on get, list and action", async () => {
      const beilun = await apply(session.beilun, [(await beilunElevator()).id], { isCommit: true });
      const yinzhou = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      await notFound(session.nbjy, `/r/online-apply/get/${beilun.id}`);
      await notFound(session.nbjy, `/r/online-apply/accept/${beilun.id}`, ACCEPT);
      await notFound(session.zjjy, `/r/online-apply/get/${yinzhou.id}`);
      await notFound(session.zjjy, `/r/online-apply/audit-disagree/${yinzhou.id}`, { opinion: '不属本院' });
      const listed = async (sid: string) => (await ok<Page<Row>>(sid, '/r/online-apply/list', { status: ['submitted'], pageSize: 100 })).list.map((r) => r.id);
      expect(await listed(session.nbjy)).toContain(yinzhou.id);
      expect(await listed(session.nbjy)).not.toContain(beilun.id);
      expect(await listed(session.zjjy)).toContain(beilun.id);
      expect(await listed(session.zjjy)).not.toContain(yinzhou.id);
      // Its own it reads and works; still the unit's application.
      expect((await ok(session.zjjy, `/r/online-apply/accept/${beilun.id}`, ACCEPT)).status).toBe('accepted');
      expect((await ok(session.beilun, `/r/online-apply/get/${beilun.id}`)).status).toBe('accepted');
    });

    it('neither body reads a draft or an application the unit revoked; a body never saves one', async () => {
      const draft = await apply(unit.sid, [(await elevatorOf(unit.sid)).id]);
      const revoked = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      expect(revoked.inspectionUnitId).toBe(DEMO_UNITS.inspection.id);
      await ok(unit.sid, `/r/online-apply/revoke/${revoked.id}`);
      for (const sid of [session.nbjy, session.zjjy]) {
        await notFound(sid, `/r/online-apply/get/${draft.id}`);
        await notFound(sid, `/r/online-apply/get/${revoked.id}`);
      }
      const submitted = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      const save = await post(session.nbjy, '/r/online-apply/save', { id: submitted.id, version: submitted.version, remarks: '检验机构改写' });
      expect(save.body.result).toBe('false');
      expect((await ok(unit.sid, `/r/online-apply/get/${submitted.id}`)).remarks ?? null).toBeNull();
    });

    it('no rule routes it (a unit of 温州 330303, outside the table): no body, 待分派; neither body sees it', async () => {
      const equipmentId = (await equipment(outside.sid, { equclacode: '3000', subCategory: '3100', locationArea: '330212' })).id;
      const application = await apply(outside.sid, [equipmentId], { isCommit: true });
      expect([application.status, application.inspectionUnitId ?? null, application.awaitingAssignment]).toEqual(['submitted', null, true]);
      await notFound(session.nbjy, `/r/online-apply/get/${application.id}`);
      await notFound(session.zjjy, `/r/online-apply/get/${application.id}`);
    });

    it("the authority cannot do the body's work any more; it reassigns, then the new body sees it and the old does not", async () => {
      const application = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      for (const [action, body] of [
        ['accept', ACCEPT],
        ['audit-disagree', { opinion: '退回' }],
        ['bill', {}],
      ] as const) {
        const reply = await post(session.authority, `/r/online-apply/${action}/${application.id}`, body);
        expect([reply.status, reply.body.code], action).toEqual([403, 'ACTION_NOT_PERMITTED']);
      }
      // It reads every step of its area's applications (but a draft).
      expect((await ok(session.authority, `/r/online-apply/get/${application.id}`)).status).toBe('submitted');
      const draft = await apply(unit.sid, [(await elevatorOf(unit.sid)).id]);
      await notFound(session.authority, `/r/online-apply/get/${draft.id}`);

      // Reassign: an opinion, a registered inspection body other than the current one.
      const path = `/r/online-apply/reassign/${application.id}`;
      expect((await refused(session.authority, path, { reassignTo: DEMO_UNITS.inspectionSecond.id })).body.message).toBe('请填写审核意见');
      expect((await refused(session.authority, path, { reassignTo: DEMO_UNITS.using.id, opinion: '改派' })).body.message).toBe(
        '所选检验机构不存在或不是检验机构',
      );
      expect((await refused(session.authority, path, { reassignTo: DEMO_UNITS.inspection.id, opinion: '改派' })).body.message).toBe(
        '该申请已由所选检验机构承检，无需改派',
      );
      const reply = await post(unit.sid, path, { reassignTo: DEMO_UNITS.inspectionSecond.id, opinion: '改派' });
      expect(reply.status).toBe(403);
      const moved = await ok(session.authority, path, { reassignTo: DEMO_UNITS.inspectionSecond.id, opinion: '本院任务饱和，改由分院承检' });
      expect([moved.status, moved.inspectionUnitId, moved.inspectionUnitName, moved.reassignTo ?? null]).toEqual([
        'submitted',
        DEMO_UNITS.inspectionSecond.id,
        '浙江省特种设备科学研究院宁波分院',
        null,
      ]);
      await notFound(session.nbjy, `/r/online-apply/get/${application.id}`);
      await notFound(session.nbjy, `/r/online-apply/accept/${application.id}`, ACCEPT);
      expect((await ok(session.zjjy, `/r/online-apply/accept/${application.id}`, ACCEPT)).status).toBe('accepted');
      // The supervision note goes to the flow log, which the body reads too.
      await ok(session.authority, `/r/online-apply/supervise/${application.id}`, { opinion: '请按计划日期检验' });
      expect(await flowLog(session.zjjy, application.id)).toEqual(['save', 'commit', 'reassign', 'accept', 'supervise']);
    });

    it('a resubmission keeps the body last assigned: routed to nbjy, 改派 to zjjy, returned, submitted again → zjjy', async () => {
      const application = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      expect(application.inspectionUnitId).toBe(DEMO_UNITS.inspection.id);
      await ok(session.authority, `/r/online-apply/reassign/${application.id}`, { reassignTo: DEMO_UNITS.inspectionSecond.id, opinion: '改由分院承检' });
      const returned = await ok(session.zjjy, `/r/online-apply/audit-disagree/${application.id}`, { opinion: '请补充联系人' });
      expect(returned.status).toBe('returned');
      const again = await ok(unit.sid, '/r/online-apply/save', { id: returned.id, version: returned.version, contactPerson: '李四', isCommit: true });
      expect([again.status, again.inspectionUnitId, again.inspectionUnitName, again.awaitingAssignment]).toEqual([
        'submitted',
        DEMO_UNITS.inspectionSecond.id,
        '浙江省特种设备科学研究院宁波分院',
        false,
      ]);
      expect(again.dueDate).toBe(addWorkingDays(todayIn(), 5, productWorkCalendar()));
      await notFound(session.nbjy, `/r/online-apply/get/${application.id}`);
      expect((await ok(session.zjjy, `/r/online-apply/accept/${application.id}`, ACCEPT)).status).toBe('accepted');
    });

    it('a district authority (鄞州, where no body is registered) picks among every registered body and reassigns to one', async () => {
      const picker = await ok<Page<Row>>(session.yinzhou, '/r/inspection-body/list', { pageSize: 100 });
      const offered = picker.list.map((r) => r.id);
      expect(offered).toEqual(expect.arrayContaining([DEMO_UNITS.inspection.id, DEMO_UNITS.inspectionSecond.id]));
      expect(offered).not.toContain(DEMO_UNITS.using.id);
      // A body registered outside 鄞州 (zjjy: 北仑, nbjy: the city) is accepted as the picker offers it.
      const application = await apply(unit.sid, [(await elevatorOf(unit.sid)).id], { isCommit: true });
      const path = `/r/online-apply/reassign/${application.id}`;
      expect((await ok(session.yinzhou, path, { reassignTo: DEMO_UNITS.inspectionSecond.id, opinion: '改由分院承检' })).inspectionUnitId).toBe(
        DEMO_UNITS.inspectionSecond.id,
      );
      const back = await ok(session.yinzhou, path, { reassignTo: DEMO_UNITS.inspection.id, opinion: '改回市院承检' });
      expect([back.inspectionUnitId, back.inspectionUnitName]).toEqual([DEMO_UNITS.inspection.id, '宁波市特种设备检验研究院']);
      // A unit that is not an inspection body is neither offered nor accepted.
      expect((await refused(session.yinzhou, path, { reassignTo: DEMO_UNITS.using.id, opinion: '改派' })).body.message).toBe(
        '所选检验机构不存在或不是检验机构',
      );
      // Only the authority's screens read the list.
      expect((await post(unit.sid, '/r/inspection-body/list', {})).body.result).toBe('false');
    });

    it('reassign ends once the result is recorded; the authority still reads the inspected application', async () => {
      const { application } = await unpaid();
      await ok(unit.sid, `/a/stone/appOnline/updatePayCert/${application.id}`, { payCertificate: FILE });
      await ok(session.nbjy, `/r/online-apply/confirm-payment/${application.id}`);
      const date = addToDate(todayIn(), -1, 'd');
      await ok(session.nbjy, `/r/online-apply/inspect/${application.id}`, {
        conclusion: '1',
        inspectionDate: date,
        nextInspectionDate: addToDate(date, 12, 'm'),
        report: REPORT,
      });
      expect(
        (await refused(session.authority, `/r/online-apply/reassign/${application.id}`, { reassignTo: DEMO_UNITS.inspectionSecond.id, opinion: '改派' })).body
          .message,
      ).toBe('当前状态不允许此操作');
      expect((await ok(session.authority, `/r/online-apply/get/${application.id}`)).status).toBe('inspected');
      expect((await ok(session.nbjy, `/r/online-apply/get/${application.id}`)).inspectionBody).toBe('宁波市特种设备检验研究院');
    });
  });
});
