/**
 * Online inspection applications (schemas/resources/online-apply.json): the equipment rows and fees
 * computed on the server (hooks.ts, fees.ts), routing to the serving inspection body and its due
 * date (dispatch.ts, routing.ts, workdays.ts; the bodies the authority reassigns to: bodies.ts),
 * billing, payment through the sandbox provider (payment.ts, routes.ts; the pay_order table is
 * migration 0005) and the inspection result written to the equipment. The scan-code page is src/pages/PayCode.tsx; the wire contract src/shared/payment.ts.
 */
import type { DomainFeature } from '../feature';
import './errors';
import { onlineApplyBill, onlineApplyFees, onlineApplyIdentifiers, onlineApplyInspected, onlineApplyItem, onlineApplyPaid } from './hooks';
import { createInspectionBodyView } from './bodies';
import { onlineApplyReassign, onlineApplyRoute } from './dispatch';
import paymentRoutes from './routes';
import { seedOnlineApplications } from './seed';

export const onlineInspectionFeature: DomainFeature = {
  name: 'online-inspection',
  hooks: {
    'online-apply-item': onlineApplyItem,
    'online-apply-fees': onlineApplyFees,
    'online-apply-identifiers': onlineApplyIdentifiers,
    'online-apply-bill': onlineApplyBill,
    'online-apply-paid': onlineApplyPaid,
    'online-apply-inspected': onlineApplyInspected,
    'online-apply-route': onlineApplyRoute,
    'online-apply-reassign': onlineApplyReassign,
  },
  routes: paymentRoutes,
  tablesReady: createInspectionBodyView,
  seed: seedOnlineApplications,
};
