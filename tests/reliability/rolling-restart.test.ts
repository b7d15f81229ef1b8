/**
 * The production behaviours of stopping and starting (docs/operations.md "Stopping and rolling
 * restarts"), with the server processes the README starts:
 *
 * - a rolling restart of two processes on one PostgreSQL behind HAProxy (the guide's configuration)
 *   under a steady load loses no request; each stopping process finishes the request it was
 *   serving, prints its shutdown steps and exits with status 0;
 * - four processes started at once on an empty database migrate it once and write the demo once;
 * - a request that cannot finish within PORTAL_SHUTDOWN_TIMEOUT is cut and the process exits with 1.
 *
 * A request "in flight" is held deterministically: its headers are sent with `Expect: 100-continue`
 * and the server's 100 Continue shows it began the request (Node answers it just before handing
 * the request to Fastify); its body follows only when the test says so.
 * Needs DATABASE_URL (and /usr/sbin/haproxy for the rolling restart; .ci/run installs both).
 */
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { API } from '../../src/shared/contract';
import { freshPostgresDatabase, logInOver } from '../api/helpers';
import { freePort, haproxyInstalled, startBalancer, waitUntilRouted, type Balancer } from '../support/haproxy';
import { queryRows } from '../support/postgres';
import { startServer, type StartedServer } from '../support/server';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `condition` every 100 ms for at most `limitMs` (generous: a busy machine is slow, not broken). */
async function until(what: string, condition: () => boolean, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs / 1000} s`);
    await sleep(100);
  }
}

interface HeldRequest {
  /** Sends the rest of the body; resolves with the answer (status 0 and the error when the connection broke). */
  finish(): Promise<{ status: number; body: string }>;
  /** The answer, whenever it comes. */
  answer: Promise<{ status: number; body: string }>;
  /** Closes the client's kept-alive connection (after the server is gone). */
  release(): void;
}

/**
 * A browser error report (public, stored in sys_error_log under `mes`) to `baseURL` whose server
 * has begun it — it read the headers and answered 100 Continue — while its body is held back. Sent
 * on a kept-alive connection, as a balancer sends: the client keeps it open after the answer, so a
 * server that left it open would wait for it.
 */
async function heldRequest(baseURL: string, mes: string): Promise<HeldRequest> {
  const body = JSON.stringify({ type: 'script', code: '0', mes, url: '/held' });
  const agent = new Agent({ keepAlive: true });
  const req = request(`${baseURL}/espServer${API.saveErrorLogger}`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve) => {
    req.once('response', (res) => {
      let text = '';
      res.on('data', (chunk) => (text += String(chunk)));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.once('error', (err) => resolve({ status: 0, body: String(err) }));
    });
    req.once('error', (err) => resolve({ status: 0, body: String(err) }));
  });
  const began = new Promise<void>((resolve) => req.once('continue', () => resolve()));
  req.flushHeaders();
  await Promise.race([began, answer.then((a) => Promise.reject(new Error(`answered before its body was sent: ${a.status} ${a.body}`)))]);
  req.write(body.slice(0, 10));
  return {
    answer,
    release: () => agent.destroy(),
    finish: () => {
      req.end(body.slice(10));
      return answer;
    },
  };
}

/** Sends SIGTERM to `server` and waits until it printed that it is draining. */
async function terminate(server: StartedServer): Promise<void> {
  process.kill(server.pid, 'SIGTERM');
  await until('the server printing its drain', () => server.output().includes('SIGTERM: draining'));
}

describe.runIf(process.env.DATABASE_URL && haproxyInstalled())('a rolling restart of two processes behind HAProxy', () => {
  const shared = mkdtempSync(join(tmpdir(), 'portal-rolling-'));
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const servers: StartedServer[] = [];
  const ports: number[] = [];
  let balancer: Balancer | null = null;
  let env: Record<string, string> = {};
  /** Process `i` on its own port, always the same: the balancer's configuration never changes. */
  const start = (i: number) => startServer({ env: { ...env, PORT: String(ports[i]) } });

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // The balancer is the only one believed about the client's address (as the guide sets it).
    env = { DATABASE_URL: database.url, PORTAL_TRUST_PROXY: '127.0.0.1' };
    ports.push(await freePort(), await freePort());
    servers.push(await start(0));
    servers.push(await start(1));
    balancer = await startBalancer(
      shared,
      servers.map((s) => s.baseURL),
    );
  }, 600_000);

  afterAll(async () => {
    await balancer?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
    rmSync(shared, { recursive: true, force: true });
  });

  it('restarts one process, then the other, under load: no request fails, each drains and exits 0', { timeout: 900_000 }, async () => {
    const front = balancer!.url;
    const { reply } = await logInOver(front, 'bladmin');
    expect(reply.result, reply.message).toBe('true');
    const failures: string[] = [];
    const began = Date.now();
    const at = () => `${((Date.now() - began) / 1000).toFixed(1)} s`;
    // Runs until stopped: the restarts take as long as the machine needs.
    const load = autocannon({
      url: `${front}/espServer/r/equipment/list?__sid=${reply.data!.sessionid}&pageSize=20`,
      connections: 20,
      duration: 3600,
    }) as Promise<Result> & {
      stop(): void;
      on(event: 'response', listener: (client: unknown, status: number) => void): void;
      on(event: 'reqError', listener: (error: Error) => void): void;
    };
    load.on('response', (_client, status) => {
      if (status < 200 || status > 299) failures.push(`${at()}: status ${status}`);
    });
    load.on('reqError', (error) => failures.push(`${at()}: ${error.message}`));
    await sleep(3000);

    const phases: string[] = [];
    for (const i of [0, 1]) {
      const old = servers[i];
      const held = await heldRequest(old.baseURL, `held across SIGTERM ${i}`);
      const signalled = Date.now();
      await terminate(old);
      // Still serving its request: the body comes a second after the signal, the answer completes.
      await sleep(1000);
      const answer = await held.finish();
      expect(answer.status, answer.body).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ result: 'true' });
      // It closed the kept-alive connection after the answer rather than wait for the client to.
      expect(await old.exited).toEqual({ code: 0, signal: null });
      held.release();
      const stoppedMs = Date.now() - signalled;
      const lines = stopLines(old.output());
      expect(lines.join('\n')).toMatch(/SIGTERM: draining[^\n]*\n[^\n]*requests in flight finished[^\n]*\n[^\n]*database closed; exiting with status 0/);

      servers[i] = await start(i);
      const routedMs = await waitUntilRouted(balancer!, `portal${i + 1}`);
      phases.push(
        `portal${i + 1}: stopped in ${(stoppedMs / 1000).toFixed(1)} s, new process ready in ${(servers[i].readyMs / 1000).toFixed(1)} s, routed ${(routedMs / 1000).toFixed(1)} s later`,
      );
    }
    // The load goes on a while with both new processes, 20 s in all at least.
    await sleep(Math.max(3000, 20_000 - (Date.now() - began)));
    load.stop();
    const result = await load;

    const stored = await queryRows<{ mes: string }>(database.url, "SELECT mes FROM sys_error_log WHERE mes LIKE 'held across SIGTERM %' ORDER BY mes");
    expect(stored.map((r) => r.mes)).toEqual(['held across SIGTERM 0', 'held across SIGTERM 1']);
    const total = result.requests.total ?? 0;
    const figures = `${total} requests in ${result.duration} s (${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, max ${result.latency.max} ms), errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}`;
    console.log(`rolling restart (20 connections through HAProxy): ${figures}\n  ${phases.join('\n  ')}`);
    expect(failures.slice(0, 20), figures).toEqual([]);
    expect(result.errors + result.timeouts + result.non2xx, figures).toBe(0);
    expect(total).toBeGreaterThan(100);
  });
});

describe.runIf(process.env.DATABASE_URL)('four processes started at once on an empty PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  const servers: StartedServer[] = [];

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  it('all become ready and answer; the migrations ran once, the demo was written once', { timeout: 900_000 }, async () => {
    database = await freshPostgresDatabase();
    const starts = await Promise.allSettled([0, 1, 2, 3].map(() => startServer({ env: { DATABASE_URL: database.url } })));
    for (const s of starts) if (s.status === 'fulfilled') servers.push(s.value);
    expect(starts.filter((s) => s.status === 'rejected').map((s) => String(s.reason))).toEqual([]);

    for (const server of servers) {
      const ready = await fetch(`${server.baseURL}/espServer/health/ready`);
      expect(ready.status, await ready.text()).toBe(200);
      const { reply } = await logInOver(server.baseURL, 'nbadmin');
      expect(reply.result, reply.message).toBe('true');
    }
    const applied = await queryRows<{ name: string }>(database.url, 'SELECT name FROM kysely_migration');
    expect(applied.length).toBe(Object.keys(migrations).length);
    expect(new Set(applied.map((r) => r.name)).size).toBe(applied.length);
    // One seeding: one process wrote it, the demo accounts are there once, and no piece of the
    // demo equipment twice (the demo's generator is seeded: a second run repeats its codes).
    expect(servers.filter((s) => s.output().includes('Seeded demo data')).length).toBe(1);
    const [users] = await queryRows<{ n: number }>(database.url, 'SELECT count(*)::int AS n FROM sys_user');
    expect(users.n).toBe(DEMO_ACCOUNTS.length);
    const [equipment] = await queryRows<{ n: number; coded: number; codes: number }>(
      database.url,
      'SELECT count(*)::int AS n, count(equcode)::int AS coded, count(DISTINCT equcode)::int AS codes FROM equipment',
    );
    expect(equipment.n).toBeGreaterThanOrEqual(350);
    expect(equipment.codes).toBe(equipment.coded);
  });
});

/** The shutdown's progress lines (`[停止 …]`) of a server's output: with output piped each is a JSON log entry, its text in `msg`. */
function stopLines(output: string): string[] {
  const text = (line: string): string => {
    try {
      const entry = JSON.parse(line) as { msg?: unknown };
      return typeof entry.msg === 'string' ? entry.msg : line;
    } catch {
      return line;
    }
  };
  return output
    .split('\n')
    .map(text)
    .filter((l) => l.includes('[停止 '));
}
describe('a request that cannot finish within PORTAL_SHUTDOWN_TIMEOUT', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
  let server: StartedServer | null = null;

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('is cut after the limit and the process exits with status 1, saying why', { timeout: 600_000 }, async () => {
    database = process.env.DATABASE_URL ? await freshPostgresDatabase() : null;
    server = await startServer({ env: { PORTAL_SHUTDOWN_TIMEOUT: '1', ...(database ? { DATABASE_URL: database.url } : {}) } });
    const held = await heldRequest(server.baseURL, 'never finished');
    await terminate(server);
    expect(await server.exited).toEqual({ code: 1, signal: null });
    // The client sees its connection cut, not an answer.
    expect((await held.answer).status).toBe(0);
    held.release();
    const lines = stopLines(server.output());
    expect(lines.join('\n')).toMatch(
      /SIGTERM: draining[^\n]*\(1, at most 1 s\)\n[^\n]*shutdown timeout: 1 s passed, requests still in flight: 1;[^\n]*\n[^\n]*exiting with status 1/,
    );
  });
});
