/**
 * The generic resource engine (registered inside the API scope): loads the resources, brings their
 * tables up to date (additive changes only), and serves each resource's operations under
 * `/r/<resource>/...` plus the legacy paths. See operations.ts for the routes, scope.ts for who
 * sees which rows, filters.ts for the list parameters, export.ts for the XLSX export.
 */
import type { FastifyPluginAsync } from 'fastify';
import { registerLegacyRoutes } from '../legacy/index';
import { DEFAULT_SCHEMA_DIR, loadCatalog } from './catalog';
import { compileResources } from './compile';
import { syncTables } from './ddl';
import { exportOperation, loadListScreens } from './export';
import { operationsOf } from './operations';

export interface ResourceEngineOptions {
  /** Directory with resources/ and dicts/ (default: the repository's schemas/); tests point it at fixtures. */
  schemaDir?: string | null;
}

/** Canonical URL of an operation, relative to the API base. */
export const resourcePath = (resource: string, operation: string, id?: string): string => `/r/${resource}/${operation}${id === undefined ? '' : `/${id}`}`;

const resourceEngine: FastifyPluginAsync<ResourceEngineOptions> = async (app, { schemaDir }) => {
  const catalog = loadCatalog(schemaDir ?? undefined);
  const { all, routed } = compileResources(catalog);
  const applied = await syncTables(app.db, all.map((r) => r.model));
  if (applied.length > 0) app.log.info({ statements: applied }, 'resource tables updated');

  const exportSources = { dictLabels: catalog.dictLabels, listScreens: loadListScreens(schemaDir ?? DEFAULT_SCHEMA_DIR) };
  const operations = new Map(routed.map((r) => [r.model.name, [...operationsOf(r), exportOperation(r, exportSources)]]));
  for (const [name, ops] of operations) {
    for (const op of ops) app.route({ ...op.options, method: op.methods, url: resourcePath(name, op.name, op.takesId ? ':id' : undefined) });
  }
  registerLegacyRoutes(app, routed, operations);
};

export default resourceEngine;
