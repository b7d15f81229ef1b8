/**
 * The unit's own records (the original routes /company-info): its registered facts (unit-profile) with their
 * versions (unit-version), changed only through applications the authority approves (unit-change,
 * unit-type-change), its safety department and personnel (safety-dept, safety-staff) and its
 * branches (unit-branch). The resources' legacy paths are their own `api` (plus changeUnit here);
 * this wing brings the hooks and demo records.
 */
import { legacyRoute } from '../../legacy/table';
import type { DomainFeature } from '../feature';
import './errors';
import { applyUnitChange, applyUnitTypeChange, unitChangeCommit, unitChangeDiff, unitTypeCommit, unitTypeCurrent } from './hooks';
import { seedCompany } from './seed';

export const companyFeature: DomainFeature = {
  name: 'company-info',
  hooks: {
    'unit-change-diff': unitChangeDiff,
    'unit-change-commit': unitChangeCommit,
    'apply-unit-change': applyUnitChange,
    'unit-type-current': unitTypeCurrent,
    'unit-type-commit': unitTypeCommit,
    'apply-unit-type-change': applyUnitTypeChange,
  },
  // The original API's /a/stone/unit changeUnit: the unit's change application (its own paths are /api/unitchange).
  legacy: [legacyRoute('/a/stone/unit/changeUnit', 'unit-change', 'save')],
  seed: seedCompany,
};
