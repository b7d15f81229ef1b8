/**
 * The self-service call groups the original API names without paths (routes under
 * /company-service, the authority's under 审批受理): invoices of paid inspection fees
 * (schemas/resources/invoice.json: 发票管理, /account/invoice-audit), interactions with the
 * authority (interaction.json: 互动交流, /account/interaction-reply) and price applications
 * (price-apply.json: 价格申请, /account/price-apply-audit). /r/<resource>/* serves them.
 */
import type { DomainFeature } from '../feature';
import { interactionEdit, interactionFollowed, interactionReplied, invoiceFromPayment } from './hooks';
import { seedSelfService } from './seed';

export const selfServiceFeature: DomainFeature = {
  name: 'self-service',
  hooks: {
    'invoice-from-payment': invoiceFromPayment,
    'interaction-edit': interactionEdit,
    'interaction-replied': interactionReplied,
    'interaction-followed': interactionFollowed,
  },
  seed: seedSelfService,
};
