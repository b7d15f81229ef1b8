import { describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { API, type Envelope, type Page } from '../../src/shared/contract';
import { api, appSuite, createUser, dbTargets, login, sessionOf, withSession } from './helpers';

interface Account {
  id: string;
  loginName: string;
  name: string;
}

describe.each(dbTargets())('server-side access control (%s)', (target) => {
  const { app } = appSuite(target);

  const list = (sid: string, query: Record<string, string> = {}) => withSession(app, sid, { method: 'GET', url: api(API.bypassAccountList), query });

  it('lets the seed user list the sub-accounts of the unit', async () => {
    const res = await list(await sessionOf(app, 'nbadmin'));
    expect(res.statusCode).toBe(200);
    const page = res.json<Envelope<Page<Account>>>().data!;
    expect(page).toMatchObject({ pageNo: 1, pageSize: 20 });
    expect(page.list.map((a) => a.loginName)).toEqual(expect.arrayContaining(['nbmulti', 'nbsub', 'nbweak']));
    expect(page.list.map((a) => a.loginName)).not.toContain('nbadmin');
    expect(page.count).toBe(page.list.length);
  });

  it('denies a sub-account whose role lacks system:bypassAccount with 403', async () => {
    const res = await list(await sessionOf(app, 'nbsub'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ result: 'false', success: false, isSuccess: false, message: '无权访问', errorMsg: '无权访问', code: 'FORBIDDEN' });
  });

  it('denies a user whose role holds the access id but who is not the seed user', async () => {
    expect((await list(await sessionOf(app, 'nbmulti'))).statusCode).toBe(403);
  });

  it('denies the authority account', async () => {
    expect((await list(await sessionOf(app, 'jgadmin'))).statusCode).toBe(403);
  });

  it('answers an anonymous request with 401', async () => {
    expect((await app.inject({ method: 'GET', url: api(API.bypassAccountList) })).statusCode).toBe(401);
  });

  it('follows the current role: access ends when the seed user switches to a role without it', async () => {
    const seed = await createUser(app, { roles: ['unitAdmin', 'unitOperator'], isUserSeed: 1 });
    const reply = await login(app, seed.loginName, seed.password, seed.orgCode);
    const sid = reply.sessionid!;
    expect((await list(sid)).statusCode).toBe(200);
    const operator = reply.data!.roleList.find((r) => r.name === '使用单位经办人')!;
    await withSession(app, sid, { method: 'POST', url: api(API.changeRole), payload: { id: operator.id } });
    expect((await list(sid)).statusCode).toBe(403);
  });

  it('shows only the rows of the current unit', async () => {
    const otherUnit = await app.db.selectFrom('sys_unit').select('id').where('id', '=', DEMO_UNITS.authority.id).executeTakeFirstOrThrow();
    await app.db
      .insertInto('sys_user')
      .values({
        id: 'f'.repeat(32),
        unit_id: otherUnit.id,
        login_name: 'other_unit_sub',
        name: '他单位子账号',
        password_hash: 'x',
        is_user_seed: 0,
        basic_unit_flag: 1,
        office_id: null,
      })
      .execute();
    const page = (await list(await sessionOf(app, 'nbadmin'), { pageSize: '100' })).json<Envelope<Page<Account>>>().data!;
    expect(page.list.map((a) => a.loginName)).not.toContain('other_unit_sub');
  });

  it('filters by login name and name, and pages', async () => {
    const sid = await sessionOf(app, 'nbadmin');
    const byLogin = (await list(sid, { loginName: 'SUB' })).json<Envelope<Page<Account>>>().data!;
    expect(byLogin.list.map((a) => a.loginName)).toEqual(['nbsub']);
    const byName = (await list(sid, { name: '刘' })).json<Envelope<Page<Account>>>().data!;
    expect(byName.list.map((a) => a.loginName)).toEqual(['nbmulti']);
    const wildcard = (await list(sid, { loginName: '%' })).json<Envelope<Page<Account>>>().data!;
    expect(wildcard.count).toBe(0);

    const all = (await list(sid, { pageSize: '100' })).json<Envelope<Page<Account>>>().data!;
    const second = (await list(sid, { pageNo: '2', pageSize: '1' })).json<Envelope<Page<Account>>>().data!;
    expect(second).toMatchObject({ pageNo: 2, pageSize: 1, count: all.count });
    expect(second.list).toEqual([all.list[1]]);
  });
});
