/**
 * The equipment registry (schemas/resources/equipment.json and its screens): derived deadlines, the
 * kept monthly overdue figures (overdue-months.ts), the demo registry, and the original system's /a/stone/eqm paths beyond the resource's own `api`
 * aliases: the pre-filtered lists answer what their query screens show, each with its export.
 */
import { legacyRoute } from '../../legacy/table';
import type { DomainFeature } from '../feature';
import { equipmentDeadlines } from './deadlines';
import './errors';
import { maintenanceUnitAccount } from './maintenance-units';
import { createOverdueMonths, refreshOverdueMonths } from './overdue-months';
import { seedEquipment } from './seed';

const EQM = 'equipment';

export const equipmentFeature: DomainFeature = {
  name: 'equipment',
  hooks: { 'equipment-deadlines': equipmentDeadlines, 'maintenance-unit-account': maintenanceUnitAccount },
  seed: seedEquipment,
  // The kept monthly overdue figures (overdue-months.ts): made and refreshed at start, then daily.
  tablesReady: createOverdueMonths,
  housekeeping: async (db) => {
    await refreshOverdueMonths(db, { onlyIfStale: true });
  },
  legacy: [
    legacyRoute('/a/stone/eqm/changeEqm', EQM, 'save'),
    legacyRoute('/a/stone/eqm/export', EQM, 'export', { screen: 'equipment-query' }),
    ...[
      ['detectDueList', 'equipment-query-about-expire'],
      ['detectExtendedList', 'equipment-query-timeout'],
      ['loadTestList', 'equipment-query-payload-time'],
    ].flatMap(([path, screen]) => [
      legacyRoute(`/a/stone/eqm/${path}`, EQM, 'list', { screen }),
      legacyRoute(`/a/stone/eqm/${path}/export`, EQM, 'export', { screen }),
    ]),
    // Pressure piping (category 8000) and its long-distance pipelines (8100).
    legacyRoute('/a/stone/eqm/pressurePipingList', EQM, 'list', { where: { equclacode: '8000' } }),
    legacyRoute('/a/stone/eqm/pipelineList', EQM, 'list', { where: { subCategory: '8100' } }),
    // Product data (the registry's data as the manufacturer delivers it): the registry's XLSX import and export.
    legacyRoute('/api/prop/template', EQM, 'import-template'),
    legacyRoute('/api/prop/import', EQM, 'import'),
    legacyRoute('/api/prop/export', EQM, 'export'),
  ],
};
