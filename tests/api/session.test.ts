import { describe, expect, it } from 'vitest';
import { roleId } from '../../src/server/db/seed';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { TOUCH_INTERVAL_MS } from '../../src/server/services/sessions';
import { API, type ChangeRoleResult, type Envelope, type UserInfoResult } from '../../src/shared/contract';
import { api, appSuite, createUser, dbTargets, demo, login, sessionOf, withSession } from './helpers';

const TTL_MINUTES = 30;

describe.each(dbTargets())('session and user (%s)', (target) => {
  const { app } = appSuite(target, { build: { sessionTtlMinutes: TTL_MINUTES } });

  const userInfo = (sid: string) => withSession(app, sid, { method: 'GET', url: api(API.userInfo) });
  /** sys_session.id: the token's digest. */
  const rowId = (sid: string) => tokenDigest(app.config.crypto, sid);
  const lastSeen = async (sid: string) =>
    (await app.db.selectFrom('sys_session').select('last_seen_at').where('id', '=', rowId(sid)).executeTakeFirstOrThrow()).last_seen_at;
  const setLastSeen = (sid: string, at: Date) => app.db.updateTable('sys_session').set({ last_seen_at: at }).where('id', '=', rowId(sid)).execute();

  describe('token transport', () => {
    it('accepts the token as __sid query parameter, cookie or x-sid header', async () => {
      const sid = await sessionOf(app, 'nbadmin');
      expect((await userInfo(sid)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: api(API.userInfo), cookies: { __sid: sid } })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: api(API.userInfo), headers: { 'x-sid': sid } })).statusCode).toBe(200);
    });

    it('accepts the extension token as __extend', async () => {
      const reply = await login(app, 'nbadmin', demo('nbadmin').password, demo('nbadmin').orgCode);
      const res = await app.inject({ method: 'GET', url: api(API.getUserInfo), query: { __extend: reply.extendSessionId! } });
      expect(res.json()).toMatchObject({ result: 'true', data: { loginName: 'nbadmin' } });
    });

    it('refuses requests without a token, or with an unknown one, with 401', async () => {
      for (const query of [{}, { __sid: '0'.repeat(32) }, { __sid: 'not-a-token' }] as Record<string, string>[]) {
        const res = await app.inject({ method: 'GET', url: api(API.userInfo), query });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({
          result: 'false',
          success: false,
          isSuccess: false,
          message: '登录已过期，请重新登录',
          errorMsg: '登录已过期，请重新登录',
          code: 'UNAUTHENTICATED',
        });
      }
    });
  });

  describe('inactivity expiry', () => {
    it(`expires a session idle for more than ${TTL_MINUTES} minutes and deletes it`, async () => {
      const sid = await sessionOf(app, 'nbsub');
      await setLastSeen(sid, new Date(Date.now() - (TTL_MINUTES * 60_000 + 1000)));
      expect((await userInfo(sid)).statusCode).toBe(401);
      expect(await app.db.selectFrom('sys_session').select('id').where('id', '=', rowId(sid)).executeTakeFirst()).toBeUndefined();
    });

    it('slides the window on use, writing at most once per touch interval', async () => {
      const sid = await sessionOf(app, 'nbsub');
      const recent = new Date(Date.now() - TOUCH_INTERVAL_MS / 2);
      await setLastSeen(sid, recent);
      await userInfo(sid);
      expect((await lastSeen(sid)).getTime()).toBe(recent.getTime());

      const old = new Date(Date.now() - (TTL_MINUTES * 60_000 - 60_000));
      await setLastSeen(sid, old);
      expect((await userInfo(sid)).statusCode).toBe(200);
      expect((await lastSeen(sid)).getTime()).toBeGreaterThan(Date.now() - 5000);
    });
  });

  describe('user info', () => {
    it('returns the user, the roles and the SSO info', async () => {
      const sid = await sessionOf(app, 'nbmulti');
      const body = (await userInfo(sid)).json<Envelope<UserInfoResult>>();
      expect(body.result).toBe('true');
      expect(body.data!.user).toMatchObject({ loginName: 'nbmulti', name: '刘洋', basicUnitFlag: 1, isUserSeed: 0, currentRole: { name: '使用单位管理员' } });
      expect(body.data!.roleList.map((r) => r.name)).toEqual(['使用单位管理员', '使用单位经办人']);
      expect(body.data!.userSsoInfo).toEqual({ ssoUserId: null, ssoToken: null });
    });

    it('returns the unit and the company info', async () => {
      const sid = await sessionOf(app, 'nbsub');
      const unit = (await withSession(app, sid, { method: 'GET', url: api(API.unit) })).json<Envelope>();
      expect(unit).toMatchObject({ result: 'true', data: { orgname: '宁波甬江特种设备使用有限公司', orgcode: demo('nbsub').orgCode, areacode: '330212' } });
      const company = (await withSession(app, sid, { method: 'GET', url: api(API.companyInfo) })).json<Envelope>();
      expect(company).toMatchObject({ result: 'true', data: { orgname: '宁波甬江特种设备使用有限公司', ssoUserId: null } });
    });
  });

  describe('role switch', () => {
    it('switches to another role of the user and reports its menu ids', async () => {
      const sid = await sessionOf(app, 'nbmulti');
      const res = await withSession(app, sid, { method: 'POST', url: api(API.changeRole), payload: { id: roleId('unitOperator') } });
      const body = res.json<Envelope<ChangeRoleResult>>();
      expect(body).toMatchObject({ result: 'true', data: { currentRole: { id: roleId('unitOperator'), name: '使用单位经办人', roleType: 'unit' } } });
      expect(body.data!.menuIdList).not.toContain('system:bypassAccount');
      const info = (await userInfo(sid)).json<Envelope<UserInfoResult>>();
      expect(info.data!.user.currentRole!.id).toBe(roleId('unitOperator'));
    });

    it('accepts the role id form-encoded', async () => {
      const sid = await sessionOf(app, 'nbmulti');
      const res = await withSession(app, sid, {
        method: 'POST',
        url: api(API.changeRole),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `id=${roleId('unitOperator')}`,
      });
      expect(res.json()).toMatchObject({ result: 'true' });
    });

    it('refuses a role the user does not hold', async () => {
      const sid = await sessionOf(app, 'nbsub');
      const res = await withSession(app, sid, { method: 'POST', url: api(API.changeRole), payload: { id: roleId('authority') } });
      expect(res.json()).toMatchObject({ result: 'false', message: '无权切换到该角色', code: 'ROLE_NOT_OWNED' });
      const info = (await userInfo(sid)).json<Envelope<UserInfoResult>>();
      expect(info.data!.user.currentRole!.id).toBe(roleId('unitOperator'));
    });
  });

  describe('profile update', () => {
    it('saves name, identity card, phone and mobile', async () => {
      const user = await createUser(app);
      const sid = (await login(app, user.loginName, user.password, user.orgCode)).sessionid!;
      const res = await withSession(app, sid, {
        method: 'POST',
        url: api(API.updateInfo),
        payload: { name: ' 赵敏 ', identityCard: '11010519491231002x', phone: '0574-88123456', mobile: '13912345678' },
      });
      expect(res.json()).toMatchObject({ result: 'true', data: { name: '赵敏', idCard: '11010519491231002X', phone: '0574-88123456', mobile: '13912345678' } });
    });

    it('rejects an invalid mobile number with the Chinese rule message', async () => {
      const sid = await sessionOf(app, 'nbsub');
      const res = await withSession(app, sid, { method: 'POST', url: api(API.updateInfo), payload: { name: '李娜', mobile: '12345' } });
      expect(res.json()).toMatchObject({ result: 'false', message: '请输入有效的手机号码' });
    });

    it('rejects an identity card with a wrong check character', async () => {
      const sid = await sessionOf(app, 'nbsub');
      const res = await withSession(app, sid, { method: 'POST', url: api(API.updateInfo), payload: { name: '李娜', identityCard: '110105194912310021' } });
      expect(res.json()).toMatchObject({ result: 'false', message: '请输入有效的身份证号' });
    });
  });

  describe('password change', () => {
    const updatePwd = (sid: string, oldPassword: string, newPassword: string) =>
      withSession(app, sid, { method: 'POST', url: api(API.updatePwd), payload: { oldPassword, newPassword } });

    it('refuses a wrong current password', async () => {
      const user = await createUser(app);
      const sid = (await login(app, user.loginName, user.password, user.orgCode)).sessionid!;
      expect((await updatePwd(sid, 'Wrong@2026', 'Newer@2026')).json()).toMatchObject({ result: 'false', message: '原密码错误' });
    });

    it('refuses a new password breaking the rule with the rule message', async () => {
      const user = await createUser(app);
      const sid = (await login(app, user.loginName, user.password, user.orgCode)).sessionid!;
      for (const weak of ['short1!', 'alllowercase1', 'Abcdefgh12345678!']) {
        expect((await updatePwd(sid, user.password, weak)).json()).toMatchObject({
          result: 'false',
          message: '请输入8-14位含字母、数字和特殊符号的密码',
          code: 'PASSWORD_RULE',
        });
      }
    });

    it('ends every session of the user on success; only the new password logs in', async () => {
      const user = await createUser(app, { password: '12345678' });
      const first = await login(app, user.loginName, user.password, user.orgCode);
      expect(first.user!.simplePwd).toBe(true);
      const other = (await login(app, user.loginName, user.password, user.orgCode)).sessionid!;

      const res = await updatePwd(first.sessionid!, user.password, 'Strong@2026');
      expect(res.json()).toMatchObject({ result: 'true', success: true });
      expect(res.cookies.find((c) => c.name === '__sid')?.value).toBe('');

      expect((await userInfo(first.sessionid!)).statusCode).toBe(401);
      expect((await userInfo(other)).statusCode).toBe(401);
      expect(await login(app, user.loginName, user.password, user.orgCode)).toMatchObject({ result: 'false', message: '账号或密码错误' });
      const again = await login(app, user.loginName, 'Strong@2026', user.orgCode);
      expect(again).toMatchObject({ result: 'true', user: { simplePwd: false } });
    });
  });

  describe('logout', () => {
    it('deletes the session and clears the cookie', async () => {
      const sid = await sessionOf(app, 'nbadmin');
      const res = await withSession(app, sid, { method: 'GET', url: api(API.logout) });
      expect(res.json()).toMatchObject({ result: 'true', message: '退出成功' });
      expect(res.cookies.find((c) => c.name === '__sid')?.value).toBe('');
      expect((await userInfo(sid)).statusCode).toBe(401);
    });

    it('answers success without a session too', async () => {
      expect((await app.inject({ method: 'GET', url: api(API.logout) })).json()).toMatchObject({ result: 'true' });
    });
  });
});
