/**
 * Registers the legacy paths: the features' rows (table.ts) merged with every resource's `api`
 * aliases, each bound to the generic operation it names. Unknown paths keep the envelope 404.
 * On each of them the parameters the original clients send under a legacy name (the resource's
 * `legacyNames`) are read under the engine's names first.
 * Import rows are bound by the import scope (it parses multipart bodies): see `importRows`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ListScreen } from '../../schema/types';
import { inputOf, type Operation } from '../resources/operations';
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

/** The rows the import scope binds (multipart bodies). */
export const importRows = (rows: readonly LegacyRoute[]): LegacyRoute[] => rows.filter((r) => r.operation === 'import');

/** Operations a resource may alias that the engine does not serve yet. */
const NOT_YET_SERVED = new Set(['print']);

type Input = Record<string, unknown>;

/**
 * What a list screen always asks (`where`) and what it asks while the user has set nothing (its
 * filters' defaults: a range default as `<field>_gte` / `<field>_lte`). Relative dates stay as they
 * are: the server resolves them at query time.
 */
export function screenParams(screen: ListScreen): { fixed: Input; defaults: Input } {
  const defaults: Input = {};
  for (const filter of screen.filters ?? []) {
    if (typeof filter === 'string' || !('default' in filter) || filter.default === undefined || filter.default === null) continue;
    const value: unknown = filter.default;
    if (Array.isArray(value)) {
      if (value[0] !== null && value[0] !== undefined) defaults[`${filter.field}_gte`] = value[0];
      if (value[1] !== null && value[1] !== undefined) defaults[`${filter.field}_lte`] = value[1];
    } else defaults[filter.field] = value;
  }
  return { fixed: { ...(screen.where ?? {}) }, defaults };
}

/** The operation's handler with the row's (and its screen's) parameters around the caller's input (and the screen's columns for an export). */
function narrowed(operation: Operation, where: Input, screen: ListScreen | undefined): Operation['options']['handler'] {
  const { fixed, defaults } = screen ? screenParams(screen) : { fixed: {}, defaults: {} as Input };
  const own = { ...fixed, ...where, ...(screen && operation.name === 'export' ? { screen: screen.id } : {}) };
  const byDefault = Object.keys(defaults);
  return (request: FastifyRequest, reply) => {
    const input = inputOf(request);
    // A range default yields to either bound the caller sends.
    const set = (param: string) =>
      input[param] !== undefined || input[param.replace(/_(gte|lte)$/, '_gte')] !== undefined || input[param.replace(/_(gte|lte)$/, '_lte')] !== undefined;
    const applied = Object.fromEntries(byDefault.filter((p) => !set(p)).map((p) => [p, defaults[p]]));
    request.body = { ...applied, ...input, ...own };
    return operation.options.handler(request, reply);
  };
}

type Names = Readonly<Record<string, string | undefined>>;

/** A resource's legacy names and, by sub-table field, its sub-tables' (one level, as a save takes them). */
export interface LegacyNaming {
  names: Names;
  children: ReadonlyMap<string, Names>;
}

export function legacyNaming({ model }: CompiledResource): LegacyNaming | undefined {
  const children = new Map(model.children.flatMap((c) => (c.model.resource.legacyNames ? [[c.name, c.model.resource.legacyNames] as const] : [])));
  const names = model.resource.legacyNames ?? {};
  return Object.keys(names).length > 0 || children.size > 0 ? { names, children } : undefined;
}

const renamed = (input: Input, names: Names): Input => {
  const out: Input = { ...input };
  for (const [legacy, field] of Object.entries(names)) {
    if (field === undefined || !(legacy in out)) continue;
    if (out[field] === undefined) out[field] = out[legacy];
    delete out[legacy];
  }
  return out;
};

/**
 * The input under the engine's names: each parameter sent under a legacy name (the resource's
 * `legacyNames`, legacy name → field) is read as its field unless the field itself is sent too;
 * the rows of a sub-table the same way by the sub-table resource's names.
 */
export function engineNames(input: unknown, naming: LegacyNaming): unknown {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
  const out = renamed(input as Input, naming.names);
  for (const [field, names] of naming.children) {
    const rows = out[field];
    if (Array.isArray(rows))
      out[field] = rows.map((row: unknown) => (row && typeof row === 'object' && !Array.isArray(row) ? renamed(row as Input, names) : row));
  }
  return out;
}

/** The handler reading the query and the body under the engine's names (before the operation checks them). */
function withLegacyNames(naming: LegacyNaming | undefined, handler: Operation['options']['handler']): Operation['options']['handler'] {
  if (!naming) return handler;
  return (request, reply) => {
    request.query = engineNames(request.query, naming);
    request.body = engineNames(request.body, naming);
    return handler(request, reply);
  };
}

export function registerLegacyRoutes(
  app: FastifyInstance,
  resources: readonly CompiledResource[],
  operations: ReadonlyMap<string, readonly Operation[]>,
  rows: readonly LegacyRoute[],
  listScreens: ReadonlyMap<string, ListScreen>,
): void {
  const byName = new Map(resources.map((r) => [r.model.name, r]));
  const unbound: string[] = [];
  for (const entry of rows) {
    if (!byName.has(entry.resource)) {
      unbound.push(entry.path);
      continue;
    }
    if (entry.operation === 'import') continue;
    const operation = operations.get(entry.resource)?.find((op) => op.name === entry.operation);
    if (!operation && NOT_YET_SERVED.has(entry.operation)) {
      unbound.push(entry.path);
      continue;
    }
    if (!operation) throw new Error(`legacy path ${entry.path}: resource '${entry.resource}' has no operation '${entry.operation}'`);
    let handler = operation.options.handler;
    if (entry.screen || entry.where) {
      const screen = entry.screen ? listScreens.get(entry.screen) : undefined;
      if (entry.screen && screen?.resource !== entry.resource)
        throw new Error(`legacy path ${entry.path}: '${entry.screen}' is not a list screen of '${entry.resource}'`);
      handler = narrowed(operation, { ...entry.where }, screen);
    }
    handler = withLegacyNames(legacyNaming(byName.get(entry.resource)!), handler);
    app.route({ ...operation.options, handler, method: operation.methods, url: entry.path });
  }
  if (unbound.length > 0) app.log.info({ paths: unbound }, `${unbound.length} legacy paths name resources not defined yet`);
}
