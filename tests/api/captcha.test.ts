import { describe, expect, it } from 'vitest';
import { API } from '../../src/shared/contract';
import { api, appSuite, dbTargets, demo, login } from './helpers';

describe.each(dbTargets())('captcha (%s)', (target) => {
  const { app } = appSuite(target, { build: { captchaEnabled: true } });

  /** Fetches a captcha image; returns the cookie binding it and the answer stored in the database. */
  async function newCaptcha(previousId?: string) {
    const res = await app.inject({ method: 'GET', url: api(API.captcha), cookies: previousId ? { captchaId: previousId } : undefined });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.body).toMatch(/^<svg[\s\S]*<\/svg>$/);
    const cookie = res.cookies.find((c) => c.name === 'captchaId')!;
    expect(cookie).toMatchObject({ httpOnly: true, path: '/espServer' });
    const row = await app.db.selectFrom('sys_captcha').selectAll().where('id', '=', cookie.value).executeTakeFirstOrThrow();
    return { id: cookie.value, answer: row.text };
  }

  const account = demo('nbsub');
  const loginWith = (captchaId: string | undefined, validateCode: string) =>
    login(app, account.loginName, account.password, account.orgCode, { validateCode, cookies: captchaId ? { captchaId } : undefined });

  it('tells the browser the captcha is on', async () => {
    const res = await app.inject({ method: 'GET', url: api(API.appConfig) });
    expect(res.json()).toMatchObject({ result: 'true', data: { captchaEnabled: true, cityName: '宁波市', provinceCode: '330000', areaCode: '330200' } });
  });

  it('rejects a wrong captcha with 验证码错误', async () => {
    const { id, answer } = await newCaptcha();
    const wrong = answer === 'abcd' ? 'abce' : 'abcd';
    expect(await loginWith(id, wrong)).toMatchObject({ result: 'false', message: '验证码错误', errorMsg: '验证码错误', code: 'CAPTCHA_INVALID' });
  });

  it('rejects a login without a captcha cookie', async () => {
    expect(await loginWith(undefined, 'abcd')).toMatchObject({ result: 'false', code: 'CAPTCHA_INVALID' });
  });

  it('accepts the right answer in any letter case', async () => {
    const { id, answer } = await newCaptcha();
    expect(await loginWith(id, answer.toUpperCase())).toMatchObject({ result: 'true' });
  });

  it('accepts each captcha once only', async () => {
    const { id, answer } = await newCaptcha();
    expect(await loginWith(id, 'zzzz')).toMatchObject({ result: 'false', code: 'CAPTCHA_INVALID' });
    expect(await loginWith(id, answer)).toMatchObject({ result: 'false', code: 'CAPTCHA_INVALID' });
  });

  it('rejects an expired captcha', async () => {
    const { id, answer } = await newCaptcha();
    await app.db
      .updateTable('sys_captcha')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', id)
      .execute();
    expect(await loginWith(id, answer)).toMatchObject({ result: 'false', code: 'CAPTCHA_INVALID' });
  });

  it('replaces the previous captcha of the same browser', async () => {
    const first = await newCaptcha();
    const second = await newCaptcha(first.id);
    expect(second.id).not.toBe(first.id);
    expect(await app.db.selectFrom('sys_captcha').select('id').where('id', '=', first.id).executeTakeFirst()).toBeUndefined();
  });

  it('checks the captcha before the credentials', async () => {
    const { id } = await newCaptcha();
    expect(await login(app, 'ghost_user', 'x', 'y', { validateCode: '????', cookies: { captchaId: id } })).toMatchObject({ code: 'CAPTCHA_INVALID' });
  });
});
