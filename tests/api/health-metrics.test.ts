/**
 * Operators' endpoints (plugins/health.ts, plugins/metrics.ts): liveness and readiness without a
 * session, readiness failing on a registered check, on a check that hangs (within the timeout), on
 * a missing migration and while draining; on PostgreSQL, a database that goes away and comes back
 * (connections refused and the pool's connections cut, then allowed again: no restart). Metrics:
 * absent without a token, 401 for a wrong one, the expected series with the right one, route
 * templates as labels (no ids, no session tokens), refused logins by reason, and the separate port.
 */
import { freePort } from '../support/ports';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets, demo, login, makeApp, sessionOf, type TestApp, withSession } from './helpers';
import { queryRows } from '../support/postgres';

interface Check {
  ok: boolean;
  ms: number;
  reason?: string;
}
interface Ready {
  status: 'ok' | 'fail';
  checks: Record<string, Check>;
}

const ready = (app: FastifyInstance) => app.inject({ method: 'GET', url: api('/health/ready') });

/** What no health answer may hold: an address with credentials, a password, a stack frame, a file of the server. */
function expectNoSecrets(res: LightMyRequestResponse): void {
  expect(res.body).not.toMatch(/postgres(ql)?:\/\/|password|\bat [\w.<>$]+ \(|node_modules|\/src\/server\//i);
}

/** Polls `probe` until it returns a value (not undefined), for at most `limitMs`. */
async function until<T>(probe: () => Promise<T | undefined>, what: string, limitMs = 60_000): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The samples of a metric in a Prometheus text exposition: labels text → value. */
function samples(text: string, name: string): Array<{ labels: string; value: number }> {
  const found: Array<{ labels: string; value: number }> = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) found.push({ labels: m[2] ?? '', value: Number(m[3]) });
  }
  return found;
}

describe.each(dbTargets())('health (%s)', (target) => {
  const { app } = appSuite(target, { build: { healthTimeoutMs: 1000 } });

  it('live: 200 {"status":"ok"}, no session needed', async () => {
    const res = await app.inject({ method: 'GET', url: api('/health/live') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('ready: 200 with the database and migrations checks, timed', async () => {
    const res = await ready(app);
    expect(res.statusCode).toBe(200);
    const body = res.json<Ready>();
    expect(body.status).toBe('ok');
    expect(body.checks.database).toMatchObject({ ok: true });
    expect(body.checks.migrations).toMatchObject({ ok: true });
    for (const check of Object.values(body.checks)) expect(check.ms).toBeGreaterThanOrEqual(0);
    expectNoSecrets(res);
  });

  it('ready ignores session tokens, forged or real (no session lookup)', async () => {
    const sid = await sessionOf(app, 'nbsub');
    for (const res of [
      await withSession(app, sid, { method: 'GET', url: api('/health/ready') }),
      await app.inject({ method: 'GET', url: api('/health/ready'), cookies: { __sid: 'f'.repeat(32) } }),
      await app.inject({ method: 'GET', url: api('/health/ready'), query: { __sid: '%00' } }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.json<Ready>().status).toBe('ok');
    }
  });

  it('ready: 503 naming a registered check that throws, with its reason (URL masked); 200 once it passes', async () => {
    let failing = true;
    app.lifecycle.readinessChecks.set('test-store', async () => {
      if (failing) throw new Error('store folder not writable (see postgres://admin:secret@db/x)\n    at fake (/src/server/x.ts:1:1)');
    });
    try {
      const res = await ready(app);
      expect(res.statusCode).toBe(503);
      const body = res.json<Ready>();
      expect(body.status).toBe('fail');
      expect(body.checks['test-store']).toMatchObject({ ok: false, reason: 'store folder not writable (see <url>)' });
      expect(body.checks.database.ok).toBe(true);
      expectNoSecrets(res);
      expect(res.body).not.toContain('secret');

      failing = false;
      const again = await ready(app);
      expect(again.statusCode).toBe(200);
      expect(again.json<Ready>().checks['test-store']).toMatchObject({ ok: true });
    } finally {
      app.lifecycle.readinessChecks.delete('test-store');
    }
  });

  it('ready: a check that never answers fails after PORTAL_HEALTH_TIMEOUT_MS, and probes meanwhile join it', async () => {
    let calls = 0;
    app.lifecycle.readinessChecks.set('test-hang', () => {
      calls++;
      return new Promise<void>(() => undefined);
    });
    try {
      const started = Date.now();
      const [first, second] = await Promise.all([ready(app), ready(app)]);
      const elapsed = Date.now() - started;
      for (const res of [first, second]) {
        expect(res.statusCode).toBe(503);
        expect(res.json<Ready>().checks['test-hang']).toMatchObject({ ok: false, reason: 'timed out after 1000 ms' });
      }
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(20_000); // the timeout, not the check, ended it (generous for a loaded machine)
      expect((await ready(app)).statusCode).toBe(503);
      expect(calls).toBe(1); // the hanging run is joined, not repeated
    } finally {
      app.lifecycle.readinessChecks.delete('test-hang');
    }
    expect((await ready(app)).statusCode).toBe(200);
  });

  it('ready: a database migrated by a newer release is ready, one missing a migration is not', async () => {
    const names = Object.keys(migrations);
    const last = names[names.length - 1];
    const row = await app.db
      .selectFrom('kysely_migration' as never)
      .selectAll()
      .where('name' as never, '=', last as never)
      .executeTakeFirstOrThrow();
    await app.db
      .insertInto('kysely_migration' as never)
      .values({ name: '9999_from_a_newer_release', timestamp: new Date().toISOString() })
      .execute();
    try {
      expect((await ready(app)).statusCode).toBe(200);
      await app.db
        .deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', last as never)
        .execute();
      const res = await ready(app);
      expect(res.statusCode).toBe(503);
      expect(res.json<Ready>().checks.migrations).toMatchObject({ ok: false, reason: `not applied: ${last}` });
      expect(res.json<Ready>().checks.database.ok).toBe(true);
    } finally {
      await app.db
        .insertInto('kysely_migration' as never)
        .values(row)
        .onConflict((oc) => (oc as never as { doNothing(): never }).doNothing())
        .execute();
      await app.db
        .deleteFrom('kysely_migration' as never)
        .where('name' as never, '=', '9999_from_a_newer_release' as never)
        .execute();
    }
    expect((await ready(app)).statusCode).toBe(200);
  });

  it('ready: 503 "stopping" while draining; live still answers', async () => {
    app.lifecycle.draining = true;
    try {
      const res = await ready(app);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'fail', checks: { lifecycle: { ok: false, ms: 0, reason: 'stopping' } } });
      expect((await app.inject({ method: 'GET', url: api('/health/live') })).statusCode).toBe(200);
    } finally {
      app.lifecycle.draining = false;
    }
    expect((await ready(app)).statusCode).toBe(200);
  });

  it('metrics are off by default: no /metrics route (404 envelope), no registry', async () => {
    expect(app.metrics).toBeNull();
    const res = await app.inject({ method: 'GET', url: api('/metrics'), headers: { authorization: 'Bearer anything' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ result: 'false', code: 'NOT_FOUND' });
  });

  it("documents the operators' routes as public", async () => {
    const doc = (await app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, { 'x-access'?: string }>> }>();
    expect(doc.paths[api('/health/live')]?.get?.['x-access']).toBe('public');
    expect(doc.paths[api('/health/ready')]?.get?.['x-access']).toBe('public');
  });
});

describe.each(dbTargets())('metrics on the main port (%s)', (target) => {
  const token = 'metrics-token-for-tests-7f3a9c';
  const { app } = appSuite(target, { build: { metricsToken: token } });
  const scrape = (authorization?: string) => app.inject({ method: 'GET', url: api('/metrics'), headers: authorization ? { authorization } : {} });

  it('401 (envelope) without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Bearer ${token}x`, `Basic ${token}`, `Bearer ${token.slice(0, -1)}`, 'Bearer ']) {
      const res = await scrape(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toMatchObject({ result: 'false', code: 'METRICS_TOKEN_INVALID', message: '监控令牌无效' });
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.body).not.toContain('process_cpu');
    }
  });

  it('200 with the token: HTTP, sessions, login failures, SMS outbox, process and event-loop series', async () => {
    const sid = await sessionOf(app, 'nbsub');
    const { loginName, orgCode } = demo('nbsub');
    expect((await login(app, loginName, 'Wrong@2026x', orgCode)).code).toBe('INVALID_CREDENTIALS');
    await app.db
      .insertInto('sys_sms_outbox')
      .values({ id: 'a'.repeat(32), mobile: '13800000000', purpose: 'test', text: 'metrics test', provider: 'outbox' })
      .execute();
    // A route with a path parameter, called with a session token in the query.
    const orderNo = 'ORDER4242424242';
    await withSession(app, sid, { method: 'GET', url: api(`/pay/sandbox/${orderNo}`) });
    await app.inject({ method: 'GET', url: api(`/no/such/place/${orderNo}`) });

    const res = await scrape(`Bearer ${token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const text = res.body;
    for (const name of [
      'portal_http_requests_total',
      'portal_http_request_duration_seconds_bucket',
      'portal_login_failures_total',
      'portal_sessions_open',
      'portal_sms_outbox_last_hour',
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name}(\\{| )`, 'm'));
    }
    // PostgreSQL reports its pool; the embedded database has none to report.
    for (const name of ['portal_db_pool_in_use', 'portal_db_pool_idle', 'portal_db_pool_waiting']) {
      expect(samples(text, name).length, name).toBe(target === 'pg' ? 1 : 0);
    }
    if (target === 'pg') expect(samples(text, 'portal_db_pool_idle')[0].value + samples(text, 'portal_db_pool_in_use')[0].value).toBeGreaterThanOrEqual(1);

    expect(samples(text, 'portal_login_failures_total')).toEqual([{ labels: '{reason="INVALID_CREDENTIALS"}', value: 1 }]);
    expect(text).not.toContain(loginName);
    expect(samples(text, 'portal_sessions_open')[0].value).toBeGreaterThanOrEqual(1);
    expect(samples(text, 'portal_sms_outbox_last_hour')[0].value).toBeGreaterThanOrEqual(1);

    // Route labels are templates: no ids, no session token, no query.
    const routes = samples(text, 'portal_http_requests_total').map((s) => /route="([^"]*)"/.exec(s.labels)![1]);
    expect(routes).toEqual(expect.arrayContaining([api(API.login), api('/pay/sandbox/:orderNo'), 'unmatched']));
    for (const route of routes) {
      expect(route).not.toContain(orderNo);
      expect(route).not.toContain(sid);
      expect(route).not.toMatch(/[?&]|__sid/);
    }
    const login200 = samples(text, 'portal_http_requests_total').find((s) => s.labels === `{method="POST",route="${api(API.login)}",status_code="200"}`);
    expect(login200?.value).toBeGreaterThanOrEqual(2);
  });
});

describe.each(dbTargets())('metrics on a port of their own (%s)', (target) => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    t = await makeApp(target, { metricsPort: port, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('opens when the app listens, serves only GET /metrics, closes with the app', async () => {
    const url = `http://127.0.0.1:${port}`;
    // Not before the app listens: building it alone opens no port.
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // The listener's own promise: a port it cannot take fails here, with its reason, not after a minute of polling.
    await Promise.all(t.app.lifecycle.afterListen);
    const res = await until(async () => {
      const r = await fetch(`${url}/metrics`).catch(() => undefined);
      return r?.status === 200 ? r : undefined;
    }, 'the metrics listener');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^portal_sessions_open /m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);

    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/espServer/health/ready`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(405);
    // The main port has no /metrics without a token, and its requests are counted on the other port.
    expect((await fetch(`${address}/espServer/metrics`)).status).toBe(404);
    expect((await fetch(`${address}/espServer/health/live`)).status).toBe(200);
    const after = await (await fetch(`${url}/metrics`)).text();
    expect(after).toContain(`route="/espServer/health/live",status_code="200"`);

    await t.app.close();
    await until(
      async () =>
        (await fetch(`${url}/metrics`)
          .then(() => false)
          .catch(() => true))
          ? true
          : undefined,
      'the metrics listener to close',
    );
  });
});

/**
 * The database going away and coming back, on PostgreSQL: new connections refused
 * (ALLOW_CONNECTIONS false) and the pool's open ones terminated, as a failover or an
 * administrator's maintenance does; then allowed again. The pool reconnects by itself.
 */
describe.runIf(process.env.DATABASE_URL)('health when PostgreSQL goes away (pg)', () => {
  const timeoutMs = 2000;
  const token = 'metrics-token-db-down';
  let t: TestApp;
  let database: string;
  const admin = (text: string) => queryRows(process.env.DATABASE_URL!, text);
  const allow = (on: boolean) => admin(`ALTER DATABASE ${database} ALLOW_CONNECTIONS ${on}`);

  beforeAll(async () => {
    t = await makeApp('pg', { healthTimeoutMs: timeoutMs, metricsToken: token });
    database = (await t.app.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()).name;
  });
  afterAll(async () => {
    if (database) await allow(true).catch(() => undefined);
    await t?.close();
  });

  it('answers 503 within the timeout while it is away, and 200 again when it returns, without a restart', async () => {
    expect((await ready(t.app)).statusCode).toBe(200);

    await allow(false);
    await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${database}' AND pid <> pg_backend_pid()`);
    const down = await until(async () => {
      const started = Date.now();
      const res = await ready(t.app);
      const elapsed = Date.now() - started;
      return res.statusCode === 503 ? { res, elapsed } : undefined;
    }, 'ready to answer 503');
    const body = down.res.json<Ready>();
    expect(body.status).toBe('fail');
    expect(body.checks.database.ok).toBe(false);
    expect(body.checks.database.reason).toMatch(/^(query failed|timed out)/);
    expect(down.elapsed).toBeLessThan(timeoutMs + 10_000); // bounded by the timeout (generous margin for a loaded machine)
    expectNoSecrets(down.res);
    expect(down.res.body).not.toContain(database);

    // Every probe while it is away answers 503 within the timeout, and a scrape still answers.
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      expect((await ready(t.app)).statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(timeoutMs + 10_000);
    }
    const scrape = await t.app.inject({ method: 'GET', url: api('/metrics'), headers: { authorization: `Bearer ${token}` } });
    expect(scrape.statusCode).toBe(200);
    expect(scrape.body).toMatch(/^portal_db_pool_waiting /m);

    await allow(true);
    const up = await until(async () => {
      const res = await ready(t.app);
      return res.statusCode === 200 ? res : undefined;
    }, 'ready to answer 200 again');
    expect(up.json<Ready>().checks.database.ok).toBe(true);
    // The app works again, not only the probe.
    expect((await sessionOf(t.app, 'nbsub')).length).toBeGreaterThan(0);
  }, 180_000);
});
