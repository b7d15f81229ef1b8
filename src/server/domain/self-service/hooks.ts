/**
 * Rules of invoices and interactions (schemas/resources/invoice.json, interaction.json) that their
 * JSON cannot say:
 *
 * - `invoice-from-payment` (derive of invoice): the chosen online inspection application is the
 *   unit's own (the engine has refused another unit's already), paid (已缴费 or 已检验), not
 *   fully relieved and not invoiced by another request; its number, pay order, amount and payment
 *   time are copied from it, never taken from the request;
 * - `interaction-edit` (derive of interaction): a new message has had no turns; one the authority
 *   has answered is not edited;
 * - `interaction-replied` / `interaction-followed` (effects of answer / follow-up): the turn is
 *   appended to 交流记录 with its time and author, and the read marks of everyone but its author are
 *   dropped, so the other side's list shows the record as 未读 again.
 */
import { sql } from 'kysely';
import { AppError } from '../../errors';
import type { Hook, HookContext } from '../../resources/hooks';
import { quote } from '../../resources/naming';
import { SELF_SERVICE_ERRORS } from './errors';

export const INVOICE = 'invoice';
export const INTERACTION = 'interaction';
export const PRICE_APPLY = 'price-apply';
const PAID_STATES = ['paid', 'inspected'];

/** derive of invoice. */
export const invoiceFromPayment: Hook = async (ctx) => {
  const { row } = ctx;
  const id = row.onlineApply;
  if (typeof id !== 'string' || id === '') return;
  const application = await ctx.find('online-apply', id);
  if (!application || application.unitId !== (row.unitId ?? ctx.actor.unitId))
    throw new AppError('VALIDATION_FAILED', '报检申请不存在或不属于本单位', { field: 'onlineApply' });
  if (!PAID_STATES.includes(String(application.status))) throw new AppError(SELF_SERVICE_ERRORS.INVOICE_NOT_PAID, undefined, { field: 'onlineApply' });
  const amount = Number(application.payableAmount ?? 0);
  if (!(amount > 0)) throw new AppError(SELF_SERVICE_ERRORS.INVOICE_AMOUNT_ZERO, undefined, { field: 'onlineApply' });
  const column = sql.raw(quote(ctx.model.byName.get('onlineApply')!.column));
  const others = await sql<{
    id: string;
  }>`SELECT id FROM ${sql.raw(quote(ctx.model.table))} WHERE ${column} = ${id} AND id <> ${String(row.id ?? '')} LIMIT 1`.execute(ctx.trx);
  if (others.rows.length > 0) throw new AppError(SELF_SERVICE_ERRORS.INVOICE_DUPLICATE, undefined, { field: 'onlineApply' });
  return { applyNo: application.applyNo ?? null, orderNo: application.orderNo ?? application.receiptNo ?? null, amount, paidAt: application.paidAt ?? null };
};

/** derive of interaction: once answered, the message stands as asked. */
export const interactionEdit: Hook = (ctx) => {
  if (!ctx.before) return { turns: 0 };
  if (Number(ctx.before.turns ?? 0) > 0) throw new AppError(SELF_SERVICE_ERRORS.INTERACTION_REPLIED);
};

/** 2026-11-27 09:30 in China time. */
function stamp(now = new Date()): string {
  const parts = new Intl.DateTimeFormat('zh-CN', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).formatToParts(now);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

const line = (when: string, who: string, what: string, text: unknown) => `【${when} ${who}${what}】${String(text ?? '').trim()}`;

async function appendTurn(ctx: HookContext, what: '回复' | '追问', text: unknown): Promise<Record<string, unknown>> {
  const { row, actor } = ctx;
  const lines =
    typeof row.thread === 'string' && row.thread !== ''
      ? [row.thread]
      : [
          line(
            stamp(row.createDate instanceof Date ? row.createDate : new Date(String(row.createDate ?? Date.now()))),
            String(row.contactPerson ?? row.unitName ?? ''),
            '留言',
            row.content,
          ),
        ];
  lines.push(line(stamp(), actor.userName, what, text));
  await sql`DELETE FROM sys_read_mark WHERE resource = ${INTERACTION} AND record_id = ${String(row.id)} AND user_id <> ${actor.userId}`.execute(ctx.trx);
  return { thread: lines.join('\n'), turns: Number(row.turns ?? 0) + 1 };
}

/** effect of answer (回复). */
export const interactionReplied: Hook = async (ctx) => ({
  ...(await appendTurn(ctx, '回复', ctx.row.reply)),
  replier: ctx.actor.userName,
  repliedAt: new Date().toISOString(),
});

/** effect of follow-up. */
export const interactionFollowed: Hook = (ctx) => appendTurn(ctx, '追问', ctx.row.followUp);
