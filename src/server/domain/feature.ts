/**
 * The one interface through which a domain feature joins the server. The engine core (resources,
 * records, validation, legacy paths, plugins) names no feature: everything a feature brings that
 * JSON cannot say comes in through here, from its wing src/server/domain/<feature>/:
 *
 *   index.ts    the feature (this interface), listed once in domain/index.ts
 *   hooks.ts    server hooks its resource JSON names (`derive`, workflow `effects`)
 *   errors.ts   its error codes, added to the catalogue with `defineErrors` (src/server/errors.ts)
 *   routes.ts   routes beyond the resources' own (a fee calculator, a payment callback)
 *   seed.ts     its demo records
 *
 * plus any service of its own. Its screens and resources stay JSON under schemas/; its tables are
 * resource tables (or a migration under db/migrations when it needs one of its own).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { DemoContext } from '../db/demo/context';
import type { LegacyRoute } from '../legacy/table';
import type { Hook } from '../resources/hooks';
import type { AnyDb } from '../resources/repository';

export interface DomainFeature {
  /** Its wing's folder name, for messages. */
  name: string;
  /** Server hooks by the name resource JSON uses in `derive` and workflow `effects`. */
  hooks?: Readonly<Record<string, Hook>>;
  /**
   * Routes beyond the resources' own, registered in the API scope after the resource engine: the
   * session, RBAC, the envelope and `app.resources` apply to them.
   */
  routes?: FastifyPluginAsync;
  /** Legacy paths bound to resource operations beyond the resources' own `api` aliases. */
  legacy?: readonly LegacyRoute[];
  /**
   * Database objects over resource tables (a view joining them, an index across fields): run on
   * every start right after the resource tables are brought to the models (ddl.ts syncTables) and
   * before system tables are checked — a migration runs before those tables exist. Idempotent.
   */
  tablesReady?: (db: AnyDb) => Promise<void>;
  /**
   * A job of the housekeeping timer (plugins/housekeeping.ts), run at every tick after the app is
   * ready: it decides itself whether anything is due (e.g. once a day). Idempotent and safe with
   * several processes (an advisory lock).
   */
  housekeeping?: (db: AnyDb) => Promise<void>;
  /** Writes its demo records (npm start on an empty database, npm run seed); returns counts by kind. */
  seed?: (demo: DemoContext) => Promise<Record<string, number>>;
}

/** The hooks of all features in one registry; a name registered twice is a programming error. */
export function hooksOf(features: readonly DomainFeature[]): ReadonlyMap<string, Hook> {
  const hooks = new Map<string, Hook>();
  for (const feature of features) {
    for (const [name, hook] of Object.entries(feature.hooks ?? {})) {
      if (hooks.has(name)) throw new Error(`server hook '${name}' of feature '${feature.name}' is registered twice`);
      hooks.set(name, hook);
    }
  }
  return hooks;
}

/** Registers every feature's routes, in the order of the list. */
export function featureRoutes(features: readonly DomainFeature[]): FastifyPluginAsync {
  return async (scope) => {
    for (const feature of features) if (feature.routes) await scope.register(feature.routes);
  };
}
