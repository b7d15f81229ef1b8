/**
 * Enterprise responsibility (schemas/resources/hidden-danger.json; SPEC.md §2 /implementation):
 * the hidden dangers need no server hook (their legacy paths are the resource's own `api`); this
 * wing brings their demo records.
 */
import type { DomainFeature } from '../feature';
import { seedHiddenDangers } from './seed';

export const responsibilityFeature: DomainFeature = {
  name: 'responsibility',
  seed: seedHiddenDangers,
};
