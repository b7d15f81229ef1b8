/**
 * The session cache across processes: each server process keeps resolved sessions while
 * the database's session epoch is unchanged (migration 0014, services/sessions.ts). Two processes
 * (the README's start path) on one PostgreSQL: a session that process B has cached is ended or
 * changed through process A — logout, the account disabled, the password changed, the role
 * switched — and B's very next request sees it. Needs DATABASE_URL (PGlite is one process).
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { ACCOUNT_API } from '../../src/shared/accounts';
import { API, type Envelope, type UserInfoResult } from '../../src/shared/contract';
import { demo, freshPostgresDatabase, logInOver } from '../api/helpers';
import { startServer, type StartedServer } from '../support/server';

describe.runIf(process.env.DATABASE_URL)('session cache with two processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: StartedServer;
  let b: StartedServer;

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    const env = { DATABASE_URL: database.url };
    // One after the other: the first migrates and seeds, the second finds the database ready.
    a = await startServer({ env });
    b = await startServer({ env });
  }, 600_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((s) => s.stop()));
    await database?.drop();
  });

  const call = async <T>(server: StartedServer, method: 'GET' | 'POST', path: string, sid: string, body?: object) => {
    const res = await fetch(`${server.baseURL}/espServer${path}?__sid=${sid}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  };
  const info = (server: StartedServer, sid: string) => call<UserInfoResult>(server, 'GET', API.userInfo, sid);
  const logIn = async (server: StartedServer, loginName: string) => {
    const { reply } = await logInOver(server.baseURL, loginName);
    expect(reply.result, `${loginName}: ${reply.message}`).toBe('true');
    return reply.data!.sessionid;
  };
  /** B answers the session from its cache (several requests, so a cached answer is what is tested). */
  const warm = async (sid: string) => {
    for (let i = 0; i < 3; i++) expect((await info(b, sid)).status).toBe(200);
  };

  it('ends a session in the other process at once on logout', async () => {
    const sid = await logIn(a, 'nbadmin');
    await warm(sid);
    expect((await call(a, 'GET', API.logout, sid)).body.result).toBe('true');
    const after = await info(b, sid);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
  });

  it('ends the sessions of an account disabled in the other process', async () => {
    const sid = await logIn(a, 'blsub');
    await warm(sid);
    const userId = (await info(b, sid)).body.data!.user.id;
    const authority = await logIn(a, 'jgadmin');
    expect((await call(a, 'POST', ACCOUNT_API.disable, authority, { id: userId })).body.result).toBe('true');
    expect((await info(b, sid)).status).toBe(401);
  });

  it('ends every session of a user whose password was changed in the other process', async () => {
    const onA = await logIn(a, 'nbsub');
    const onB = await logIn(b, 'nbsub');
    await warm(onB);
    const { password } = demo('nbsub');
    expect((await call(a, 'POST', API.updatePwd, onA, { oldPassword: password, newPassword: 'Newer@2026x' })).body.result).toBe('true');
    expect((await info(b, onB)).status).toBe(401);
  });

  it('shows a role switched in the other process on the next request', async () => {
    const sid = await logIn(a, 'nbmulti');
    await warm(sid);
    const before = (await info(b, sid)).body.data!;
    const other = before.roleList.find((r) => r.id !== before.user.currentRole!.id)!;
    expect(other).toBeDefined();
    expect((await call(a, 'POST', API.changeRole, sid, { id: other.id })).body.result).toBe('true');
    expect((await info(b, sid)).body.data!.user.currentRole!.id).toBe(other.id);
    // And back, seen by B again.
    expect((await call(a, 'POST', API.changeRole, sid, { id: before.user.currentRole!.id })).body.result).toBe('true');
    expect((await info(b, sid)).body.data!.user.currentRole!.id).toBe(before.user.currentRole!.id);
  });
});
