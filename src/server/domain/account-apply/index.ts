/**
 * Registration and password reset (first half): the open calls a visitor files an
 * enterprise account application or a password reset with (routes.ts, SMS codes from
 * services/sms.ts), and the authority's audits of both (schemas/resources/account-register-apply.json,
 * password-reset-apply.json; effects in hooks.ts: create the unit and its main account, set a
 * temporary password, tell the applicant by SMS).
 */
import type { DomainFeature } from '../feature';
import './errors';
import { approveRegistration, approveReset, returnRegistration, returnReset } from './hooks';
import { accountApplyRoutes } from './routes';
import { seedAccountApplications } from './seed';

export const accountApplyFeature: DomainFeature = {
  name: 'account-apply',
  hooks: {
    'account-register-approve': approveRegistration,
    'account-register-return': returnRegistration,
    'password-reset-approve': approveReset,
    'password-reset-return': returnReset,
  },
  routes: accountApplyRoutes,
  seed: seedAccountApplications,
};
