/**
 * The generic resource engine (registered inside the API scope): loads the resources, brings their
 * tables up to date (additive changes only), and serves each resource's operations under
 * `/r/<resource>/...` plus the legacy paths. See operations.ts for the routes, scope.ts for who
 * sees which rows, filters.ts for the list parameters, xlsx/ for the XLSX export and import (cells,
 * sheet, import, template, export), stats.ts for the counts of the stats screens, flow-times.ts for
 * how long workflows take.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { importRows, legacyRoutes, registerLegacyRoutes } from '../legacy/index';
import type { LegacyRoute } from '../legacy/table';
import { DEFAULT_CACHE_DIR } from '../db/pglite-template';
import { DEFAULT_SCHEMA_DIR, loadCatalog } from './catalog';
import { compileResources } from './compile';
import { documentOperation, registerDocumentVerification } from './documents';
import { syncTables } from './ddl';
import type { AnyDb } from './repository';
import { convertSealedFields, fieldCipher } from './sealed-fields';
import { acceptsImport } from '../../schema/model';
import { exportOperation, loadListScreens } from './xlsx/export';
import { importOperation, registerImportRoutes } from './xlsx/import';
import { importTemplateOperation } from './xlsx/template';
import type { HookRegistry } from './hooks';
import { operationsOf } from './operations';
import { checkSystemTables } from './system-table';
import { statsOperation } from './stats';
import { flowTimesOperation } from './flow-times';
import { loadDeskScreens, menuRoutes, registerDesk, type DeskSection } from './desk';
import { syncKeptCounts } from './kept-counts';
import type { CompiledResource } from './records';

declare module 'fastify' {
  interface FastifyInstance {
    /** The compiled resources by name (sub-tables included), for services that act on records. */
    resources: ReadonlyMap<string, CompiledResource>;
    /** The home work desk of the request's session (resources/desk.ts), for routes that answer it under other paths. */
    desk: (request: FastifyRequest) => Promise<DeskSection[]>;
  }
}

export interface ResourceEngineOptions {
  /** Directory with resources/ and dicts/ (default: the repository's schemas/); tests point it at fixtures. */
  schemaDir?: string | null;
  /** Server hooks the resources may name in `derive` and workflow `effects`. */
  hooks?: HookRegistry;
  /** Legacy paths beyond the resources' own `api` aliases (the domain features'). */
  legacy?: readonly LegacyRoute[];
  /** Run after the tables are synced, before system tables are checked (views and indexes over resource tables). */
  tablesReady?: readonly ((db: AnyDb) => Promise<void>)[];
}

/** Canonical URL of an operation, relative to the API base. */
export const resourcePath = (resource: string, operation: string, id?: string): string => `/r/${resource}/${operation}${id === undefined ? '' : `/${id}`}`;

/** Document verifications per minute per IP: a person scans a code now and then; a guesser is slowed (tokens are 128 random bits). */
const VERIFY_RATE_LIMIT = 60;

const resourceEngine: FastifyPluginAsync<ResourceEngineOptions> = async (app, { schemaDir, hooks, legacy = [], tablesReady = [] }) => {
  const catalog = loadCatalog(schemaDir ?? undefined, { cacheDir: app.config.cacheDir ?? DEFAULT_CACHE_DIR });
  const { all, routed } = compileResources(catalog, hooks, fieldCipher(app.config));
  // The app decorates an empty map at its root (app.ts) so the whole app, scripts included, sees the resources.
  if (!app.hasDecorator('resources')) app.decorate('resources', new Map());
  for (const r of all) (app.resources as Map<string, CompiledResource>).set(r.model.name, r);
  app.startProgress?.(`核对 ${all.length} 个资源的数据表…`);
  // System tables are their migrations' (system-table.ts): only checked, never created or extended.
  const applied = await syncTables(
    app.db,
    all.map((r) => r.model).filter((m) => !m.systemTable),
  );
  // Counts kept per combination of a resource's declared fields (resource `keptCounts`), by triggers on its table.
  const kept = await syncKeptCounts(
    app.db,
    all.map((r) => r.model).filter((m) => !m.systemTable),
  );
  for (const r of all) r.kept = kept.get(r.model.table);
  for (const ready of tablesReady) await ready(app.db);
  await checkSystemTables(
    app.db,
    all.map((r) => r.model),
  );
  // ID card and mobile columns brought to the mode: sealed in place under PORTAL_CRYPTO=sm, unsealed after it (sealed-fields.ts).
  await convertSealedFields(
    app.db,
    all.map((r) => r.model).filter((m) => !m.systemTable),
    app.config,
    app.log,
  );
  // The statements themselves (whole CREATE TABLEs on a new database) only at debug level.
  if (applied.length > 0) {
    app.log.info(`resource tables updated: ${applied.length} statements`);
    app.log.debug({ statements: applied }, 'resource table statements');
  }

  const exportSources = { dictLabels: catalog.dictLabels, listScreens: loadListScreens(schemaDir ?? DEFAULT_SCHEMA_DIR) };
  // XLSX import beside the export, for the resources that take one (no readOnly, a new row saveable in the initial state).
  const importing = routed.filter((r) => acceptsImport(r.model));
  const operations = new Map(
    routed.map((r) => [
      r.model.name,
      [
        ...operationsOf(r),
        exportOperation(r, exportSources),
        ...(importing.includes(r) ? [importTemplateOperation(r, exportSources)] : []),
        statsOperation(r),
        ...(r.model.workflow ? [flowTimesOperation(r)] : []),
        ...[documentOperation(r)].filter((op) => op !== undefined),
      ],
    ]),
  );
  for (const [name, ops] of operations) {
    for (const op of ops) app.route({ ...op.options, method: op.methods, url: resourcePath(name, op.name, op.takesId ? ':id' : undefined) });
  }
  // The open verification of printed documents (documents.ts): reached by the token of a document's QR code.
  registerDocumentVerification(app, VERIFY_RATE_LIMIT);
  const rows = legacyRoutes(routed, legacy);
  // The upload itself is multipart: registered in its own scope (xlsx/import.ts), the legacy import paths with it.
  const imports = new Map(importing.map((r) => [r.model.name, importOperation(r, exportSources)]));
  const importUrls = [...imports.keys()].map((resource) => ({ resource, url: resourcePath(resource, 'import') }));
  for (const row of importRows(rows)) {
    if (!routed.some((r) => r.model.name === row.resource)) continue;
    if (!imports.has(row.resource)) throw new Error(`legacy path ${row.path}: resource '${row.resource}' takes no import`);
    importUrls.push({ resource: row.resource, url: row.path });
  }
  await registerImportRoutes(app, imports, importUrls);
  registerLegacyRoutes(app, routed, operations, rows, exportSources.listScreens);
  const desk = registerDesk(app, {
    resources: app.resources,
    screens: loadDeskScreens(schemaDir ?? DEFAULT_SCHEMA_DIR),
    listScreens: exportSources.listScreens,
    routes: menuRoutes(),
  });
  if (!app.hasDecorator('desk')) app.decorate('desk', desk);
};

/** Shared with the API scope (fastify-plugin) so service routes registered after it find `app.resources`. */
export default fp(resourceEngine, { name: 'resource-engine' });
