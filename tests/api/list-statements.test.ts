/**
 * What one list request asks the database: with a resolved session, a list page is one
 * statement (page and count together), plus the session epoch on PostgreSQL; its first page in the
 * default order is read straight from the table, later pages and other orders ids first; the embedded database
 * answers the epoch from its driver while only reads ran since it was read; an unfiltered list of
 * an owner the table's statistics put well below the count's cap is counted without it. Session
 * changes still reach the next request, whichever statement made them.
 */
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { API, type Page } from '../../src/shared/contract';
import { api, appSuite, call, dbTargets, sessionOf, withSession } from './helpers';

describe.each(dbTargets())('statements of a list request (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { admin: 'nbadmin', second: 'bladmin', authority: 'jgadmin' } });

  /** The statements `work` sends through the app's query layer. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const executor = app.db.getExecutor();
    const original = executor.executeQuery.bind(executor);
    const seen: string[] = [];
    executor.executeQuery = (query, ...rest) => {
      seen.push(query.sql);
      return original(query, ...rest);
    };
    try {
      await work();
    } finally {
      executor.executeQuery = original;
    }
    return seen;
  }

  const list = (sid: string, query: Record<string, string> = {}) =>
    withSession(app, sid, { method: 'GET', url: api('/r/equipment/list'), query: { pageSize: '5', ...query } });

  it('lists with one statement (and the epoch on PostgreSQL) once the session is resolved', async () => {
    expect((await list(session.admin)).statusCode).toBe(200);
    const statements = await statementsOf(async () =>
      expect((await list(session.admin, { pageNo: '2' })).json()).toMatchObject({ result: 'true', data: { pageNo: 2, pageSize: 5 } }),
    );
    const epoch = statements.filter((s) => s.includes('sys_session_epoch'));
    expect(statements.length - epoch.length).toBe(1);
    expect(epoch).toHaveLength(target === 'pg' ? 1 : 0);
  });

  it('reads the first page in the default order straight from the table and later pages ids first, with the same rows', async () => {
    for (let i = 1; i <= 12; i++)
      expect((await call(app, session.admin, 'POST', '/r/demo-notice/save', { title: `分页通知${i}`, category: '1', content: '正文' })).body.result).toBe(
        'true',
      );
    const ids = async (query: Record<string, string>) => {
      let rows: { id: string }[] = [];
      const statements = await statementsOf(async () => {
        const reply = await withSession(app, session.admin, { method: 'GET', url: api('/r/demo-notice/list'), query: { pageSize: '5', ...query } });
        expect(reply.statusCode).toBe(200);
        rows = reply.json<{ data: Page<{ id: string }> }>().data.list;
      });
      const page = statements.filter((s) => !s.includes('sys_session_epoch') && !s.includes('pg_stats'));
      expect(page).toHaveLength(1);
      return { ids: rows.map((r) => r.id), idsFirst: page[0].includes('WHERE id IN (SELECT id') };
    };
    const ten = await ids({ pageSize: '10' });
    const first = await ids({ pageNo: '1' });
    const second = await ids({ pageNo: '2' });
    expect(ten.ids).toHaveLength(10);
    expect([ten.idsFirst, first.idsFirst, second.idsFirst]).toEqual([false, false, true]);
    expect([...first.ids, ...second.ids]).toEqual(ten.ids);
    // Another order: ids first from the first page on.
    const sorted = await ids({ pageSize: '10', orderBy: 'createDate desc' });
    expect(sorted.idsFirst).toBe(true);
    expect(sorted.ids).toHaveLength(10);
  });

  it('reads the first page in the default order from the index without sorting, though rows share their creation time', async () => {
    // As rows written by one statement do (an import, the demo data): the index must order them by id too.
    for (let i = 1; i <= 30; i++)
      expect((await call(app, session.admin, 'POST', '/r/demo-notice/save', { title: `同时通知${i}`, category: '1', content: '正文' })).body.result).toBe(
        'true',
      );
    await sql`UPDATE demo_notice SET created_at = (SELECT min(created_at) FROM demo_notice)`.execute(app.db);
    await sql`ANALYZE demo_notice`.execute(app.db);
    const executor = app.db.getExecutor();
    const original = executor.executeQuery.bind(executor);
    const pages: CompiledQuery[] = [];
    executor.executeQuery = (query, ...rest) => {
      if (query.sql.includes('json_agg')) pages.push(query);
      return original(query, ...rest);
    };
    try {
      const reply = await withSession(app, session.admin, { method: 'GET', url: api('/r/demo-notice/list'), query: { pageSize: '5' } });
      expect(reply.statusCode).toBe(200);
    } finally {
      executor.executeQuery = original;
    }
    expect(pages).toHaveLength(1);
    const { rows } = await app.db.executeQuery<{ 'QUERY PLAN': unknown }>(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${pages[0].sql}`, [...pages[0].parameters]));
    type PlanNode = { 'Node Type': string; Plans?: PlanNode[] };
    const plan = rows[0]['QUERY PLAN'];
    const [{ Plan: root }] = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: PlanNode }];
    const nodes: string[] = [];
    const walk = (node: PlanNode) => {
      nodes.push(node['Node Type']);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(root);
    expect(nodes).toContain('Limit');
    expect(nodes.filter((n) => n.includes('Sort'))).toEqual([]);
  });

  it('asks for a kept plan only when nothing but the owner equality limits the list', async () => {
    const pageStatement = async (sid: string, query: Record<string, string> = {}) => {
      await list(sid); // the session resolved before
      const statements = await statementsOf(async () =>
        expect((await withSession(app, sid, { method: 'GET', url: api('/r/demo-notice/list'), query })).statusCode).toBe(200),
      );
      const page = statements.filter((s) => !s.includes('sys_session_epoch') && !s.includes('pg_stats'));
      expect(page).toHaveLength(1);
      return page[0];
    };
    expect(await pageStatement(session.admin)).toMatch(/^\/\* keep plan \*\/ SELECT /);
    expect(await pageStatement(session.admin, { pageNo: '3' })).toMatch(/^\/\* keep plan \*\/ SELECT /);
    // A filter's or an overseen area's best plan depends on the values: planned per request.
    expect(await pageStatement(session.admin, { title: '分页' })).toMatch(/^SELECT /);
    expect(await pageStatement(session.authority)).toMatch(/^SELECT /);
  });

  it('counts without the cap an owner the statistics put well below it, and caps the rest', async () => {
    const page = async (resource: string, sid: string, query: Record<string, string> = {}) => {
      let count = -1;
      const statements = await statementsOf(async () => {
        const reply = await withSession(app, sid, { method: 'GET', url: api(`/r/${resource}/list`), query });
        expect(reply.statusCode).toBe(200);
        count = reply.json<{ data: { count: number } }>().data.count;
      });
      const listed = statements.filter((s) => s.includes('json_agg'));
      expect(listed).toHaveLength(1);
      return { capped: listed[0].includes(') AS matching)'), count };
    };
    if (target !== 'pg') {
      // The embedded database never analyzes: no statistics, so the count keeps its cap.
      expect((await page('demo-notice', session.admin)).capped).toBe(true);
    }
    for (let i = 1; i <= 3; i++)
      expect((await call(app, session.second, 'POST', '/r/demo-notice/save', { title: `北仑通知${i}`, category: '1', content: '正文' })).body.result).toBe(
        'true',
      );
    await sql`ANALYZE demo_notice`.execute(app.db);
    const unitId = (await app.db.selectFrom('sys_user').select('unit_id').where('login_name', '=', 'bladmin').executeTakeFirstOrThrow()).unit_id;
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM demo_notice WHERE unit_id = ${unitId}`.execute(app.db);
    expect(rows[0].n).toBeGreaterThanOrEqual(3);
    expect(await page('demo-notice', session.second)).toEqual({ capped: false, count: rows[0].n });
    expect(await page('demo-notice', session.second, { pageNo: '2', pageSize: '2' })).toEqual({ capped: false, count: rows[0].n });
    // A filter, or an overseen area, is not estimated: capped.
    expect(await page('demo-notice', session.second, { title: '北仑' })).toEqual({ capped: true, count: 3 });
    expect((await page('demo-notice', session.authority)).capped).toBe(true);
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
