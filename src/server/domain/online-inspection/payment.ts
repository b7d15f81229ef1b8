/**
 * Payments through the sandbox provider (a QR code, a callback, a signed
 * notification). Real-shaped, local:
 *
 * - an order (`pay_order`, amounts in fen) is opened for a business record by toPay: one open
 *   order per record, returned again while it is open and unexpired on the same channel (a request
 *   for another channel, or after expiry, closes it and opens a new one);
 * - the QR code encodes the provider's cashier page for the order; there the customer "pays", and
 *   the provider sends the merchant a notification signed with HMAC-SHA256 over the canonical
 *   payload (fields sorted by key, `k=v` joined by `&`, `sign` excluded) with the shared secret;
 * - the notification handler verifies the signature (timing-safe), the order state and the
 *   amount, then marks the order paid and runs the record's internal payment action in ONE
 *   transaction. A replayed notification changes nothing and is answered with success again; a
 *   forged, mismatched or late one changes nothing and is answered with failure (and logged).
 *
 * The secret is generated on first start and kept in `sys_config` (like the SSO secret): never in
 * the repository, shared by every server process over the same database.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type ColumnType, type Kysely } from 'kysely';
import { todayIn } from '../../../shared/dates';
import type { PayChannel, PayNotification, PayOrderInfo } from '../../../shared/payment';
import type { Db } from '../../db/index';
import { newId, stableId } from '../../db/ids';
import { isAppError } from '../../errors';
import { nextSequence } from '../../resources/hooks';
import type { CompiledResource } from '../../resources/records';
import { runAction } from '../../resources/record-actions';
import type { AnyDb } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { fenOf, yuanText } from './fees';
import { getOrCreateSetting } from '../../services/settings-store';

/** Minutes an order stays payable. */
export const ORDER_TTL_MINUTES = 15;

const SECRET_SETTING = 'pay.sandboxSecret';

/** The actor that runs the internal payment action (flow log: 在线支付平台). */
export const PAYMENT_ACTOR: Actor = {
  userId: stableId('system:payment'),
  userName: '在线支付平台',
  unitId: '',
  areaCode: '',
  roleType: null,
  menuIds: [],
  oversees: false,
};

interface PayOrderTable {
  id: string;
  order_no: string;
  biz_type: string;
  biz_id: string;
  unit_id: string;
  area_code: string;
  channel: string;
  amount_fen: number;
  status: 'open' | 'paid' | 'closed';
  expires_at: Date;
  paid_at: Date | null;
  transaction_id: string | null;
  created_by: string;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export type PayOrderRow = Omit<PayOrderTable, 'created_at' | 'updated_at'>;

const orders = (db: AnyDb) => db as Kysely<{ pay_order: PayOrderTable }>;

/** The provider's signing secret (created on first start, shared through the database). */
export async function loadPaymentSecret(db: Db): Promise<Buffer> {
  return Buffer.from(await getOrCreateSetting(db, SECRET_SETTING, () => randomBytes(32).toString('base64')), 'base64');
}

// ---------------------------------------------------------------------------------------------
// signatures

/** `amount=1190.00&channel=wechat&...`: every field but `sign`, keys sorted, empty values left out. */
export function canonicalPayload(payload: Readonly<Record<string, unknown>>): string {
  return Object.keys(payload)
    .filter((key) => key !== 'sign' && payload[key] !== undefined && payload[key] !== null && payload[key] !== '')
    .sort()
    .map((key) => `${key}=${String(payload[key])}`)
    .join('&');
}

export function signPayload(secret: Buffer, payload: Readonly<Record<string, unknown>>): string {
  return createHmac('sha256', secret).update(canonicalPayload(payload), 'utf8').digest('hex');
}

/** Whether `payload.sign` is the HMAC of the rest, compared in constant time. */
export function verifySignature(secret: Buffer, payload: Readonly<Record<string, unknown>>): boolean {
  const sign = payload.sign;
  if (typeof sign !== 'string' || !/^[0-9a-f]{64}$/i.test(sign)) return false;
  const expected = Buffer.from(signPayload(secret, payload), 'hex');
  const given = Buffer.from(sign.toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// ---------------------------------------------------------------------------------------------
// orders

export function orderInfo(order: PayOrderRow, qrContent: string): PayOrderInfo {
  return {
    orderNo: order.order_no,
    applicationId: order.biz_id,
    amount: order.amount_fen / 100,
    channel: order.channel as PayChannel,
    status: order.status,
    qrContent,
    expiresAt: order.expires_at.toISOString(),
    paidAt: order.paid_at ? order.paid_at.toISOString() : null,
  };
}

export async function findOrder(db: AnyDb, orderNo: string, lock = false): Promise<PayOrderRow | undefined> {
  const query = orders(db).selectFrom('pay_order').selectAll().where('order_no', '=', orderNo);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/** `JY20260315000001`: JY + the date in 宁波 + a 6-digit sequence per day. */
async function orderNumber(trx: AnyDb): Promise<string> {
  const day = todayIn().replaceAll('-', '');
  return `JY${day}${String(await nextSequence(trx, `pay-order:${day}`)).padStart(6, '0')}`;
}

export interface OrderRequest {
  bizType: string;
  bizId: string;
  unitId: string;
  areaCode: string;
  amountFen: number;
  channel: PayChannel;
  userId: string;
}

/**
 * The open order of a record: the existing one when it is unexpired, on the same channel and for
 * the same amount; otherwise that one is closed and a new one opened. The caller holds a lock on
 * the record (so two requests cannot race); the partial unique index is the last guard.
 */
export async function openOrder(trx: AnyDb, request: OrderRequest, now = new Date()): Promise<PayOrderRow> {
  const open = await orders(trx)
    .selectFrom('pay_order')
    .selectAll()
    .where('biz_type', '=', request.bizType)
    .where('biz_id', '=', request.bizId)
    .where('status', '=', 'open')
    .forUpdate()
    .executeTakeFirst();
  if (open && open.channel === request.channel && open.amount_fen === request.amountFen && open.expires_at.getTime() > now.getTime()) return open;
  if (open) await orders(trx).updateTable('pay_order').set({ status: 'closed', updated_at: now }).where('id', '=', open.id).execute();
  const order: PayOrderRow = {
    id: newId(),
    order_no: await orderNumber(trx),
    biz_type: request.bizType,
    biz_id: request.bizId,
    unit_id: request.unitId,
    area_code: request.areaCode,
    channel: request.channel,
    amount_fen: request.amountFen,
    status: 'open',
    expires_at: new Date(now.getTime() + ORDER_TTL_MINUTES * 60_000),
    paid_at: null,
    transaction_id: null,
    created_by: request.userId,
  };
  await orders(trx).insertInto('pay_order').values(order).execute();
  return order;
}

/** Closes the open orders of a record (e.g. once it was paid offline), so no QR code can pay it twice. */
export async function closeOpenOrders(trx: AnyDb, bizType: string, bizId: string): Promise<void> {
  await orders(trx)
    .updateTable('pay_order')
    .set({ status: 'closed', updated_at: sql`now()` })
    .where('biz_type', '=', bizType)
    .where('biz_id', '=', bizId)
    .where('status', '=', 'open')
    .execute();
}

// ---------------------------------------------------------------------------------------------
// the sandbox provider

export type SandboxRefusal = 'order-not-found' | 'order-paid' | 'order-closed' | 'order-expired';

/** What the provider sends after the customer paid `order` (signed). */
export function providerNotification(secret: Buffer, order: PayOrderRow, now = new Date()): PayNotification {
  const payload: Omit<PayNotification, 'sign'> = {
    orderNo: order.order_no,
    transactionId: `SBX${now.getTime()}${randomBytes(4).toString('hex')}`,
    amount: yuanText(order.amount_fen),
    channel: order.channel,
    paidAt: now.toISOString(),
    status: 'SUCCESS',
    nonce: randomBytes(8).toString('hex'),
  };
  return { ...payload, sign: signPayload(secret, payload) };
}

/** Whether the sandbox lets the customer pay `order` now (an open, unexpired order). */
export function sandboxRefusal(order: PayOrderRow | undefined, now = new Date()): SandboxRefusal | null {
  if (!order) return 'order-not-found';
  if (order.status === 'paid') return 'order-paid';
  if (order.status !== 'open') return 'order-closed';
  if (order.expires_at.getTime() <= now.getTime()) return 'order-expired';
  return null;
}

// ---------------------------------------------------------------------------------------------
// notifications

export type SettleResult =
  | { ok: true; replay: boolean; orderNo: string }
  | {
      ok: false;
      reason: 'signature' | 'payload' | 'order-not-found' | 'order-closed' | 'amount' | 'channel' | 'record-state';
      orderNo?: string;
      detail?: string;
    };

/** The records a payment can settle: the business type of an order → its resource and internal action. */
export interface Settlement {
  resource: CompiledResource;
  action: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Settles a provider notification: checks, then marks the order paid and runs the record's
 * payment action in one transaction. Never throws for a bad notification: the result says why.
 */
export async function settleNotification(db: Db, secret: Buffer, body: unknown, settlements: ReadonlyMap<string, Settlement>): Promise<SettleResult> {
  const payload = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  if (!verifySignature(secret, payload)) return { ok: false, reason: 'signature', orderNo: text(payload.orderNo) || undefined };
  const orderNo = text(payload.orderNo);
  const transactionId = text(payload.transactionId);
  const paidAt = new Date(text(payload.paidAt));
  const amountFen = fenOf(payload.amount);
  if (!orderNo || !transactionId || payload.status !== 'SUCCESS' || Number.isNaN(paidAt.getTime()) || amountFen === null)
    return { ok: false, reason: 'payload', orderNo };

  try {
    return await db.transaction().execute(async (trx): Promise<SettleResult> => {
      const order = await findOrder(trx, orderNo, true);
      if (!order) return { ok: false, reason: 'order-not-found', orderNo };
      if (order.status === 'paid') return { ok: true, replay: true, orderNo };
      if (order.status !== 'open') return { ok: false, reason: 'order-closed', orderNo };
      if (amountFen !== order.amount_fen) return { ok: false, reason: 'amount', orderNo, detail: `${yuanText(amountFen)} ≠ ${yuanText(order.amount_fen)}` };
      if (text(payload.channel) !== order.channel) return { ok: false, reason: 'channel', orderNo };
      const settlement = settlements.get(order.biz_type);
      if (!settlement) throw new Error(`no settlement for orders of '${order.biz_type}'`);
      await orders(trx)
        .updateTable('pay_order')
        .set({ status: 'paid', paid_at: paidAt, transaction_id: transactionId, updated_at: sql`now()` })
        .where('id', '=', order.id)
        .execute();
      await runAction(
        trx,
        settlement.resource,
        PAYMENT_ACTOR,
        settlement.action,
        order.biz_id,
        { extra: { orderNo, channel: order.channel, paidAt: paidAt.toISOString(), transactionId } },
        true,
      );
      return { ok: true, replay: false, orderNo };
    });
  } catch (err) {
    // The record is no longer waiting for this payment (returned, confirmed offline, ...): nothing changed.
    if (isAppError(err)) return { ok: false, reason: 'record-state', orderNo, detail: err.code };
    throw err;
  }
}
