/**
 * The domain features, in order (their demo seeds run in this order: later ones build on the rows
 * of earlier ones). The one place that names them: app.ts, the demo and the schema lint read
 * this list. A new feature: a wing src/server/domain/<feature>/ (see feature.ts) added here.
 */
import { accountApplyFeature } from './account-apply/index';
import { areaUnitsFeature } from './area-units/index';
import { companyFeature } from './company-info/index';
import { constructionFeature } from './construction/index';
import { equipmentFeature } from './equipment/index';
import { hooksOf, type DomainFeature } from './feature';
import { firstRegistrationFeature } from './first-registration/index';
import { inspectionPlanFeature } from './inspection-plan/index';
import { maintenanceFeature } from './maintenance/index';
import { noticesFeature } from './notices/index';
import { onlineInspectionFeature } from './online-inspection/index';
import { responsibilityFeature } from './responsibility/index';
import { selfServiceFeature } from './self-service/index';
import { serviceRecordsFeature } from './service-records/index';
import { simpleDeclarationFeature } from './simple-declaration/index';
import { supervisionFeature } from './supervision/index';
import { pendingLegacyPaths } from './pending';
import { reportReissueFeature } from './report-reissue/index';
import { useRegistrationFeature } from './use-registration/index';
import { workersFeature } from './workers/index';

export const FEATURES: readonly DomainFeature[] = [
  equipmentFeature,
  useRegistrationFeature,
  onlineInspectionFeature,
  workersFeature,
  responsibilityFeature,
  companyFeature,
  constructionFeature,
  firstRegistrationFeature,
  supervisionFeature,
  inspectionPlanFeature,
  serviceRecordsFeature,
  selfServiceFeature,
  accountApplyFeature,
  noticesFeature,
  simpleDeclarationFeature,
  areaUnitsFeature,
  reportReissueFeature,
  maintenanceFeature,
  pendingLegacyPaths,
];

/** The server hooks resource JSON may name (`derive`, workflow `effects`). */
export const SERVER_HOOKS = hooksOf(FEATURES);
export const HOOK_NAMES: readonly string[] = [...SERVER_HOOKS.keys()];
/** Database objects over the resource tables (views, indexes), made after the tables at every start. */
export const TABLES_READY = FEATURES.flatMap((f) => (f.tablesReady ? [f.tablesReady] : []));
/** Jobs of the housekeeping timer beyond the server's own pruning. */
export const FEATURE_HOUSEKEEPING = FEATURES.flatMap((f) => (f.housekeeping ? [f.housekeeping] : []));
/** Legacy paths beyond the resources' own `api` aliases. */
export const FEATURE_LEGACY_ROUTES = FEATURES.flatMap((f) => f.legacy ?? []);
