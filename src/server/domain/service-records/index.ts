/**
 * The self-service remainder (routes under /company-service): fault registrations, termination
 * and maintenance project applications (schemas/resources/service-apply.json, report-query and its
 * three details, the authority's /account/service-apply-audit), the online / installation /
 * periodic inspection records (check-online, check-install, check-record: list screens with a fixed
 * `where` over inspection-record) and the maintenance records (weibaoDa, maintenance-record).
 */
import type { DomainFeature } from '../feature';
import { inspectionRecordLatest, maintenanceRecordLatest, serviceApplyApproved } from './hooks';
import { seedServiceRecords } from './seed';

export const serviceRecordsFeature: DomainFeature = {
  name: 'service-records',
  hooks: {
    'service-apply-approved': serviceApplyApproved,
    'inspection-record-latest': inspectionRecordLatest,
    'maintenance-record-latest': maintenanceRecordLatest,
  },
  seed: seedServiceRecords,
};
