/**
 * Inspection fees and payment (registered in the API scope after the resource engine, which it
 * acts through):
 *
 *   GET|POST /a/stone/appOnline/getChargeInspectionFee   per-item fee and total: `equipmentIds` (the
 *            unit's own equipment; array or comma list) or `items` [{ equipment } | { equclacode,
 *            subCategory }] (the application form's rows as they are; blank rows are skipped), or
 *            one `equipment` (a form row's own fee) or `equclacode` / `subCategory`; optional
 *            `reliefPolicy`. Read-only: the form asks it live as equipment is picked (the save and
 *            the billing price with the same function)
 *   GET|POST /a/stone/appOnline/findChaReliefPolicys     the relief policies offered
 *   POST     /a/stone/appOnline/toPay/:id/:channel       the open order of an unpaid application of
 *            the caller's unit on channel wechat | alipay | unionpay (same order while it is open)
 *
 * and the sandbox provider, public (no session; the provider is not a user):
 *
 *   GET  /pay/sandbox/:orderNo           the cashier page the QR code opens (order, amount, 确认支付)
 *   POST /pay/sandbox/:orderNo/confirm   the customer pays: the provider sends its signed notification
 *   POST /pay/notify                      the provider's notification: answers { code: SUCCESS | FAIL }
 *
 * The unit's offline payment certificate is the workflow action update-pay-cert of the resource
 * (legacy /a/stone/appOnline/updatePayCert/:id).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { PAY_CHANNEL_LABELS, PAY_CHANNELS, PAYMENT_API, type PayChannel } from '../../../shared/payment';
import { isId } from '../../db/ids';
import { AppError } from '../../errors';
import type { CompiledResource } from '../../resources/records';
import { findRow } from '../../resources/repository';
import { actorOf, ownsRow, visibleRows } from '../../resources/scope';
import { EQUIPMENT_ERRORS } from '../equipment/errors';
import { INSPECTION_ERRORS } from './errors';
import { fenOf, quoteFees, reliefPolicies, type FeeSubject } from './fees';
import { ONLINE_APPLY } from './hooks';
import {
  findOrder,
  loadPaymentSecret,
  openOrder,
  orderInfo,
  providerNotification,
  sandboxRefusal,
  settleNotification,
  type PayOrderRow,
  type SandboxRefusal,
} from './payment';
import { envelopeOf, failureResponses } from '../../../shared/wire';

const TAGS = ['payment'];
/** Most equipment one fee request may price. */
const MAX_ITEMS = 500;

type Input = Record<string, unknown>;
const asObject = (value: unknown): Input => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Input) : {});
const inputOf = (request: FastifyRequest): Input => ({ ...asObject(request.query), ...asObject(request.body) });

/** A list parameter as an array: a JSON array, repeated query keys, or a comma-separated string. */
function listOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return value === undefined || value === null ? [] : [value];
}

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(body);

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const REFUSALS: Record<SandboxRefusal, string> = {
  'order-not-found': '订单不存在',
  'order-paid': '该订单已支付，无需重复支付',
  'order-closed': '订单已关闭，请返回缴费页面重新获取二维码',
  'order-expired': '订单已过期，请返回缴费页面重新获取二维码',
};

/** The sandbox cashier page (plain HTML: it is the provider's page, not the portal's). */
function cashierPage(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f5f5;margin:0;padding:32px 16px;color:#262626}
.card{max-width:420px;margin:0 auto;background:#fff;border-radius:8px;padding:24px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:18px;margin:0 0 4px}.sub{color:#8c8c8c;font-size:13px;margin-bottom:20px}.amount{font-size:32px;font-weight:600;color:#fa541c;margin:16px 0}
dl{display:grid;grid-template-columns:88px 1fr;gap:8px;font-size:14px;margin:0 0 20px}dt{color:#8c8c8c}dd{margin:0;word-break:break-all}
button{width:100%;height:44px;border:0;border-radius:6px;background:#1677ff;color:#fff;font-size:16px;cursor:pointer}.note{color:#8c8c8c;font-size:12px;margin-top:16px}
.ok{color:#52c41a;font-size:20px;font-weight:600}.fail{color:#ff4d4f;font-size:18px;font-weight:600}</style></head>
<body><div class="card">${body}<p class="note">支付沙箱：仅用于演示与测试，不会发生真实扣款。</p></div></body></html>`;
}

function orderFacts(order: PayOrderRow): string {
  return `<dl><dt>订单号</dt><dd>${escapeHtml(order.order_no)}</dd><dt>支付方式</dt><dd>${escapeHtml(PAY_CHANNEL_LABELS[order.channel as PayChannel] ?? order.channel)}</dd><dt>有效期至</dt><dd>${escapeHtml(order.expires_at.toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false }))}</dd></dl>`;
}

/** The compiled online-apply resource (routes are registered after the resource engine). */
function onlineApply(app: FastifyInstance): CompiledResource {
  const compiled = app.resources.get(ONLINE_APPLY);
  if (!compiled) throw new Error(`resource '${ONLINE_APPLY}' is not loaded`);
  return compiled;
}

const paymentRoutes: FastifyPluginAsync = async (app) => {
  const secret = await loadPaymentSecret(app.db);
  const apiBase = app.config.apiBase;
  // Who may quote fees and pay: those who may use the applications (the rbac plugin checks it first).
  // A schema set without the resource (a test fixture) leaves the routes to fail in their handlers.
  const config = { accessAny: app.resources.get(ONLINE_APPLY)?.model.access ?? [] };

  // --- fees -----------------------------------------------------------------------------------

  const reliefOptions = {
    config,
    schema: { summary: 'Relief policies of the inspection fee (findChaReliefPolicys)', tags: TAGS, response: failureResponses },
    handler: async (_request: FastifyRequest, reply: FastifyReply) => {
      return reply.ok(reliefPolicies(onlineApply(app).runtime.dicts));
    },
  };
  app.route({ ...reliefOptions, method: ['GET', 'POST'], url: PAYMENT_API.reliefPolicies });

  const feeOptions = {
    config,
    schema: { summary: 'Inspection fee of equipment (getChargeInspectionFee): per item and total, after relief', tags: TAGS, response: failureResponses },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const compiled = onlineApply(app);
      const actor = actorOf(request);
      const input = inputOf(request);
      const ids = listOf(input.equipmentIds ?? input.ids);
      // One row of the form's sub-table (its 检验费 cell asks for its own equipment).
      if (typeof input.equipment === 'string' && input.equipment !== '') ids.push(input.equipment);
      // `items` as the form holds them: a row naming a piece of equipment is priced as that
      // equipment (as the save does), a row naming a category by the category, a blank row not at all.
      const pairs: Input[] = [];
      for (const row of listOf(input.items).map(asObject)) {
        if (row.equipment !== undefined && row.equipment !== null && row.equipment !== '') ids.push(row.equipment);
        else if (row.equclacode !== undefined && row.equclacode !== null && row.equclacode !== '') pairs.push(row);
      }
      if (input.equclacode !== undefined) pairs.push({ equclacode: input.equclacode, subCategory: input.subCategory });
      if (ids.length + pairs.length === 0) throw new AppError(INSPECTION_ERRORS.FEE_NOTHING_CHOSEN);
      if (ids.length + pairs.length > MAX_ITEMS)
        throw new AppError(INSPECTION_ERRORS.FEE_TOO_MANY_ITEMS, `一次最多计算 ${MAX_ITEMS} 台设备的检验费`, { max: MAX_ITEMS });
      const equipmentModel = compiled.runtime.models.get('equipment');
      if (!equipmentModel) throw new Error("resource 'equipment' is not loaded");
      const subjects: (FeeSubject & { equipment?: string; equipmentName?: unknown })[] = [];
      for (const id of ids) {
        const row = isId(id) ? await findRow(app.db, equipmentModel, id, visibleRows(equipmentModel, actor)) : undefined;
        if (!row) throw new AppError(EQUIPMENT_ERRORS.EQUIPMENT_NOT_FOUND);
        subjects.push({ equipment: String(id), equipmentName: row.equipmentName, equclacode: row.equclacode, subCategory: row.subCategory });
      }
      for (const pair of pairs) subjects.push({ equclacode: pair.equclacode, subCategory: pair.subCategory });
      const quote = quoteFees(compiled.runtime.dicts, subjects, input.reliefPolicy);
      const items = quote.items.map((line, i) => ({
        ...(subjects[i].equipment ? { equipment: subjects[i].equipment, equipmentName: subjects[i].equipmentName ?? null } : {}),
        ...line,
      }));
      return reply.ok({ ...quote, items });
    },
  };
  app.route({ ...feeOptions, method: ['GET', 'POST'], url: PAYMENT_API.chargeInspectionFee });

  // --- toPay ----------------------------------------------------------------------------------

  app.post(
    '/a/stone/appOnline/toPay/:id/:channel',
    {
      config,
      schema: {
        summary:
          'The payment order of an unpaid application of the own unit (toPay/{application id}/{wechat|alipay|unionpay}); the same open order until it expires',
        tags: TAGS,
        params: {
          type: 'object',
          properties: { id: { type: 'string', maxLength: 64 }, channel: { type: 'string', maxLength: 20 } },
          required: ['id', 'channel'],
        },
        response: { 200: envelopeOf({ type: 'object', additionalProperties: true }), ...failureResponses },
      },
    },
    async (request, reply) => {
      const compiled = onlineApply(app);
      const { model } = compiled;
      const actor = actorOf(request);
      const { id, channel } = request.params as { id: string; channel: string };
      if (!(PAY_CHANNELS as readonly string[]).includes(channel)) throw new AppError(INSPECTION_ERRORS.PAY_CHANNEL_INVALID);
      if (!isId(id)) throw new AppError('RECORD_NOT_FOUND');
      const order = await app.db.transaction().execute(async (trx) => {
        // The application row lock serialises toPay per application.
        const row = await findRow(trx, model, id, visibleRows(model, actor), true);
        if (!row) throw new AppError('RECORD_NOT_FOUND');
        if (!ownsRow(model, actor, row)) throw new AppError('ACTION_NOT_PERMITTED');
        if (row.status !== 'unpaid') throw new AppError('WRONG_STATE');
        const amountFen = fenOf(row.payableAmount) ?? 0;
        if (amountFen <= 0) throw new AppError(INSPECTION_ERRORS.PAY_AMOUNT_ZERO);
        return openOrder(trx, {
          bizType: ONLINE_APPLY,
          bizId: id,
          unitId: actor.unitId,
          areaCode: String(row.areaCode ?? actor.areaCode),
          amountFen,
          channel: channel as PayChannel,
          userId: actor.userId,
        });
      });
      const qrContent = `${request.protocol}://${request.host}${apiBase}${PAYMENT_API.sandbox(order.order_no)}`;
      return reply.ok(orderInfo(order, qrContent));
    },
  );

  // --- the sandbox provider (public) ------------------------------------------------------------

  app.get(
    '/pay/sandbox/:orderNo',
    { config: { public: true }, schema: { summary: 'Sandbox cashier page (what the QR code opens)', tags: TAGS } },
    async (request, reply) => {
      const { orderNo } = request.params as { orderNo: string };
      const order = await findOrder(app.db, orderNo);
      const refusal = sandboxRefusal(order);
      if (refusal || !order)
        return html(
          reply,
          refusal === 'order-not-found' ? 404 : 200,
          cashierPage('支付沙箱', `<h1>支付沙箱</h1><p class="fail">${REFUSALS[refusal ?? 'order-not-found']}</p>`),
        );
      const action = `${apiBase}${PAYMENT_API.sandbox(order.order_no)}/confirm`;
      return html(
        reply,
        200,
        cashierPage(
          '支付沙箱 - 确认支付',
          `<h1>特种设备检验费</h1><div class="sub">收款方：宁波市特种设备检验机构（沙箱）</div><div class="amount">¥${(order.amount_fen / 100).toFixed(2)}</div>${orderFacts(order)}<form method="post" action="${escapeHtml(action)}"><button type="submit">确认支付</button></form>`,
        ),
      );
    },
  );

  app.post(
    '/pay/sandbox/:orderNo/confirm',
    { config: { public: true }, schema: { summary: 'Sandbox: the customer pays; the provider sends its signed notification', tags: TAGS } },
    async (request, reply) => {
      const { orderNo } = request.params as { orderNo: string };
      const order = await findOrder(app.db, orderNo);
      const refusal = sandboxRefusal(order);
      if (refusal || !order) return html(reply, 200, cashierPage('支付沙箱', `<h1>支付沙箱</h1><p class="fail">${REFUSALS[refusal ?? 'order-not-found']}</p>`));
      // The provider calls the merchant's notification address, as it would over the network.
      const notification = providerNotification(secret, order);
      const answer = await app.inject({ method: 'POST', url: `${apiBase}${PAYMENT_API.notify}`, payload: notification });
      const paid = answer.statusCode === 200 && answer.json<{ code?: string }>().code === 'SUCCESS';
      return html(
        reply,
        200,
        cashierPage(
          paid ? '支付成功' : '支付失败',
          paid
            ? `<h1>支付沙箱</h1><p class="ok">支付成功</p><div class="amount">¥${notification.amount}</div>${orderFacts(order)}<p>交易流水号：${escapeHtml(notification.transactionId)}</p><p>请返回缴费页面查看缴费结果。</p>`
            : `<h1>支付沙箱</h1><p class="fail">支付失败，商户未确认本次支付</p>`,
        ),
      );
    },
  );

  app.post(
    '/pay/notify',
    { config: { public: true }, schema: { summary: 'Payment provider notification (HMAC-SHA256 signed); answers { code: SUCCESS | FAIL }', tags: TAGS } },
    async (request, reply) => {
      const result = await settleNotification(app.db, secret, request.body, new Map([[ONLINE_APPLY, { resource: onlineApply(app), action: 'pay' }]]));
      if (result.ok) {
        if (result.replay) request.log.info({ orderNo: result.orderNo }, 'payment notification replayed: already settled');
        else request.log.info({ orderNo: result.orderNo }, 'payment settled');
        return reply.send({ code: 'SUCCESS', message: '成功' });
      }
      request.log.warn({ orderNo: result.orderNo, reason: result.reason, detail: result.detail }, 'payment notification refused');
      return reply.send({ code: 'FAIL', message: result.reason });
    },
  );
};

export default paymentRoutes;
