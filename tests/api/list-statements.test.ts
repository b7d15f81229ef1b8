/**
 * What one list request asks the database (issue 18): with a resolved session, a list page is one
 * statement (page and count together), plus the session epoch on PostgreSQL; the embedded database
 * answers the epoch from its driver while only reads ran since it was read. Session changes still
 * reach the next request, whichever statement made them.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets, sessionOf, withSession } from './helpers';

describe.each(dbTargets())('statements of a list request (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { admin: 'nbadmin' } });

  /** The statements `work` sends through the app's query layer. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const executor = app.db.getExecutor();
    const original = executor.executeQuery.bind(executor);
    const seen: string[] = [];
    executor.executeQuery = ((query, ...rest) => {
      seen.push(query.sql);
      return original(query, ...rest);
    }) as typeof executor.executeQuery;
    try {
      await work();
    } finally {
      executor.executeQuery = original;
    }
    return seen;
  }

  const list = (sid: string, query: Record<string, string> = {}) => withSession(app, sid, { method: 'GET', url: api('/r/equipment/list'), query: { pageSize: '5', ...query } });

  it('lists with one statement (and the epoch on PostgreSQL) once the session is resolved', async () => {
    expect((await list(session.admin)).statusCode).toBe(200);
    const statements = await statementsOf(async () => expect((await list(session.admin, { pageNo: '2' })).json()).toMatchObject({ result: 'true', data: { pageNo: 2, pageSize: 5 } }));
    const epoch = statements.filter((s) => s.includes('sys_session_epoch'));
    expect(statements.length - epoch.length).toBe(1);
    expect(epoch).toHaveLength(target === 'pg' ? 1 : 0);
  });

  it('refuses the next request after a change made in SQL (user disabled), a logout and a role removed', async () => {
    const sid = await sessionOf(app, 'nbsub');
    expect((await list(sid)).statusCode).toBe(200);
    const user = await app.db.selectFrom('sys_user').select(['id', 'status']).where('login_name', '=', 'nbsub').executeTakeFirstOrThrow();
    await sql`UPDATE sys_user SET status = '2' WHERE id = ${user.id}`.execute(app.db);
    try {
      expect((await list(sid)).statusCode).toBe(401);
    } finally {
      await sql`UPDATE sys_user SET status = ${user.status} WHERE id = ${user.id}`.execute(app.db);
    }

    const again = await sessionOf(app, 'nbsub');
    expect((await list(again)).statusCode).toBe(200);
    expect((await withSession(app, again, { method: 'GET', url: api(API.logout) })).json()).toMatchObject({ result: 'true' });
    expect((await list(again)).statusCode).toBe(401);

    const third = await sessionOf(app, 'nbsub');
    expect((await list(third)).statusCode).toBe(200);
    const roles = await app.db.selectFrom('sys_user_role').selectAll().where('user_id', '=', user.id).execute();
    await app.db.deleteFrom('sys_user_role').where('user_id', '=', user.id).execute();
    try {
      expect((await list(third)).statusCode).toBe(403);
    } finally {
      await app.db.insertInto('sys_user_role').values(roles).execute();
    }
  });
});
