/**
 * Health endpoints for load balancers, orchestrators and operators. Registered at the root with
 * the API base in their paths, outside the API scope: no session is read, no RBAC, rate limit or
 * legacy envelope applies, so a probe works when the database does not (and never touches it for
 * `live`).
 *
 *   GET {apiBase}/health/live    the process answers: 200 {"status":"ok"}
 *   GET {apiBase}/health/ready   200 {"status":"ok","checks":{"database":{"ok":true,"ms":3},...}}
 *                                or 503 with the failing checks, each with a short reason
 *
 * Ready runs, each under PORTAL_HEALTH_TIMEOUT_MS: `database` (a `select 1` round trip),
 * `migrations` (every migration this release knows is applied: a database a newer release migrated
 * further is still ready, one missing a migration is not) and every check of
 * `app.lifecycle.readinessChecks` (e.g. the attachment store). A draining process (SIGTERM) is not
 * ready: `lifecycle` fails with "stopping" and nothing else runs.
 *
 * A probe of a check still running from an earlier request joins it rather than starting another,
 * so a hanging database holds one probe query, not one per balancer request. Reasons carry no URL,
 * password or stack: database failures name only the error code, other checks' messages are cut
 * to their first line with any URL masked; the full error goes to the log when a check's state
 * changes.
 */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { migrations } from '../db/migrations/index';

export interface CheckResult {
  ok: boolean;
  /** Milliseconds the check took (the timeout when it timed out). */
  ms: number;
  /** Why it failed (absent when ok). */
  reason?: string;
}

export interface Readiness {
  ok: boolean;
  checks: Record<string, CheckResult>;
}

class CheckTimeout extends Error {}

/** `work`, or a CheckTimeout after `ms` (the work itself goes on: see singleFlight). */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `run`, or joins its previous run while that one is still pending. */
function singleFlight(run: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | null = null;
  return () => {
    pending ??= run().finally(() => {
      pending = null;
    });
    return pending;
  };
}

const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s)\]}>"']+/gi;

/** A failure as the probe's answer shows it: a database error by its code only, another by its first line without URLs. */
function reasonOf(err: unknown, database: boolean): string {
  if (err instanceof CheckTimeout) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  if (database) return typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code) ? `query failed (${code})` : 'query failed';
  const message = err instanceof Error ? err.message : '';
  const line = message.split('\n')[0].replace(URL_IN_TEXT, '<url>').trim();
  return line ? line.slice(0, 200) : 'failed';
}

const checkSchema = {
  type: 'object',
  properties: { ok: { type: 'boolean' }, ms: { type: 'integer' }, reason: { type: 'string' } },
  required: ['ok', 'ms'],
} as const;
const readySchema = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['ok', 'fail'] }, checks: { type: 'object', additionalProperties: checkSchema } },
  required: ['status', 'checks'],
} as const;

const healthPlugin: FastifyPluginAsync = async (app) => {
  const { apiBase, healthTimeoutMs } = app.config;
  const known = Object.keys(migrations);

  const database = singleFlight(async () => {
    await sql`select 1`.execute(app.db);
  });
  const migrated = singleFlight(async () => {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(app.db);
    const applied = new Set(rows.rows.map((r) => r.name));
    const missing = known.filter((name) => !applied.has(name));
    if (missing.length)
      throw Object.assign(new Error(`not applied: ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` (+${missing.length - 5})` : ''}`), {
        missing: true,
      });
  });
  const plugged = new WeakMap<() => Promise<void>, () => Promise<void>>();
  const flightOf = (check: () => Promise<void>) => {
    let flight = plugged.get(check);
    if (!flight) plugged.set(check, (flight = singleFlight(check)));
    return flight;
  };

  /** The last state of each check, so the log hears a change, not every probe. */
  const lastOk = new Map<string, boolean>();

  async function run(name: string, check: () => Promise<void>, isDatabase: boolean): Promise<CheckResult> {
    const started = performance.now();
    let result: CheckResult;
    let failure: unknown;
    try {
      await withTimeout(Promise.resolve().then(check), healthTimeoutMs);
      result = { ok: true, ms: Math.round(performance.now() - started) };
    } catch (err) {
      failure = err;
      const missing = (err as { missing?: boolean }).missing === true;
      result = { ok: false, ms: Math.round(performance.now() - started), reason: missing ? (err as Error).message : reasonOf(err, isDatabase) };
    }
    if (lastOk.get(name) !== result.ok) {
      if (result.ok) {
        if (lastOk.has(name)) app.log.info({ check: name }, `readiness check ${name} passes again`);
      } else app.log.warn({ check: name, err: failure }, `readiness check ${name} failed: ${result.reason}`);
      lastOk.set(name, result.ok);
    }
    return result;
  }

  /** Every readiness check, run side by side. */
  async function readiness(): Promise<Readiness> {
    if (app.lifecycle.draining) return { ok: false, checks: { lifecycle: { ok: false, ms: 0, reason: 'stopping' } } };
    const entries: Array<[string, () => Promise<void>, boolean]> = [
      ['database', database, true],
      ['migrations', migrated, true],
    ];
    for (const [name, check] of app.lifecycle.readinessChecks) if (name !== 'database' && name !== 'migrations') entries.push([name, flightOf(check), false]);
    const results = await Promise.all(entries.map(([name, check, isDatabase]) => run(name, check, isDatabase)));
    const checks = Object.fromEntries(entries.map(([name], i) => [name, results[i]]));
    return { ok: results.every((r) => r.ok), checks };
  }

  app.get(`${apiBase}/health/live`, {
    config: { public: true },
    schema: {
      summary: 'Liveness: the process answers (no check of the database)',
      tags: ['operations'],
      response: { 200: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] } }, required: ['status'] } },
    },
    handler: async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
  });

  app.get(`${apiBase}/health/ready`, {
    config: { public: true },
    schema: {
      summary:
        'Readiness: database round trip, migrations at this release, registered checks (e.g. attachment store); 503 when one fails or the process is stopping',
      tags: ['operations'],
      response: { 200: readySchema, 503: readySchema },
    },
    handler: async (_request, reply) => {
      const { ok, checks } = await readiness();
      return reply
        .code(ok ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send({ status: ok ? 'ok' : 'fail', checks });
    },
  });
};

export default healthPlugin;
