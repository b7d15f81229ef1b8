/**
 * First registration (首次登记, schemas/resources/first-regist-apply.json;
 * route /firstRegisterManagement): equipment not yet in the registry is filed by its unit with its
 * manufacturer data and certificates; the authority's approval puts it in the unit's registry
 * (未登记), ready for use registration. Demo applications of both using units.
 */
import type { DomainFeature } from '../feature';
import './errors';
import { enterRegistry, requireNotRegistered } from './hooks';
import { seedFirstRegistrations } from './seed';

export const firstRegistrationFeature: DomainFeature = {
  name: 'first-registration',
  hooks: { 'first-registration-not-registered': requireNotRegistered, 'first-registration-enter': enterRegistry },
  seed: seedFirstRegistrations,
};
