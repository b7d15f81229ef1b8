/**
 * Invoices, interactions and price applications (wing self-service): each unit sees its own rows
 * only, the authority of the area does what its workflow names (issues or returns an invoice,
 * replies to and closes a message, approves or returns a price application), the server copies an
 * invoice's amount from the paid application and refuses an unpaid or already invoiced one, and the
 * validation messages are Chinese.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { onlineInspectionFeature } from '../../src/server/domain/online-inspection/index';
import { selfServiceFeature } from '../../src/server/domain/self-service/index';
import { serviceRecordsFeature } from '../../src/server/domain/service-records/index';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const PDF = [{ name: '电子发票.pdf', url: '/files/invoice.pdf' }];

describe.each(dbTargets())('invoices, interactions and price applications (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, {
      equipment: 90,
      secondEquipment: 40,
      features: [equipmentFeature, onlineInspectionFeature, serviceRecordsFeature, selfServiceFeature],
    });
  }, 240_000);

  const list = (sid: string, resource: string, params: Record<string, unknown> = {}) => ok<Page<Row>>(sid, `/r/${resource}/list`, { pageSize: 100, ...params });
  const get = async (sid: string, resource: string, id: string) => (await call<Row>(app, sid, 'GET', `/r/${resource}/get/${id}`)).body;
  /** The unit's paid applications that no invoice names yet. */
  const uninvoiced = async (sid: string) => {
    const invoiced = new Set((await list(sid, 'invoice')).list.map((r) => r.onlineApply));
    const paid = (await list(sid, 'online-apply', { status: ['paid', 'inspected'] })).list;
    return paid.filter((a) => !invoiced.has(a.id) && Number(a.payableAmount) > 0);
  };

  it('seeds every state for both units and keeps them apart', async () => {
    expect(seeded).toMatchObject({ invoices: 5, interactions: 7, priceApplications: 5 });
    const mine = await list(session.unit, 'invoice');
    expect(new Set(mine.list.map((r) => r.status))).toEqual(new Set(['requested', 'returned', 'issued']));
    expect(mine.list.every((r) => /^KP\d{10}$/.test(String(r.requestNo)) && Number(r.amount) > 0)).toBe(true);
    expect((await uninvoiced(session.unit)).length).toBeGreaterThan(0);
    const messages = await list(session.unit, 'interaction');
    expect(new Set(messages.list.map((r) => r.status))).toEqual(new Set(['pending', 'replied', 'closed']));
    const prices = await list(session.unit, 'price-apply');
    expect(new Set(prices.list.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'approved', 'returned']));
    for (const resource of ['invoice', 'interaction', 'price-apply']) {
      const theirs = (await list(session.other, resource)).list;
      const ours = (await list(session.unit, resource)).list;
      expect(theirs.length, resource).toBeGreaterThan(0);
      expect(
        theirs.some((r) => ours.some((m) => m.id === r.id)),
        resource,
      ).toBe(false);
      // bladmin cannot read, change or move nbadmin's rows.
      const row = ours[0];
      expect((await get(session.other, resource, row.id)).message).toBe('记录不存在或无权访问');
      expect((await post(session.other, `/r/${resource}/save`, { id: row.id, version: row.version })).body.result).toBe('false');
      expect((await post(session.other, `/r/${resource}/delete/${row.id}`)).body.result).toBe('false');
    }
  });

  it('requests an invoice for a paid application: amount copied, 专用发票 needs its fields, one per payment', async () => {
    const [paid] = await uninvoiced(session.unit);
    // The amount comes from the application, whatever the request says; title and tax number from the unit.
    const normal = await ok(session.unit, '/r/invoice/save', { onlineApply: paid.id, invoiceType: 'normal', amount: 1 });
    expect(normal).toMatchObject({
      status: 'requested',
      applyNo: paid.applyNo,
      amount: paid.payableAmount,
      invoiceTitle: '宁波甬江特种设备使用有限公司',
      taxNo: '91330212MA2CL8F54L',
    });
    // One invoice per payment.
    expect((await post(session.unit, '/r/invoice/save', { onlineApply: paid.id })).body.message).toBe('该报检申请已申请开票，不能重复申请');
    // 专用发票: bank, account, address and phone, each checked.
    const special = { id: normal.id, version: normal.version, onlineApply: paid.id, invoiceType: 'special' };
    expect((await post(session.unit, '/r/invoice/save', special)).body.message).toBe('请填写开户银行');
    const full = {
      ...special,
      bankName: '中国银行宁波分行',
      bankAccount: '3901110009000123456',
      regAddress: '宁波市鄞州区天童南路588号',
      regPhone: '0574-87654321',
    };
    expect((await post(session.unit, '/r/invoice/save', { ...full, bankAccount: '39011-ABC' })).body.message).toBe('银行账号只能是数字');
    expect((await post(session.unit, '/r/invoice/save', { ...full, regPhone: '12345' })).body.message).toBe('请输入有效的手机号或者座机号');
    expect((await post(session.unit, '/r/invoice/save', { ...full, taxNo: '123' })).body.message).toBe('请输入有效的纳税人识别号（统一社会信用代码）');
    expect((await post(session.unit, '/r/invoice/save', { ...full, receiveEmail: 'not-mail' })).body.message).toBe('请输入正确邮箱格式');
    const saved = await ok(session.unit, '/r/invoice/save', full);
    expect(saved).toMatchObject({ invoiceType: 'special', bankName: '中国银行宁波分行' });

    // An application not yet paid, and another unit's, are refused.
    const unpaid = (await list(session.unit, 'online-apply', { status: ['submitted', 'accepted', 'unpaid'] })).list[0];
    expect((await post(session.unit, '/r/invoice/save', { onlineApply: unpaid.id })).body.message).toBe('该报检申请尚未缴费，不能申请开票');
    const theirs = (await list(session.other, 'online-apply', { status: ['paid', 'inspected'] })).list[0];
    expect((await post(session.unit, '/r/invoice/save', { onlineApply: theirs.id })).body.message).toBe('报检申请不存在或不属于本单位');
    expect((await post(session.unit, '/r/invoice/save', {})).body.message).toBe('请选择报检申请');
  });

  it('lets the authority issue with number, date and PDF, or return with an opinion; the unit requests again', async () => {
    // Withdrawing a request (撤销申请) frees its payment for a new one.
    const pending = (await list(session.unit, 'invoice', { status: 'requested' })).list[0];
    expect((await post(session.unit, `/r/invoice/delete/${pending.id}`)).body.result).toBe('true');
    const [paid] = await uninvoiced(session.unit);
    expect(paid.id).toBe(pending.onlineApply);
    const request = await ok(session.unit, '/r/invoice/save', { onlineApply: paid.id });
    // The unit cannot issue its own invoice; the authority needs every input and a reason to return.
    expect((await post(session.unit, `/r/invoice/issue/${request.id}`, { invoiceNo: '1', invoiceDate: today, invoiceFile: PDF })).body.message).toBe(
      '当前角色无权执行此操作',
    );
    expect((await post(session.authority, `/r/invoice/issue/${request.id}`, { invoiceDate: today, invoiceFile: PDF })).body.message).toBe('请填写发票号码');
    expect(
      (await post(session.authority, `/r/invoice/issue/${request.id}`, { invoiceNo: '2633', invoiceDate: addToDate(today, 1, 'd'), invoiceFile: PDF })).body
        .message,
    ).toBe('开票日期不能晚于今天');
    expect((await post(session.authority, `/r/invoice/audit-disagree/${request.id}`)).body.message).toBe('请填写审核意见');
    expect((await ok(session.authority, `/r/invoice/audit-disagree/${request.id}`, { opinion: '请核对发票抬头' })).status).toBe('returned');
    const flow = await ok<FlowLogEntry[]>(session.unit, `/r/invoice/flowLog/${request.id}`);
    expect(flow.at(-1)).toMatchObject({ action: 'audit-disagree', opinion: '请核对发票抬头' });
    expect((await ok(session.unit, `/r/invoice/commit/${request.id}`)).status).toBe('requested');
    // The authority's list opens on the waiting requests of its area, the second unit's among them.
    const waiting = (await list(session.authority, 'invoice', { status: 'requested' })).list;
    expect(waiting.some((r) => r.id === request.id)).toBe(true);
    expect(new Set(waiting.map((r) => r.applicant)).size).toBeGreaterThan(1);
    const issued = await ok(session.authority, `/r/invoice/issue/${request.id}`, { invoiceNo: '26332000000000001234', invoiceDate: today, invoiceFile: PDF });
    expect(issued).toMatchObject({ status: 'issued', invoiceNo: '26332000000000001234', invoiceDate: today });
    const seen = (await get(session.unit, 'invoice', request.id)).data!;
    expect((seen.invoiceFile as { name: string }[])[0].name).toBe('电子发票.pdf');
    // An issued invoice is neither edited nor withdrawn.
    expect((await post(session.unit, '/r/invoice/save', { id: request.id, version: seen.version, onlineApply: paid.id })).body.message).toBe(
      '当前状态不允许此操作',
    );
    expect((await post(session.unit, `/r/invoice/delete/${request.id}`)).body.message).toBe('当前状态不允许此操作');
  });

  it('carries a message: the authority sees it unread, replies, the unit follows up, either closes', async () => {
    expect((await post(session.unit, '/r/interaction/save', { category: 'policy', content: '内容' })).body.message).toBe('请填写主题');
    expect((await post(session.unit, '/r/interaction/save', { subject: '主题', category: 'x', content: '内容' })).body.result).toBe('false');
    const asked = await ok(session.unit, '/r/interaction/save', { subject: '压力容器年度检查', category: 'policy', content: '年度检查可否由本单位自行开展？' });
    expect(asked).toMatchObject({ status: 'pending', unitName: '宁波甬江特种设备使用有限公司', turns: 0 });
    // Unread for the authority until it opens it; the other unit never sees it.
    expect((await list(session.authority, 'interaction', { unread: true })).list.some((r) => r.id === asked.id)).toBe(true);
    expect((await list(session.other, 'interaction')).list.some((r) => r.id === asked.id)).toBe(false);
    // The list marks the rows the user has not opened.
    expect((await list(session.authority, 'interaction')).list.find((r) => r.id === asked.id)?._unread).toBe(true);
    expect((await get(session.authority, 'interaction', asked.id)).result).toBe('true');
    expect((await list(session.authority, 'interaction')).list.find((r) => r.id === asked.id)?._unread).toBe(false);
    expect((await list(session.authority, 'interaction', { unread: true })).list.some((r) => r.id === asked.id)).toBe(false);
    // Only the authority replies, with a reply; the unit cannot answer itself, bladmin cannot touch it.
    expect((await post(session.unit, `/r/interaction/answer/${asked.id}`, { reply: '可以' })).body.message).toBe('当前角色无权执行此操作');
    expect((await post(session.authority, `/r/interaction/answer/${asked.id}`, {})).body.message).toBe('请填写回复内容');
    expect((await post(session.other, `/r/interaction/follow-up/${asked.id}`, { followUp: 'x' })).body.message).toBe('记录不存在或无权访问');
    const replied = await ok(session.authority, `/r/interaction/answer/${asked.id}`, { reply: '使用单位可自行开展年度检查，并保存检查记录。' });
    expect(replied).toMatchObject({ status: 'replied', turns: 1, reply: '使用单位可自行开展年度检查，并保存检查记录。' });
    expect(String(replied.repliedAt)).not.toBe('');
    expect(String(replied.thread)).toContain('留言】年度检查可否由本单位自行开展？');
    expect(String(replied.thread)).toContain('回复】使用单位可自行开展年度检查');
    // The unit sees the reply, as unread; answered, the message is no longer edited.
    expect((await list(session.unit, 'interaction', { unread: true })).list.some((r) => r.id === asked.id)).toBe(true);
    const shown = (await get(session.unit, 'interaction', asked.id)).data!;
    expect(shown.reply).toBe('使用单位可自行开展年度检查，并保存检查记录。');
    expect(
      (await post(session.unit, '/r/interaction/save', { id: asked.id, version: shown.version, subject: '改', category: 'policy', content: '改' })).body.result,
    ).toBe('false');
    // A follow-up waits for a reply again and is unread for the authority once more.
    expect((await post(session.unit, `/r/interaction/follow-up/${asked.id}`, {})).body.message).toBe('请填写追问内容');
    const followed = await ok(session.unit, `/r/interaction/follow-up/${asked.id}`, { followUp: '检查记录需保存几年？' });
    expect(followed).toMatchObject({ status: 'pending', turns: 2 });
    expect(String(followed.thread)).toContain('追问】检查记录需保存几年？');
    expect((await list(session.authority, 'interaction', { unread: true })).list.some((r) => r.id === asked.id)).toBe(true);
    await ok(session.authority, `/r/interaction/answer/${asked.id}`, { reply: '至少保存至设备报废。' });
    expect((await ok(session.authority, `/r/interaction/close/${asked.id}`, { opinion: '已答复' })).status).toBe('closed');
    for (const [sid, action, body] of [
      [session.unit, 'follow-up', { followUp: '再问' }],
      [session.authority, 'answer', { reply: '再答' }],
      [session.unit, 'close', {}],
    ] as const) {
      expect((await post(sid, `/r/interaction/${action}/${asked.id}`, body)).body.message, action).toBe('当前状态不允许此操作');
    }
  });

  it('files a price application: items and basis needed to submit, the authority approves or returns', async () => {
    const draft = await ok(session.unit, '/r/price-apply/save', {
      title: '2027年度电梯维保收费',
      serviceType: 'maintenance',
      effectiveDate: addToDate(today, 30, 'd'),
    });
    expect(draft).toMatchObject({ status: 'draft', applicant: '宁波甬江特种设备使用有限公司' });
    expect((await post(session.unit, `/r/price-apply/commit/${draft.id}`)).body.message).toBe('请至少添加一项收费项目');
    expect(
      (await post(session.unit, '/r/price-apply/save', { title: 'x', serviceType: 'maintenance', effectiveDate: addToDate(today, -1, 'd') })).body.message,
    ).toBe('执行日期不能早于今天');
    expect(
      (
        await post(session.unit, '/r/price-apply/save', {
          title: 'x',
          serviceType: 'maintenance',
          effectiveDate: addToDate(today, 5, 'd'),
          expireDate: addToDate(today, 1, 'd'),
        })
      ).body.message,
    ).toBe('有效期至不能早于执行日期');
    const item = { itemName: '乘客电梯半月维保', equclacode: '3000', priceUnit: '台·年', price: 4800 };
    expect(
      (
        await post(session.unit, '/r/price-apply/save', {
          id: draft.id,
          version: draft.version,
          title: draft.title,
          serviceType: 'maintenance',
          effectiveDate: draft.effectiveDate,
          items: [{ ...item, price: 0 }],
        })
      ).body.message,
    ).toBe('单价（元）不能小于0.01');
    const filled = await ok(session.unit, '/r/price-apply/save', {
      id: draft.id,
      version: draft.version,
      title: draft.title,
      serviceType: 'maintenance',
      effectiveDate: draft.effectiveDate,
      items: [item, { ...item, itemName: '载货电梯半月维保', price: 4200 }],
      basis: '按人工与备件成本测算',
      isCommit: true,
    });
    expect(filled.status).toBe('submitted');
    expect((await post(session.unit, `/r/price-apply/audit-agree/${draft.id}`)).body.message).toBe('当前角色无权执行此操作');
    expect((await post(session.authority, `/r/price-apply/audit-disagree/${draft.id}`)).body.message).toBe('请填写审核意见');
    expect((await ok(session.authority, `/r/price-apply/audit-disagree/${draft.id}`, { opinion: '请补充测算材料' })).status).toBe('returned');
    expect((await ok(session.unit, `/r/price-apply/commit/${draft.id}`)).status).toBe('submitted');
    expect((await ok(session.authority, `/r/price-apply/audit-agree/${draft.id}`, { opinion: '同意备案' })).status).toBe('approved');
    // The authority never sees a unit's drafts.
    const audited = (await list(session.authority, 'price-apply')).list;
    expect(audited.some((r) => r.status === 'draft')).toBe(false);
    const other = (await list(session.unit, 'price-apply', { status: 'draft' })).list[0];
    expect((await get(session.authority, 'price-apply', other.id)).result).toBe('false');
  });
});
