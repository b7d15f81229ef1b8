/**
 * Registers the legacy paths: the features' rows (table.ts) merged with every resource's `api`
 * aliases, each bound to the generic operation it names. Unknown paths keep the envelope 404.
 */
import type { FastifyInstance } from 'fastify';
import type { Operation } from '../resources/operations';
import type { CompiledResource } from '../resources/records';
import type { LegacyRoute } from './table';

/** The rows plus the resources' own aliases; a path named twice is a configuration error. */
export function legacyRoutes(resources: readonly CompiledResource[], table: readonly LegacyRoute[]): LegacyRoute[] {
  const aliases = resources.flatMap(({ model }) => Object.entries(model.api).map(([operation, path]) => ({ path, resource: model.name, operation })));
  const seen = new Map<string, LegacyRoute>();
  for (const entry of [...table, ...aliases]) {
    const first = seen.get(entry.path);
    if (first) throw new Error(`legacy path ${entry.path} is mapped twice: ${first.resource}.${first.operation} and ${entry.resource}.${entry.operation}`);
    seen.set(entry.path, entry);
  }
  return [...seen.values()];
}

/** Operations a resource may alias that the engine does not serve yet. */
const NOT_YET_SERVED = new Set(['import', 'print']);

export function registerLegacyRoutes(app: FastifyInstance, resources: readonly CompiledResource[], operations: ReadonlyMap<string, readonly Operation[]>, table: readonly LegacyRoute[]): void {
  const byName = new Map(resources.map((r) => [r.model.name, r]));
  const unbound: string[] = [];
  for (const entry of legacyRoutes(resources, table)) {
    if (!byName.has(entry.resource)) {
      unbound.push(entry.path);
      continue;
    }
    const operation = operations.get(entry.resource)?.find((op) => op.name === entry.operation);
    if (!operation && NOT_YET_SERVED.has(entry.operation)) {
      unbound.push(entry.path);
      continue;
    }
    if (!operation) throw new Error(`legacy path ${entry.path}: resource '${entry.resource}' has no operation '${entry.operation}'`);
    app.route({ ...operation.options, method: operation.methods, url: entry.path });
  }
  if (unbound.length > 0) app.log.info({ paths: unbound }, `${unbound.length} legacy paths name resources not defined yet`);
}
