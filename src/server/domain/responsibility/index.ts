/**
 * Enterprise responsibility (schemas/resources/hidden-danger.json, safety-commitment.json,
 * emergency-plan.json, emergency-drill.json, risk-assessment.json;
 * the original routes /implementation): no server hook (the hidden dangers' legacy paths are the resource's own
 * `api`); this wing brings their demo records.
 */
import type { DomainFeature } from '../feature';
import { seedResponsibility } from './seed';

export const responsibilityFeature: DomainFeature = {
  name: 'responsibility',
  seed: seedResponsibility,
};
