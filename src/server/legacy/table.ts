/**
 * Legacy paths of the original clients (SPEC.md §7) → resource operations. Data only: each row is
 * served by the generic operation it names (see resources/operations.ts), with the record id taken
 * from `:id` in the path or `id` in the body/query.
 *
 * A resource's legacy paths are its JSON's `api` aliases (one path per operation); a path beyond
 * those (a second alias of the same operation, or a path of a resource not written yet) is a row of
 * its domain feature's `legacy` list (src/server/domain/<feature>/index.ts). Both are merged at
 * start; a path may appear only once across them. Rows whose resource is not loaded are skipped
 * with a log line, so a feature can list its whole legacy surface while resources land one by one.
 */
export interface LegacyRoute {
  /** Path under the API base; Fastify syntax for parameters (`:id`). */
  path: string;
  resource: string;
  /** list, get, flowLog, save, or a workflow action of the resource. */
  operation: string;
}

export const legacyRoute = (path: string, resource: string, operation: string): LegacyRoute => ({ path, resource, operation });
