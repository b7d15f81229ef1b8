/**
 * The payment wire contract shared by the server (src/server/domain/online-inspection/routes.ts) and the scan-code
 * payment page (src/pages/PayCode.tsx): paths under the API base and the order a toPay answers.
 */

/** Online channels of the payment sandbox (the `{b}` of toPay/{a}/{b}). */
export const PAY_CHANNELS = ['wechat', 'alipay', 'unionpay'] as const;
export type PayChannel = (typeof PAY_CHANNELS)[number];

export const PAY_CHANNEL_LABELS: Readonly<Record<PayChannel, string>> = { wechat: '微信支付', alipay: '支付宝', unionpay: '银联云闪付' };

export const PAYMENT_API = {
  /** POST: the open order of an unpaid application of the caller's unit (made on first call). */
  toPay: (applicationId: string, channel: string) => `/a/stone/appOnline/toPay/${encodeURIComponent(applicationId)}/${encodeURIComponent(channel)}`,
  /** GET|POST: per-item fee and total of equipment ids (or category/sub-category pairs) under a relief policy. */
  chargeInspectionFee: '/a/stone/appOnline/getChargeInspectionFee',
  /** GET|POST: the relief policies offered. */
  reliefPolicies: '/a/stone/appOnline/findChaReliefPolicys',
  /** Public: the sandbox cashier page a QR code points to (GET shows it, POST …/confirm pays). */
  sandbox: (orderNo: string) => `/pay/sandbox/${encodeURIComponent(orderNo)}`,
  /** Public: the provider's signed notification (POST JSON, answers { code: SUCCESS | FAIL }). */
  notify: '/pay/notify',
} as const;

/** An order as toPay answers it. */
export interface PayOrderInfo {
  orderNo: string;
  applicationId: string;
  /** Yuan. */
  amount: number;
  channel: PayChannel;
  /** open: waiting for payment; paid; closed: expired or replaced. */
  status: 'open' | 'paid' | 'closed';
  /** What the QR code encodes: the sandbox cashier page (absolute URL). */
  qrContent: string;
  /** ISO 8601. */
  expiresAt: string;
  paidAt: string | null;
}

/** The provider's notification (all values text, as providers send them) and its HMAC-SHA256 `sign`. */
export interface PayNotification {
  orderNo: string;
  transactionId: string;
  /** Yuan with two decimals, e.g. "1190.00". */
  amount: string;
  channel: string;
  /** ISO 8601. */
  paidAt: string;
  status: 'SUCCESS';
  nonce: string;
  /** Lowercase hex HMAC-SHA256 of the canonical payload (every other field, keys sorted, k=v joined by &). */
  sign: string;
}
