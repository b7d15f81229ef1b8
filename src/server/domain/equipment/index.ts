/** The equipment registry (schemas/resources/equipment.json and its screens): derived deadlines and the demo registry. */
import type { DomainFeature } from '../feature';
import { equipmentDeadlines } from './deadlines';
import './errors';
import { seedEquipment } from './seed';

export const equipmentFeature: DomainFeature = {
  name: 'equipment',
  hooks: { 'equipment-deadlines': equipmentDeadlines },
  seed: seedEquipment,
};
