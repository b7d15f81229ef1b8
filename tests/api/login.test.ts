import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { LOCK_MINUTES, MAX_FAILED_LOGINS } from '../../src/server/services/auth';
import { passwordHasher } from '../../src/server/services/password';
import { signSsoToken } from '../../src/server/services/sso';
import { API } from '../../src/shared/contract';
import { api, appSuite, createUser, dbTargets, demo, encrypt, login, loginRequest, publicKey, type LoginReply } from './helpers';

describe.each(dbTargets())('login (%s)', (target) => {
  const { app } = appSuite(target);
  afterEach(() => vi.restoreAllMocks());

  function expectFailure(reply: LoginReply, message: string) {
    expect(reply).toMatchObject({ result: 'false', success: false, isSuccess: false, message, errorMsg: message });
    expect(reply.sessionid).toBeUndefined();
  }

  it('publishes an RSA public key as SPKI PEM and names the algorithm', async () => {
    expect(await publicKey(app)).toMatch(/^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    expect((await app.inject({ method: 'GET', url: api(API.publicKey) })).json()).toMatchObject({ data: { algorithm: 'RSA-OAEP' } });
  });

  it('logs the seed user in with session ids in data and at the top level, and sets the __sid cookie', async () => {
    const { loginName, password, orgCode } = demo('nbadmin');
    const res = await loginRequest(app, loginName, password, orgCode);
    expect(res.statusCode).toBe(200);
    const reply = res.json<LoginReply>();
    expect(reply).toMatchObject({ result: 'true', success: true, isSuccess: true, message: '登录成功' });
    const data = reply.data!;
    expect(data.sessionid).toMatch(/^[0-9a-f]{32}$/);
    expect(data.sessionId).toBe(data.sessionid);
    expect(data.extendSessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(data.extendSessionId).not.toBe(data.sessionid);
    expect(reply.sessionid).toBe(data.sessionid);
    expect(reply.sessionId).toBe(data.sessionid);
    expect(reply.extendSessionId).toBe(data.extendSessionId);
    expect(reply.user).toEqual(data.user);
    expect(data.user).toMatchObject({
      loginName,
      isUserSeed: 1,
      basicUnitFlag: 0,
      simplePwd: false,
      orgName: DEMO_UNITS.using.orgname,
      userUnitAreacode: '330212',
    });
    expect(data.user.currentRole).toEqual({ id: data.roleList[0].id, name: data.roleList[0].name, roleType: 'unit' });
    expect(data.roleList[0].menuIdList).toContain('system:bypassAccount');
    const cookie = res.cookies.find((c) => c.name === '__sid');
    expect(cookie).toMatchObject({ value: data.sessionid, httpOnly: true, sameSite: 'Lax', path: '/espServer' });
  });

  it('needs no captcha when it is switched off, and tells the browser so', async () => {
    const config = await app.inject({ method: 'GET', url: api(API.appConfig) });
    expect(config.json()).toMatchObject({ result: 'true', data: { captchaEnabled: false, mustUpdatePwd: true } });
    const { loginName, password, orgCode } = demo('nbadmin');
    expect(await login(app, loginName, password, orgCode, { validateCode: '' })).toMatchObject({ result: 'true' });
  });

  it('accepts a JSON body as well as a form', async () => {
    const { loginName, password, orgCode } = demo('nbsub');
    const key = await publicKey(app);
    const res = await app.inject({
      method: 'POST',
      url: api(API.login),
      payload: { username: encrypt(key, loginName), password: encrypt(key, password), orgCode: encrypt(key, orgCode), validateCode: '' },
    });
    expect(res.json()).toMatchObject({ result: 'true', user: { loginName, basicUnitFlag: 1 } });
  });

  it('accepts the org code in lower case', async () => {
    const { loginName, password, orgCode } = demo('nbsub');
    expect((await login(app, loginName, password, orgCode.toLowerCase())).result).toBe('true');
  });

  it('flags a weak legacy password as simple (strength below 3)', async () => {
    const { loginName, password, orgCode } = demo('nbweak');
    const reply = await login(app, loginName, password, orgCode);
    expect(reply.result).toBe('true');
    expect(reply.user!.simplePwd).toBe(true);
  });

  it('rejects a wrong password with 账号或密码错误', async () => {
    const { loginName, orgCode } = demo('nbsub');
    expectFailure(await login(app, loginName, 'Wrong@2026', orgCode), '账号或密码错误');
  });

  it('rejects an unknown user with the same message as a wrong password', async () => {
    expectFailure(await login(app, 'nobody_here', 'Admin@2026', DEMO_UNITS.using.orgcode), '账号或密码错误');
  });

  it('rejects the right password with another unit’s org code with 组织机构代码错误', async () => {
    const { loginName, password } = demo('nbsub');
    expectFailure(await login(app, loginName, password, DEMO_UNITS.authority.orgcode), '组织机构代码错误');
  });

  it('does not reveal a wrong org code unless the password is right', async () => {
    const { loginName } = demo('nbsub');
    expectFailure(await login(app, loginName, 'Wrong@2026', DEMO_UNITS.authority.orgcode), '账号或密码错误');
  });

  it('rejects fields that were not encrypted with the server key', async () => {
    const res = await app.inject({
      method: 'POST',
      url: api(API.login),
      payload: { username: Buffer.from('nbadmin').toString('base64'), password: 'Admin@2026', orgCode: DEMO_UNITS.using.orgcode },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: 'false', code: 'CREDENTIALS_UNDECRYPTABLE' });
  });

  it('runs scrypt against a dummy hash when the user does not exist (same reply time)', async () => {
    const verify = vi.spyOn(passwordHasher, 'verify');
    const dummy = await passwordHasher.dummyHash();
    await login(app, 'ghost_user', 'Admin@2026', DEMO_UNITS.using.orgcode);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledWith('Admin@2026', dummy);

    verify.mockClear();
    const { loginName, orgCode } = demo('nbsub');
    await login(app, loginName, 'Wrong@2026', orgCode);
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify.mock.calls[0][1]).not.toBe(dummy);
  });

  it(`locks an account after ${MAX_FAILED_LOGINS} consecutive failures, even for the right password`, async () => {
    const user = await createUser(app);
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectFailure(await login(app, user.loginName, 'Wrong@2026', user.orgCode), '账号或密码错误');
    expectFailure(await login(app, user.loginName, 'Wrong@2026', user.orgCode), '账号已锁定，请15分钟后再试');
    expectFailure(await login(app, user.loginName, user.password, user.orgCode), '账号已锁定，请15分钟后再试');

    const row = await app.db.selectFrom('sys_user').select(['failed_count', 'locked_until']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.failed_count).toBe(MAX_FAILED_LOGINS);
    const lockMs = row.locked_until!.getTime() - Date.now();
    expect(lockMs).toBeGreaterThan((LOCK_MINUTES - 1) * 60_000);
    expect(lockMs).toBeLessThanOrEqual(LOCK_MINUTES * 60_000);
  });

  it('counts wrong org codes towards the lock', async () => {
    const user = await createUser(app);
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) await login(app, user.loginName, user.password, DEMO_UNITS.authority.orgcode);
    expectFailure(await login(app, user.loginName, user.password, DEMO_UNITS.authority.orgcode), '账号已锁定，请15分钟后再试');
  });

  it('unlocks after the lock period and starts counting afresh', async () => {
    const user = await createUser(app);
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(app, user.loginName, 'Wrong@2026', user.orgCode);
    await app.db
      .updateTable('sys_user')
      .set({ locked_until: new Date(Date.now() - 1000) })
      .where('id', '=', user.id)
      .execute();

    expectFailure(await login(app, user.loginName, 'Wrong@2026', user.orgCode), '账号或密码错误');
    const row = await app.db.selectFrom('sys_user').select(['failed_count', 'locked_until']).where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_count: 1, locked_until: null });
    expect((await login(app, user.loginName, user.password, user.orgCode)).result).toBe('true');
  });

  it('resets the failure count on a successful login', async () => {
    const user = await createUser(app);
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) await login(app, user.loginName, 'Wrong@2026', user.orgCode);
    expect((await login(app, user.loginName, user.password, user.orgCode)).result).toBe('true');
    const row = await app.db.selectFrom('sys_user').select('failed_count').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.failed_count).toBe(0);
    // A full new series is needed to lock again.
    for (let i = 1; i < MAX_FAILED_LOGINS; i++) expectFailure(await login(app, user.loginName, 'Wrong@2026', user.orgCode), '账号或密码错误');
  });

  describe('single sign-on', () => {
    const ssoLogin = (payload: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: api(API.login),
        payload: new URLSearchParams(payload).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    it('logs in with a valid signed ssotoken', async () => {
      const res = await ssoLogin({ ssotoken: signSsoToken(app.keys.ssoSecret, 'nbadmin'), validateCode: '' });
      expect(res.json()).toMatchObject({ result: 'true', user: { loginName: 'nbadmin', simplePwd: false } });
    });

    it('rejects a token with a forged signature', async () => {
      const forged = signSsoToken(Buffer.from('not-the-server-secret'), 'nbadmin');
      expect((await ssoLogin({ ssotoken: forged })).json()).toMatchObject({ result: 'false', message: '单点登录凭证无效或已过期' });
      const [, signature] = signSsoToken(app.keys.ssoSecret, 'nbsub').split('.');
      const [payload] = signSsoToken(app.keys.ssoSecret, 'nbadmin').split('.');
      expect((await ssoLogin({ ssotoken: `${payload}.${signature}` })).json()).toMatchObject({ result: 'false', code: 'SSO_TOKEN_INVALID' });
    });

    it('rejects an expired token', async () => {
      const expired = signSsoToken(app.keys.ssoSecret, 'nbadmin', 60, Date.now() - 120_000);
      expect((await ssoLogin({ ssotoken: expired })).json()).toMatchObject({ result: 'false', code: 'SSO_TOKEN_INVALID' });
    });

    it('rejects a token for an unknown user', async () => {
      expect((await ssoLogin({ ssotoken: signSsoToken(app.keys.ssoSecret, 'ghost_user') })).json()).toMatchObject({
        result: 'false',
        code: 'SSO_TOKEN_INVALID',
      });
    });

    it('logs in through the regional SSO variant (reqInfoBase64Str + ynSsoToken + loginType=PC)', async () => {
      const reqInfoBase64Str = Buffer.from(JSON.stringify({ loginName: 'nbsub' })).toString('base64');
      const res = await ssoLogin({ reqInfoBase64Str, ynSsoToken: signSsoToken(app.keys.ssoSecret, 'nbsub'), loginType: 'PC' });
      expect(res.json()).toMatchObject({ result: 'true', user: { loginName: 'nbsub' } });
    });

    it('rejects a regional request naming a different user than its token', async () => {
      const reqInfoBase64Str = Buffer.from(JSON.stringify({ loginName: 'nbadmin' })).toString('base64');
      const res = await ssoLogin({ reqInfoBase64Str, ynSsoToken: signSsoToken(app.keys.ssoSecret, 'nbsub'), loginType: 'PC' });
      expect(res.json()).toMatchObject({ result: 'false', code: 'SSO_TOKEN_INVALID' });
    });
  });
});
