/**
 * Random inspection plans (检查计划, 双随机、一公开; schemas/resources/inspection-plan.json,
 * inspection-check.json, plan-inspector.json): the authority draws the units of its area to check and
 * the officers to check them with a recorded seed (draw.ts), records each check (责令整改 issues a
 * rectification order through the supervision wing) and publishes the results of a finished plan on
 * the open page /inspection-results (routes.ts).
 */
import type { DomainFeature } from '../feature';
import './errors';
import { checkRecord, planCheck, planDraw, planPublish } from './hooks';
import { inspectionResultRoutes } from './routes';
import { seedInspectionPlans } from './seed';

export const inspectionPlanFeature: DomainFeature = {
  name: 'inspection-plan',
  hooks: {
    'inspection-plan-check': planCheck,
    'inspection-plan-draw': planDraw,
    'inspection-plan-publish': planPublish,
    'inspection-check-record': checkRecord,
  },
  routes: inspectionResultRoutes,
  seed: seedInspectionPlans,
};
