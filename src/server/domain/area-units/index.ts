/**
 * 辖区单位 and 单位档案: the authority's register of the units of its area (resource `area-unit`
 * over the view made by view.ts) and one page per unit whose tabs list the unit's records of other
 * resources (schemas/screens/area-unit-file.json). No routes or hooks of its own: the resources'
 * operations serve both screens.
 */
import type { DomainFeature } from '../feature';
import { createAreaUnitView } from './view';

export const areaUnitsFeature: DomainFeature = {
  name: 'area-units',
  tablesReady: createAreaUnitView,
};
