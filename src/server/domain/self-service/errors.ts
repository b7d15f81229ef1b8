/** Errors of invoices and interactions (wing self-service), added to the catalogue (src/server/errors.ts). */
import { defineErrors } from '../../errors';

export const SELF_SERVICE_ERRORS = defineErrors({
  /** The chosen application is the unit's own but not paid (yet). */
  INVOICE_NOT_PAID: { status: 400, message: '该报检申请尚未缴费，不能申请开票' },
  /** Another invoice request of the unit names the same application (one invoice per payment). */
  INVOICE_DUPLICATE: { status: 400, message: '该报检申请已申请开票，不能重复申请' },
  /** Fully relieved: nothing was paid, so nothing to invoice. */
  INVOICE_AMOUNT_ZERO: { status: 400, message: '该报检申请应缴金额为零，无需开具发票' },
  /** A save of a message the authority already answered: the unit follows up instead. */
  INTERACTION_REPLIED: { status: 400, message: '已回复的留言不能修改，如需补充请追问' },
});
