/** Amounts as they read: ¥1,234.00 (blank stays blank). */
const money = new Intl.NumberFormat('zh-CN', { style: 'currency', currency: 'CNY', minimumFractionDigits: 2 });

export function formatMoney(value: unknown): string {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return '';
  const n = Number(value);
  return Number.isFinite(n) ? money.format(n) : String(value);
}
