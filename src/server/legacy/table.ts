/**
 * Legacy paths of the original clients (the original API) → resource operations. Data only: each row is
 * served by the generic operation it names (see resources/operations.ts), with the record id taken
 * from `:id` in the path or `id` in the body/query.
 *
 * A resource's legacy paths are its JSON's `api` aliases (one path per operation); a path beyond
 * those (a second alias of the same operation, or a path of a resource not written yet) is a row of
 * its domain feature's `legacy` list (src/server/domain/<feature>/index.ts). Both are merged at
 * start; a path may appear only once across them. Rows whose resource is not loaded are skipped
 * with a log line, so a feature can list its whole legacy surface while resources land one by one.
 *
 * A row may name a list `screen` of its resource: the path then answers what that screen shows —
 * the screen's fixed `where` always applies and its filters' defaults apply while the caller sends
 * no value of their own (the original system's pre-filtered lists, e.g. records due soon); an
 * export through such a path takes the screen's columns. A row's own `where` adds fixed parameters.
 */
export interface LegacyRoute {
  /** Path under the API base; Fastify syntax for parameters (`:id`). */
  path: string;
  resource: string;
  /** list, get, flowLog, save, export, import, or a workflow action of the resource. */
  operation: string;
  /** A list screen of the resource whose fixed conditions and filter defaults the path applies. */
  screen?: string;
  /** Fixed list parameters of the path (beside a screen's, or alone). */
  where?: Readonly<Record<string, unknown>>;
}

export const legacyRoute = (path: string, resource: string, operation: string, narrow: Pick<LegacyRoute, 'screen' | 'where'> = {}): LegacyRoute => ({
  path,
  resource,
  operation,
  ...narrow,
});
