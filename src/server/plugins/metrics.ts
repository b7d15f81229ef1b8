/**
 * Prometheus metrics (prom-client), off unless an operator turns them on (fastify-plugin: its
 * hooks see every route):
 *
 *   PORTAL_METRICS_PORT    a separate small listener on HOST serving only GET /metrics, opened when
 *                          the app listens (a tool that builds the app without serving opens no
 *                          port) and closed with the app; keep that port off the public network
 *   PORTAL_METRICS_TOKEN   GET {apiBase}/metrics on the main port with `Authorization: Bearer
 *                          <token>` (compared in constant time); 401 for another token. Without a
 *                          token the path does not exist (404)
 *
 * What is measured:
 *
 *   portal_http_requests_total, portal_http_request_duration_seconds
 *                          by method, route template (never the address asked for: no ids, no
 *                          session token) and status code
 *   portal_db_pool_in_use / _idle / _waiting
 *                          the PostgreSQL pool's connections (nothing for the embedded database,
 *                          which has one connection inside the process)
 *   portal_sessions_open   unexpired sessions, counted at scrape time (cached 15 s)
 *   portal_login_failures_total
 *                          refused logins by reason code (INVALID_CREDENTIALS, CAPTCHA_INVALID, ...;
 *                          never the login name)
 *   portal_sms_outbox_last_hour
 *                          text messages written to sys_sms_outbox in the last hour (the outbox has
 *                          no "not sent yet" state; cached 15 s)
 *   process_*, nodejs_*    prom-client's default metrics: CPU, memory, event-loop delay, GC, handles
 *
 * Each app has its own registry (tests build many apps in one process; the global one would mix them).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { API } from '../../shared/contract';
import { StartupError } from '../config';
import { postgresPoolOf } from '../db/index';
import { AppError, codeForStatus, defineErrors, isAppError } from '../errors';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's Prometheus registry (null: metrics are off). */
    metrics: Registry | null;
  }
}

export const METRICS_ERRORS = defineErrors({
  /** GET {apiBase}/metrics without the configured bearer token. */
  METRICS_TOKEN_INVALID: { status: 401, message: '监控令牌无效' },
});

/** How long a database-backed gauge's value is reused before it is counted again. */
const SAMPLE_TTL_MS = 15_000;

/** Seconds; from a quick API answer to a long export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether an Authorization header carries the bearer token (equal-length digests compared in constant time). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(presented), digest(token)) && presented !== '';
}

/**
 * A count from the database, read at most once per SAMPLE_TTL_MS (concurrent scrapes share one
 * query) and given up on after `timeoutMs`: then the last value stands (null before the first).
 */
function sampled(count: () => Promise<number>, timeoutMs: number, onError: (err: unknown) => void): () => Promise<number | null> {
  let value: number | null = null;
  let takenAt = -Infinity;
  let pending: Promise<void> | null = null;
  const refresh = async () => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      value = await Promise.race([count(), timeout]);
    } catch (err) {
      onError(err);
    } finally {
      clearTimeout(timer);
      takenAt = performance.now();
    }
  };
  return async () => {
    if (performance.now() - takenAt >= SAMPLE_TTL_MS) {
      pending ??= refresh().finally(() => {
        pending = null;
      });
      await pending;
    }
    return value;
  };
}

export default fp(
  async (app) => {
    const { apiBase, metricsPort, metricsToken, healthTimeoutMs, sessionTtlMinutes } = app.config;
    if (metricsPort === null && metricsToken === null) {
      app.decorate('metrics', null);
      return;
    }
    const registry = new Registry();
    app.decorate('metrics', registry);
    const registers = [registry];
    collectDefaultMetrics({ register: registry });

    // HTTP requests, labelled by the route's template.
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'portal_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames,
      registers,
    });
    const duration = new Histogram({
      name: 'portal_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route template and status code.',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers,
    });
    app.addHook('onResponse', (request, reply, done) => {
      const labels = {
        method: request.method,
        route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
        status_code: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
      done();
    });

    // Refused logins by the catalogue code they were refused with.
    const loginFailures = new Counter({
      name: 'portal_login_failures_total',
      help: 'Refused login attempts, by reason code.',
      labelNames: ['reason'] as const,
      registers,
    });
    const loginRoute = `${apiBase}${API.login}`;
    app.addHook('onError', (request, _reply, error, done) => {
      if (request.routeOptions.url === loginRoute && request.method === 'POST') {
        const err = error as FastifyError | AppError;
        const reason = isAppError(err) ? err.code : err.validation ? 'BAD_REQUEST' : codeForStatus(typeof err.statusCode === 'number' ? err.statusCode : 500);
        loginFailures.inc({ reason });
      }
      done();
    });

    // The PostgreSQL pool: counts read at scrape time.
    const pool = postgresPoolOf(app.db);
    if (pool) {
      new Gauge({
        name: 'portal_db_pool_in_use',
        help: 'PostgreSQL connections of the pool running a query.',
        registers,
        collect() {
          this.set(pool.totalCount - pool.idleCount);
        },
      });
      new Gauge({
        name: 'portal_db_pool_idle',
        help: 'PostgreSQL connections of the pool open and idle.',
        registers,
        collect() {
          this.set(pool.idleCount);
        },
      });
      new Gauge({
        name: 'portal_db_pool_waiting',
        help: 'Queries waiting for a PostgreSQL connection of the pool.',
        registers,
        collect() {
          this.set(pool.waitingCount);
        },
      });
    }

    // Counts from the database, each under the health timeout and cached.
    const warn = (what: string) => (err: unknown) => app.log.warn({ err }, `metrics: counting ${what} failed`);
    /** A gauge of the rows of `table` whose `column` is at or after `since()`, counted under the health timeout and cached. */
    const rowCountGauge = (
      name: string,
      help: string,
      table: 'sys_session' | 'sys_sms_outbox',
      column: 'last_seen_at' | 'created_at',
      since: () => Date,
      what: string,
    ) => {
      const count = sampled(
        async () => {
          // One of two known tables and columns (sys_sms_outbox is the SMS service's table, not in Database).
          const counted = sql<{ n: string | number }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} >= ${since()}`;
          const { rows } = await counted.execute(app.db);
          return Number(rows[0].n);
        },
        healthTimeoutMs,
        warn(what),
      );
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const n = await count();
          if (n !== null) this.set(n);
        },
      });
    };
    rowCountGauge(
      'portal_sessions_open',
      'Unexpired sessions (all processes), counted at most every 15 s.',
      'sys_session',
      'last_seen_at',
      () => new Date(Date.now() - sessionTtlMinutes * 60_000),
      'open sessions',
    );
    rowCountGauge(
      'portal_sms_outbox_last_hour',
      'Text messages written to sys_sms_outbox in the last hour (all processes), counted at most every 15 s.',
      'sys_sms_outbox',
      'created_at',
      () => new Date(Date.now() - 3_600_000),
      'the sms outbox',
    );

    // On the main port, behind the bearer token.
    if (metricsToken !== null) {
      app.get(`${apiBase}/metrics`, {
        config: { public: true },
        schema: {
          summary: 'Prometheus metrics (text exposition format); needs `Authorization: Bearer <PORTAL_METRICS_TOKEN>`',
          tags: ['operations'],
          produces: ['text/plain'],
        },
        handler: async (request, reply) => {
          if (!bearerMatches(request.headers.authorization, metricsToken)) {
            reply.header('WWW-Authenticate', 'Bearer');
            throw new AppError(METRICS_ERRORS.METRICS_TOKEN_INVALID);
          }
          return reply
            .header('Cache-Control', 'no-store')
            .type(registry.contentType)
            .send(await registry.metrics());
        },
      });
    }

    // On a port of its own, from the moment the app listens.
    if (metricsPort !== null) {
      let server: Server | null = null;
      const serve = async (req: IncomingMessage, res: ServerResponse) => {
        const path = (req.url ?? '').split('?')[0];
        if (path !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        } else if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
        } else {
          try {
            const body = await registry.metrics();
            res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
          } catch (err) {
            app.log.error({ err }, 'metrics: scrape failed');
            res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('scrape failed\n');
          }
        }
      };
      // Settles once the listener is up or has failed; main.ts waits for it (lifecycle.afterListen).
      let opened!: { resolve: () => void; reject: (err: Error) => void };
      const listening = new Promise<void>((resolve, reject) => (opened = { resolve, reject }));
      listening.catch(() => undefined); // a caller that never awaits it (a test's app) must not see an unhandled rejection
      app.lifecycle.afterListen.push(listening);
      app.addHook('onListen', async () => {
        if (server) return;
        const listener = createServer((req, res) => void serve(req, res));
        server = listener;
        try {
          await new Promise<void>((resolve, reject) => {
            listener.once('error', reject);
            listener.listen(metricsPort, app.config.host, () => {
              listener.off('error', reject);
              resolve();
            });
          });
        } catch (err) {
          server = null;
          const why = (err as Error).message;
          const failure = new StartupError(
            'PORTAL_METRICS_PORT',
            `无法监听指标端口 ${app.config.host}:${metricsPort}（${why}）`,
            `cannot listen on ${app.config.host}:${metricsPort}: ${why}`,
            { cause: err },
          );
          opened.reject(failure);
          throw failure;
        }
        opened.resolve();
        app.log.info({ port: metricsPort, host: app.config.host }, `metrics: GET /metrics on ${app.config.host}:${metricsPort}`);
      });
      app.addHook('onClose', async () => {
        const listener = server;
        server = null;
        if (!listener?.listening) return;
        await new Promise<void>((resolve) => {
          listener.close(() => resolve());
          listener.closeAllConnections();
        });
      });
    }
  },
  { name: 'metrics', dependencies: ['db', 'error-handler'] },
);
