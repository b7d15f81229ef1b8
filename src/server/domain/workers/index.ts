/**
 * Operators and their certificates (schemas/resources/operator.json, operator-certificate.json;
 * the original routes /zyrygl): no server hooks, only the legacy paths beyond the resources' own `api`
 * (add and update are both the save; the personnel paths of /a/stone/work/person) and demo records.
 */
import { legacyRoute } from '../../legacy/table';
import type { DomainFeature } from '../feature';
import { seedWorkers } from './seed';

const OPERATOR = 'operator';
const CERTIFICATE = 'operator-certificate';

export const workersFeature: DomainFeature = {
  name: 'workers',
  legacy: [
    legacyRoute('/a/stone/operator/add', OPERATOR, 'save'),
    legacyRoute('/a/stone/operator/update', OPERATOR, 'save'),
    legacyRoute('/a/stone/operator/overview', CERTIFICATE, 'stats'),
    legacyRoute('/a/stone/work/person/list', OPERATOR, 'list'),
    legacyRoute('/a/stone/work/person/get', OPERATOR, 'get'),
    legacyRoute('/a/stone/work/person/save', OPERATOR, 'save'),
    legacyRoute('/a/stone/work/person/delete', OPERATOR, 'delete'),
  ],
  seed: seedWorkers,
};
