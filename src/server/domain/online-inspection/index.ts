/**
 * Online inspection applications (schemas/resources/online-apply.json): the equipment rows and fees
 * computed on the server (hooks.ts, fees.ts), routing to the serving inspection body and its due
 * date (dispatch.ts, routing.ts, workdays.ts; the bodies the authority reassigns to: bodies.ts),
 * billing, payment through the sandbox provider (payment.ts, routes.ts; the pay_order table is
 * migration 0005) and the inspection result written to the equipment. The scan-code page is src/pages/PayCode.tsx; the wire contract src/shared/payment.ts.
 */
import type { FastifyPluginAsync } from 'fastify';
import { todayIn } from '../../../shared/dates';
import type { DomainFeature } from '../feature';
import './errors';
import { ONLINE_APPLY, onlineApplyBill, onlineApplyFees, onlineApplyIdentifiers, onlineApplyInspected, onlineApplyItem, onlineApplyPaid } from './hooks';
import { createInspectionBodyView } from './bodies';
import { onlineApplyReassign, onlineApplyRoute } from './dispatch';
import paymentRoutes from './routes';
import { seedOnlineApplications } from './seed';
import { missingCalendarYears, WORK_CALENDAR, workCalendarOf } from './workdays';

/**
 * The payment routes, and at start a warning for the operator when the work calendar lacks a year
 * a due date may fall in (the due dates of that year then skip weekends only).
 */
const routes: FastifyPluginAsync = async (scope) => {
  await scope.register(paymentRoutes);
  const dicts = scope.resources.get(ONLINE_APPLY)?.runtime.dicts;
  const missing = dicts ? missingCalendarYears(workCalendarOf(dicts), todayIn()) : [];
  if (missing.length > 0)
    scope.log.warn(
      { dictionary: WORK_CALENDAR, years: missing },
      `the work calendar (schemas/dicts/${WORK_CALENDAR}.json) lists no public holidays of ${missing.join(', ')}: due dates there skip weekends only; add the dates of the State Council's holiday notice`,
    );
};

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
  routes,
  tablesReady: createInspectionBodyView,
  seed: seedOnlineApplications,
};
