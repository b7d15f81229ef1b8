/**
 * Construction notices (施工告知, schemas/resources/eqm-bcw-basic.json; route /construction and
 * /a/stone/eqmBcwBasic): the licence checked at commit, the cancel rule (checkBcwCancell and the
 * `cancel` action behind cancellationNotice), printSGGZD as the printed 告知书 (the resource's
 * `document`: the record and its verification token, accepted notices only; screen construction-print), and the demo notices of both using units. The resource's own `api` holds list, detail,
 * save, commit, delete and showOpinion.
 */
import { legacyRoute } from '../../legacy/table';
import type { DomainFeature } from '../feature';
import './errors';
import { CONSTRUCTION, requireCancellable, requireValidLicence } from './hooks';
import { constructionRoutes } from './routes';
import { seedConstructionNotices } from './seed';

export const constructionFeature: DomainFeature = {
  name: 'construction',
  hooks: { 'construction-licence-valid': requireValidLicence, 'construction-cancel-allowed': requireCancellable },
  routes: constructionRoutes,
  legacy: [
    legacyRoute('/a/stone/eqmBcwBasic/printSGGZD', CONSTRUCTION, 'document'),
    legacyRoute('/a/stone/eqmBcwBasic/cancellationNotice', CONSTRUCTION, 'cancel'),
  ],
  seed: seedConstructionNotices,
};
