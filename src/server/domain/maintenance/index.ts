/**
 * Maintenance units on the platform (维保单位): the using unit's maintenance contracts
 * (schemas/resources/maintenance-contract.json) confirmed by the maintenance unit, and the
 * maintenance records (maintenance-record.json) the maintenance unit files under them and the unit
 * confirms (hooks.ts). Screens: /company-service/maintenance-contract*, weibaoDa*, /maintenance/*,
 * /area/maintenance-*. Runs after the equipment and service-records features: its seed builds on
 * their rows, and `tablesReady` gives the records kept before the workflow their state.
 */
import { sql } from 'kysely';
import type { DomainFeature } from '../feature';
import type { AnyDb } from '../../resources/repository';
import {
  maintenanceContractCommit,
  maintenanceContractConfirmed,
  maintenanceContractOpinion,
  maintenanceRecordCheck,
  maintenanceRecordDelete,
  maintenanceRecordRegister,
} from './hooks';
import { seedMaintenance } from './seed';

/** Records kept before maintenance-record had a workflow carry no state: they were the unit's own, complete records. */
async function confirmLegacyRecords(db: AnyDb): Promise<void> {
  // A catalog without the resource (a test's own) has no such table.
  const { rows } = await sql<{ present: boolean }>`SELECT to_regclass('maintenance_record') IS NOT NULL AS present`.execute(db);
  if (rows[0].present) await sql`UPDATE maintenance_record SET status = 'confirmed' WHERE status IS NULL OR status = ''`.execute(db);
}

export const maintenanceFeature: DomainFeature = {
  name: 'maintenance',
  hooks: {
    'maintenance-contract-commit': maintenanceContractCommit,
    'maintenance-contract-opinion': maintenanceContractOpinion,
    'maintenance-contract-confirmed': maintenanceContractConfirmed,
    'maintenance-record-check': maintenanceRecordCheck,
    'maintenance-record-delete': maintenanceRecordDelete,
    'maintenance-record-register': maintenanceRecordRegister,
  },
  tablesReady: confirmLegacyRecords,
  seed: seedMaintenance,
};
