/**
 * Session tokens at rest and the password policy (migration 0020): the table keeps the digest of
 * the token the browser holds, never the token, and sessions written before the migration keep
 * working; PORTAL_PASSWORD_HISTORY, PORTAL_PASSWORD_MAX_AGE_DAYS and PORTAL_SINGLE_SESSION, each
 * with its Chinese answer, and the defaults that leave logins as they were.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/server/db/migrations/index';
import { newId } from '../../src/server/db/ids';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { purgeExpiredSessions } from '../../src/server/services/sessions';
import { API } from '../../src/shared/contract';
import { api, appSuite, createUser, dbTargets, demo, login, withSession, type TestUser } from './helpers';
import { match } from '../support/match';

const MAX_AGE_DAYS = 90;

describe.each(dbTargets())('session tokens and password policy (%s)', (target) => {
  describe('defaults', () => {
    const { app } = appSuite(target);
    const userInfo = (sid: string) => withSession(app, sid, { method: 'GET', url: api(API.userInfo) });
    const updatePwd = (sid: string, oldPassword: string, newPassword: string) =>
      withSession(app, sid, { method: 'POST', url: api(API.updatePwd), payload: { oldPassword, newPassword } });
    const loggedIn = async (user: TestUser, password = user.password) => {
      const reply = await login(app, user.loginName, password, user.orgCode);
      expect(reply.result, reply.message).toBe('true');
      return reply;
    };

    // First: it takes the sessions table back to the schema before the migration and forward again.
    it('migrates a session written with the raw token before the upgrade: it keeps working, stored by its digest', async () => {
      const migration = migrations['0020_session_digest'];
      const { id: userId } = await createUser(app);
      await migration.down!(app.db);
      const token = newId();
      const extendToken = newId();
      await app.db
        .insertInto('sys_session')
        .values({ id: token, extend_id: extendToken, user_id: userId, role_id: null, simple_pwd: false, data: '{}' })
        .execute();
      await migration.up(app.db);

      const rows = await app.db.selectFrom('sys_session').select(['id', 'extend_id']).where('user_id', '=', userId).execute();
      expect(rows).toEqual([{ id: tokenDigest('standard', token), extend_id: tokenDigest('standard', extendToken) }]);
      expect((await userInfo(token)).json()).toMatchObject({ result: 'true', data: { user: { id: userId } } });
      expect((await app.inject({ method: 'GET', url: api(API.getUserInfo), query: { __extend: extendToken } })).json()).toMatchObject({
        result: 'true',
        data: { id: userId },
      });
    });

    it('gives the browser the token and keeps only its digest', async () => {
      const user = await createUser(app);
      const reply = await loggedIn(user);
      const token = reply.sessionid!;
      const extendToken = reply.extendSessionId!;
      const { rows } = await sql<{ row: string }>`SELECT s::text AS row FROM sys_session s WHERE s.user_id = ${user.id}`.execute(app.db);
      expect(rows).toHaveLength(1);
      expect(rows[0].row).not.toContain(token);
      expect(rows[0].row).not.toContain(extendToken);
      const row = await app.db.selectFrom('sys_session').select(['id', 'extend_id']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ id: tokenDigest(app.config.crypto, token), extend_id: tokenDigest(app.config.crypto, extendToken) });
      // The digest itself opens nothing.
      expect((await userInfo(row.id)).statusCode).toBe(401);
      expect((await userInfo(token)).statusCode).toBe(200);
      // Logout deletes the row by its digest.
      expect((await withSession(app, token, { method: 'GET', url: api(API.logout) })).json()).toMatchObject({ result: 'true' });
      expect(await app.db.selectFrom('sys_session').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    });

    it('keeps both sessions of an account logged in twice, and does not age passwords', async () => {
      const user = await createUser(app);
      await app.db
        .updateTable('sys_user')
        .set({ password_changed_at: new Date(Date.now() - 3650 * 86_400_000) })
        .where('id', '=', user.id)
        .execute();
      const first = await loggedIn(user);
      const second = await loggedIn(user);
      expect(first.user).toMatchObject({ passwordMustChange: false, passwordChangeReason: null });
      expect((await userInfo(first.sessionid!)).statusCode).toBe(200);
      expect((await userInfo(second.sessionid!)).statusCode).toBe(200);
      expect((await withSession(app, first.sessionid!, { method: 'GET', url: api(API.unit) })).json()).toMatchObject({ result: 'true' });
    });

    it('refuses a new password that is one of the last five, and takes a new one', async () => {
      const user = await createUser(app);
      const passwords = [user.password, 'Second@2026', 'Third@2026x', 'Fourth@2026', 'Fifth@2026x'];
      for (let i = 1; i < passwords.length; i++) {
        const sid = (await loggedIn(user, passwords[i - 1])).sessionid!;
        expect((await updatePwd(sid, passwords[i - 1], passwords[i])).json(), passwords[i]).toMatchObject({ result: 'true' });
      }
      const sid = (await loggedIn(user, passwords[4])).sessionid!;
      // The first is one of the last five (the current one counts): refused, nothing changes.
      const refused = await updatePwd(sid, passwords[4], passwords[0]);
      expect(refused.json()).toEqual({
        result: 'false',
        success: false,
        isSuccess: false,
        message: '新密码不能与最近 5 次使用过的密码相同',
        errorMsg: '新密码不能与最近 5 次使用过的密码相同',
        code: 'PASSWORD_REUSED',
        data: { count: 5 },
      });
      expect((await updatePwd(sid, passwords[4], passwords[2])).json()).toMatchObject({ code: 'PASSWORD_REUSED' });
      expect((await userInfo(sid)).statusCode).toBe(200);
      expect(await app.db.selectFrom('sys_password_history').select('id').where('user_id', '=', user.id).execute()).toHaveLength(4);

      expect((await updatePwd(sid, passwords[4], 'Sixth@2026x')).json()).toMatchObject({ result: 'true' });
      // Only the four before the current one are kept; the first has left the window of five.
      expect(await app.db.selectFrom('sys_password_history').select('id').where('user_id', '=', user.id).execute()).toHaveLength(4);
      const again = (await loggedIn(user, 'Sixth@2026x')).sessionid!;
      expect((await updatePwd(again, 'Sixth@2026x', passwords[0])).json()).toMatchObject({ result: 'true' });
      expect(await app.db.selectFrom('sys_user').select('password_changed_at').where('id', '=', user.id).executeTakeFirstOrThrow()).toMatchObject({
        password_changed_at: match.any(Date),
      });
    });
  });

  describe(`PORTAL_PASSWORD_MAX_AGE_DAYS=${MAX_AGE_DAYS}, PORTAL_SINGLE_SESSION=on`, () => {
    const { app } = appSuite(target, { build: { passwordMaxAgeDays: MAX_AGE_DAYS, singleSession: true } });
    const userInfo = (sid: string) => withSession(app, sid, { method: 'GET', url: api(API.userInfo) });

    it('makes a password older than the limit change first, with its own message, until it is changed', async () => {
      const user = await createUser(app);
      await app.db
        .updateTable('sys_user')
        .set({ password_changed_at: new Date(Date.now() - (MAX_AGE_DAYS + 1) * 86_400_000) })
        .where('id', '=', user.id)
        .execute();
      const reply = await login(app, user.loginName, user.password, user.orgCode);
      expect(reply).toMatchObject({ result: 'true', user: { passwordMustChange: true, passwordChangeReason: 'expired' } });
      const sid = reply.sessionid!;
      const refused = await withSession(app, sid, { method: 'GET', url: api(API.unit) });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ result: 'false', code: 'PASSWORD_EXPIRED', message: `密码已超过 ${MAX_AGE_DAYS} 天未修改，请修改密码后继续使用` });
      expect((await userInfo(sid)).json()).toMatchObject({ result: 'true', data: { user: { passwordMustChange: true, passwordChangeReason: 'expired' } } });

      const changed = await withSession(app, sid, {
        method: 'POST',
        url: api(API.updatePwd),
        payload: { oldPassword: user.password, newPassword: 'Renewed@2026' },
      });
      expect(changed.json()).toMatchObject({ result: 'true' });
      const after = await login(app, user.loginName, 'Renewed@2026', user.orgCode);
      expect(after).toMatchObject({ result: 'true', user: { passwordMustChange: false, passwordChangeReason: null } });
      expect((await withSession(app, after.sessionid!, { method: 'GET', url: api(API.unit) })).json()).toMatchObject({ result: 'true' });
    });

    it('keeps the administrator reason for a password an administrator set', async () => {
      const user = await createUser(app);
      await app.db.updateTable('sys_user').set({ password_must_change: true }).where('id', '=', user.id).execute();
      const reply = await login(app, user.loginName, user.password, user.orgCode);
      expect(reply.user).toMatchObject({ passwordMustChange: true, passwordChangeReason: 'administrator' });
      expect((await withSession(app, reply.sessionid!, { method: 'GET', url: api(API.unit) })).json()).toMatchObject({
        code: 'PASSWORD_MUST_CHANGE',
        message: '请先修改管理员设置的初始密码',
      });
    });

    it('ends the earlier session of an account at a new login and tells it why', async () => {
      const user = await createUser(app);
      const first = await login(app, user.loginName, user.password, user.orgCode);
      expect((await userInfo(first.sessionid!)).statusCode).toBe(200);
      const second = await login(app, user.loginName, user.password, user.orgCode);
      expect(second.result).toBe('true');

      const ended = await userInfo(first.sessionid!);
      expect(ended.statusCode).toBe(401);
      expect(ended.json()).toEqual({
        result: 'false',
        success: false,
        isSuccess: false,
        message: '您的账号已在其他地方登录，当前会话已结束',
        errorMsg: '您的账号已在其他地方登录，当前会话已结束',
        code: 'SESSION_SUPERSEDED',
      });
      // The extension token of the ended session too; the new session works; a public call is anonymous.
      expect((await app.inject({ method: 'GET', url: api(API.getUserInfo), query: { __extend: first.extendSessionId! } })).json()).toMatchObject({
        code: 'SESSION_SUPERSEDED',
      });
      expect((await userInfo(second.sessionid!)).statusCode).toBe(200);
      expect((await withSession(app, first.sessionid!, { method: 'GET', url: api(API.appConfig) })).statusCode).toBe(200);
      // Other accounts keep theirs.
      const other = await login(app, 'nbsub', demo('nbsub').password, demo('nbsub').orgCode);
      expect((await userInfo(second.sessionid!)).statusCode).toBe(200);
      expect((await userInfo(other.sessionid!)).statusCode).toBe(200);

      // Kept one session lifetime: then the ended session is just expired.
      const digest = tokenDigest(app.config.crypto, first.sessionid!);
      await purgeExpiredSessions(app.db, app.config.sessionTtlMinutes, new Date(Date.now() + (app.config.sessionTtlMinutes + 1) * 60_000));
      expect(await app.db.selectFrom('sys_session_end').select('digest').where('digest', '=', digest).execute()).toEqual([]);
      expect((await userInfo(first.sessionid!)).json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    });
  });
  describe('PORTAL_CRYPTO=sm', () => {
    const { app } = appSuite(target, { build: { crypto: 'sm' } });

    it('keeps the SM3 digest of the token, and a session left by the standard mode ends cleanly', async () => {
      const user = await createUser(app);
      const reply = await login(app, user.loginName, user.password, user.orgCode);
      expect(reply.result, reply.message).toBe('true');
      const token = reply.sessionid!;
      const row = await app.db.selectFrom('sys_session').select(['id', 'extend_id']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ id: tokenDigest('sm', token), extend_id: tokenDigest('sm', reply.extendSessionId!) });
      expect(row.id).not.toBe(tokenDigest('standard', token));
      expect((await withSession(app, token, { method: 'GET', url: api(API.userInfo) })).statusCode).toBe(200);

      // A session written while the portal ran in the standard mode: its SHA-256 digest matches nothing now.
      const old = newId();
      await app.db
        .insertInto('sys_session')
        .values({
          id: tokenDigest('standard', old),
          extend_id: tokenDigest('standard', newId()),
          user_id: user.id,
          role_id: null,
          simple_pwd: false,
          data: '{}',
        })
        .execute();
      const refused = await withSession(app, old, { method: 'GET', url: api(API.userInfo) });
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ result: 'false' });
    });
  });
});
