/**
 * Legacy paths of the original clients (SPEC.md §7) → resource operations. Data only: each row is
 * served by the generic operation it names (see resources/operations.ts), with the record id taken
 * from `:id` in the path or `id` in the body/query. A resource's own `api` aliases are merged in at
 * start; a path may appear only once across both.
 *
 * Rows whose resource has not been written yet are skipped with a warning at start, so this table
 * can list the whole legacy surface while resources land one by one.
 */
export interface LegacyRoute {
  /** Path under the API base; Fastify syntax for parameters (`:id`). */
  path: string;
  resource: string;
  /** list, get, flowLog, save, or a workflow action of the resource. */
  operation: string;
}

const route = (path: string, resource: string, operation: string): LegacyRoute => ({ path, resource, operation });

export const LEGACY_ROUTES: readonly LegacyRoute[] = [
  // Construction notification
  route('/a/stone/eqmBcwBasic/list', 'eqm-bcw-basic', 'list'),
  route('/a/stone/eqmBcwBasic/detail', 'eqm-bcw-basic', 'get'),
  route('/a/stone/eqmBcwBasic/save', 'eqm-bcw-basic', 'save'),
  route('/a/stone/eqmBcwBasic/commit', 'eqm-bcw-basic', 'commit'),
  route('/a/stone/eqmBcwBasic/delete', 'eqm-bcw-basic', 'delete'),
  route('/a/stone/eqmBcwBasic/showOpinion', 'eqm-bcw-basic', 'flowLog'),
  // Use registration applications
  route('/a/stone/epPemUseregistApply/list', 'use-regist-apply', 'list'),
  route('/a/stone/epPemUseregistApply/save', 'use-regist-apply', 'save'),
  route('/a/stone/epPemUseregistApply/commit', 'use-regist-apply', 'commit'),
  route('/a/stone/epPemUseregistApply/delete', 'use-regist-apply', 'delete'),
  route('/a/stone/epPemUseregistApply/processSteps', 'use-regist-apply', 'flowLog'),
  // Online inspection applications: the `api` aliases of schemas/resources/online-apply.json;
  // toPay, getChargeInspectionFee and findChaReliefPolicys are routes of src/server/routes/payment.ts.
  // Hidden dangers
  route('/a/safehiddendanger/epSafeHiddenDanger/detail', 'hidden-danger', 'get'),
  route('/a/safehiddendanger/epSafeHiddenDanger/save', 'hidden-danger', 'save'),
  route('/a/safehiddendanger/epSafeHiddenDanger/delete', 'hidden-danger', 'delete'),
  route('/a/safehiddendanger/epSafeHiddenDanger/complete', 'hidden-danger', 'complete'),
  // Operators
  route('/a/stone/operator/list', 'operator', 'list'),
  route('/a/stone/operator/get', 'operator', 'get'),
  route('/a/stone/operator/add', 'operator', 'save'),
  route('/a/stone/operator/update', 'operator', 'save'),
  route('/a/stone/operator/del', 'operator', 'delete'),
];
