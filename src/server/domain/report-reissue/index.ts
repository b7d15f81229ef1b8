/**
 * Re-issue of inspection reports and certificates (schemas/resources/report-reissue.json): the
 * unit applies about one of its inspection records, the commit routes it to the serving inspection
 * body (hooks.ts, through online-inspection/routing.ts), the body accepts and issues a PDF or posts
 * it, or returns it with an opinion. Screens: /company-service/report-reissue*, /inspection/
 * report-reissue*.
 */
import type { DomainFeature } from '../feature';
import './errors';
import { reportReissueHandled, reportReissueRecord, reportReissueRoute } from './hooks';
import { seedReportReissues } from './seed';

export const reportReissueFeature: DomainFeature = {
  name: 'report-reissue',
  hooks: {
    'report-reissue-record': reportReissueRecord,
    'report-reissue-route': reportReissueRoute,
    'report-reissue-handled': reportReissueHandled,
  },
  seed: seedReportReissues,
};
