/**
 * The Fastify application factory. Tests call `buildApp(overrides)` and use `app.inject()`;
 * main.ts adds a port. All API routes live under `config.apiBase` (default /espServer).
 */
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { type FastifyInstance, type FastifyPluginAsync, type FastifyServerOptions } from 'fastify';
import { loadConfig, toAppConfig, type Config } from './config';
import { humanOutput } from './start-output.mjs';
import { startAuditChain } from './services/audit-chain';
import { createDatabase, migrateToLatest, type PostgresOptions, type Progress } from './db/index';
import type { TemplateRecipe } from './db/pglite-template';
import attachmentStorePlugin from './plugins/attachment-store';
import dbPlugin from './plugins/db';
import envelopePlugin from './plugins/envelope';
import errorHandlerPlugin, { notFoundHandler, sendError } from './plugins/error-handler';
import healthPlugin from './plugins/health';
import housekeepingPlugin from './plugins/housekeeping';
import inputGuardPlugin from './plugins/input-guard';
import { AppError } from './errors';
import keysPlugin from './plugins/keys';
import lifecyclePlugin from './plugins/lifecycle';
import metricsPlugin from './plugins/metrics';
import openapiPlugin from './plugins/openapi';
import rateLimitPlugin from './plugins/rate-limit';
import rbacPlugin from './plugins/rbac';
import securityHeadersPlugin from './plugins/security-headers';
import sessionPlugin from './plugins/session';
import spaPlugin from './plugins/spa';
import tenantPlugin from './plugins/tenant';
import { routeValidatorCompiler, schemaControllerOptions } from './lazy-schemas';
import attachmentRoutes from './routes/attachments';
import authRoutes from './routes/auth';
import bypassAccountRoutes from './routes/bypass-account';
import errorLogRoutes from './routes/error-log';
import externalLinkRoutes from './routes/external-link';
import userRoutes from './routes/user';
import resourceEngine from './resources/index';
import { FEATURE_HOUSEKEEPING, FEATURE_LEGACY_ROUTES, FEATURES, SERVER_HOOKS, TABLES_READY } from './domain/index';
import { featureRoutes } from './domain/feature';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** The start-up progress reporter given to buildApp (null when none). */
    startProgress: Progress | null;
  }
}

export interface BuildOptions extends Partial<Config> {
  /** Extra routes registered inside the API scope (session, RBAC, envelope apply). For tests. */
  extraRoutes?: FastifyPluginAsync;
  /** Hears each start-up step (opening and migrating the database, table updates); main.ts prints them. */
  progress?: Progress;
  /** What a new embedded database starts from (default: the migrated cluster); main.ts passes the demo. */
  template?: TemplateRecipe;
}

const SENSITIVE_QUERY = /([?&](?:__sid|__extend|ssotoken|ynSsoToken|token)=)[^&]*/gi;

/** Request URL for the log, with session, SSO and external-link tokens masked. */
export function redactUrl(url: string): string {
  return url.replace(SENSITIVE_QUERY, '$1***');
}

/**
 * pino's JSON lines when the output goes to a file or another program (log collectors, the tests);
 * on a terminal, one readable coloured line per entry (pino-pretty, loaded only then, in-process:
 * no extra thread). The start-up and shutdown lines follow the same choice (start-output.mjs).
 */
async function loggerOptions(level: string): Promise<FastifyServerOptions['logger']> {
  if (level === 'silent') return false;
  const options = {
    level,
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
  if (!humanOutput) return options;
  const { default: pretty } = await import('pino-pretty');
  return { ...options, stream: pretty({ colorize: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) };
}

const api: FastifyPluginAsync<{ config: Config; extraRoutes?: FastifyPluginAsync }> = async (scope, { config, extraRoutes }) => {
  await scope.register(sessionPlugin, { ttlMinutes: config.sessionTtlMinutes });
  await scope.register(rbacPlugin);
  await scope.register(tenantPlugin);
  await scope.register(rateLimitPlugin);
  await scope.register(authRoutes);
  await scope.register(userRoutes);
  await scope.register(bypassAccountRoutes);
  await scope.register(errorLogRoutes);
  await scope.register(attachmentRoutes);
  await scope.register(externalLinkRoutes);
  await scope.register(resourceEngine, { schemaDir: config.schemaDir, hooks: SERVER_HOOKS, legacy: FEATURE_LEGACY_ROUTES, tablesReady: TABLES_READY });
  // The domain features' own routes act through the resources (app.resources): after the engine.
  await scope.register(featureRoutes(FEATURES));
  if (extraRoutes) await scope.register(extraRoutes);
  scope.setNotFoundHandler(notFoundHandler);
};

/** The PostgreSQL pool settings of a configuration. */
export function postgresOptions(config: Config): PostgresOptions {
  return {
    poolMax: config.pgPoolMax,
    connectTimeoutMs: config.pgConnectTimeoutMs,
    statementTimeoutMs: config.pgStatementTimeoutMs,
    sslMode: config.pgSslMode,
    caFile: config.pgCaFile,
  };
}

export async function buildApp(options: BuildOptions = {}): Promise<FastifyInstance> {
  const { extraRoutes, progress, template, ...overrides } = options;
  const config: Config = { ...loadConfig(), ...overrides };
  const app = Fastify({
    logger: await loggerOptions(config.logLevel),
    bodyLimit: 1024 * 1024,
    // No per-plugin start timer: plugins do database work (table and index updates) whose length
    // depends on the data and the machine. avvio's default 10 s turned a slow start on a loaded
    // machine into a failure; the callers watch start-up progress instead (main.ts, tests/support).
    pluginTimeout: 0,
    schemaController: schemaControllerOptions(),
    trustProxy: typeof config.trustProxy === 'boolean' ? config.trustProxy : [...config.trustProxy],
    // A bad address (not UTF-8, a broken percent-escape) is answered like every other error: the envelope, in Chinese.
    frameworkErrors: (error, _request, reply) => {
      void sendError(reply, new AppError(error.code === 'FST_ERR_BAD_URL' ? 'BAD_URL' : 'BAD_REQUEST'));
    },
  });
  // One ajv for the routes and the resource engine; route schemas may use `x-rules`, the validator
  // catalogue, the same code the browser runs. Compiled on a route's first use (lazy-schemas.ts).
  app.setValidatorCompiler(routeValidatorCompiler);
  app.decorate('config', config);
  app.decorate('resources', new Map());
  if (!config.captchaEnabled) app.log.warn('PORTAL_CAPTCHA=off: the login captcha is disabled — never use this in production');

  // The database opens before the plugin chain: a new embedded cluster takes seconds to initialise
  // and must never be closed half-way (see db/pglite.ts).
  progress?.(config.databaseUrl ? '连接 PostgreSQL…' : `打开内置数据库 ${config.dataDir}…`);
  const db = await createDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, postgres: postgresOptions(config) },
    progress,
    template,
  );
  try {
    progress?.('应用数据库迁移…');
    await migrateToLatest(db);
    // The audit log's chain key, the leading rows written without it sealed (services/audit-chain.ts).
    await startAuditChain(db, config);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  app.decorate('startProgress', progress ?? null);

  try {
    await app.register(lifecyclePlugin);
    await app.register(errorHandlerPlugin);
    await app.register(securityHeadersPlugin);
    await app.register(inputGuardPlugin);
    await app.register(envelopePlugin);
    await app.register(cookie);
    await app.register(formbody);
    await app.register(dbPlugin, { db });
    await app.register(attachmentStorePlugin);
    await app.register(housekeepingPlugin, { jobs: FEATURE_HOUSEKEEPING });
    await app.register(keysPlugin);
    await app.register(openapiPlugin, { title: config.productName });
    // Outside the API scope (no session, RBAC, rate limit); before it, so the metrics hooks see its routes.
    await app.register(healthPlugin);
    await app.register(metricsPlugin);
    await app.register(api, { prefix: config.apiBase, config, extraRoutes });
    if (config.staticDir) await app.register(spaPlugin, { root: config.staticDir, apiBase: config.apiBase, appConfig: toAppConfig(config) });
    else app.setNotFoundHandler(notFoundHandler);
    await app.ready();
  } catch (err) {
    // A plugin failed at start (bad schema, refused migration): release what was opened (the
    // database pool) before reporting, so a caller never inherits open handles.
    await app.close().catch(() => undefined);
    await db.destroy().catch(() => undefined); // when the failure came before the db plugin took it
    throw err;
  }
  return app;
}
