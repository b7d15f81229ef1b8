/**
 * Supervision orders (监督整改, schemas/resources/supervision-order.json; the original routes
 * /company-service correctQuery, correctDetail, demandNoteManage, supervisionCheckHiddenDanger):
 * the authority issues 整改通知, 责令改正指令书 and the hidden dangers its checks found to a unit of
 * its area, the unit answers with evidence, the authority verifies or returns. The original API names no
 * path for them: the resource's own /r/supervision-order/* routes serve them.
 */
import type { DomainFeature } from '../feature';
import './errors';
import { supervisionIssue, supervisionReply, supervisionTarget, supervisionVerify } from './hooks';
import { seedSupervisionOrders } from './seed';

export const supervisionFeature: DomainFeature = {
  name: 'supervision',
  hooks: {
    'supervision-target': supervisionTarget,
    'supervision-issue': supervisionIssue,
    'supervision-reply': supervisionReply,
    'supervision-verify': supervisionVerify,
  },
  seed: seedSupervisionOrders,
};
