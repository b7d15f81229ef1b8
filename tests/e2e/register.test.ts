/**
 * Registration and password reset in Chromium: a visitor registers a new unit (SMS code,
 * licence upload) → jgadmin approves it under 账号注册审核 → the first login with the new account;
 * an application jgadmin returns is corrected on /registerAuditQuery (the open form
 * register-correct-form, embedded and prefilled) and waits for the audit again; a visitor asks for
 * a password reset → jgadmin agrees → login with the temporary password sent by SMS → the forced
 * change dialog → login with the new password.
 *
 * The SMS codes are read where the demo provider writes them: the server log of this file's own
 * server (support/sms.ts), so the suite's shared server and its demo accounts are untouched.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { logIn, logInAs, logOut, submitDialog } from './support/shell';
import { startSmsSuite } from './support/sms';
import { PNG, registerUnit } from './support/register';
import { match } from '../support/match';

describe('registration and password reset', () => {
  const suite = startSmsSuite({ width: 1366, height: 900 });
  const { server, page, codeFor, codeAllowed, lastMessage } = suite;
  const register = (mobile: string, password: string) => registerUnit(suite, mobile, password);
  const field = (label: string | RegExp) => page.getByLabel(label, { exact: typeof label === 'string' });
  /** An application row of jgadmin's 账号注册审核 list. */
  const applicationRow = (loginName: string) => page.locator('.ant-table-row', { hasText: loginName }).filter({ visible: true });

  it('a new unit registers, jgadmin approves, the new account logs in', { timeout: 180_000 }, async () => {
    const base = server.baseURL;
    const password = 'Reg@2026ok';
    const { orgcode, orgname, loginName, mobile } = await register('13905749901', password);

    await logInAs(page, base, 'jgadmin');
    await page.goto(`${base}/account/check`);
    const row = () => applicationRow(loginName);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待审核');
    await row().getByRole('button', { name: '审核通过' }).click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }).last());
    // The list opens on the applications waiting: the approved one leaves it.
    await expect.poll(() => row().count()).toBe(0);
    await logOut(page);
    expect(lastMessage('register-result', mobile)).toContain('已审核通过');

    await logIn(page, base, { loginName, password, orgCode: orgcode });
    await page.waitForURL(/\/home$/);
    await page.getByText(orgname).first().waitFor();
    await logOut(page);
  });

  it('a returned application is corrected on the progress query and waits for the audit again', { timeout: 300_000 }, async () => {
    const base = server.baseURL;
    const { orgcode, orgname, loginName, mobile } = await register('13905749902', 'Reg@2026ok');

    await logInAs(page, base, 'jgadmin');
    await page.goto(`${base}/account/check`);
    const row = () => applicationRow(loginName);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待审核');
    await row()
      .getByRole('button', { name: /退\s*回/ })
      .click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }).last(), '详细地址不完整，请补充门牌号');
    await expect.poll(() => row().count()).toBe(0);
    await logOut(page);
    expect(lastMessage('register-result', mobile)).toContain('未通过审核');

    /** /registerAuditQuery with a new query code (one a minute per mobile: waits for it). */
    const query = async () => {
      await codeAllowed(mobile);
      await page.goto(`${base}/registerAuditQuery`);
      await field('统一社会信用代码').fill(orgcode);
      const since = Date.now();
      await page.getByRole('button', { name: '获取验证码' }).click();
      await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
      await page.getByPlaceholder('6位短信验证码').fill(await codeFor(mobile, 'query', since));
      await page.getByRole('button', { name: /查\s*询/ }).click();
      await page.locator('.ant-descriptions').getByText(orgname).waitFor();
    };

    await query();
    await page.locator('.ant-descriptions').getByText('已退回').waitFor();
    await page.getByText('详细地址不完整，请补充门牌号').waitFor();
    // The correction form, prefilled with the application: credit code and mobile shown, not editable.
    const correction = page.locator('.engine-open-form');
    await correction.getByText('申请已被退回，请按审核意见修改后重新提交。').waitFor();
    await expect.poll(() => field('单位名称').inputValue()).toBe(orgname);
    expect(await field('登录账号').inputValue()).toBe(loginName);
    expect(await field('详细地址').inputValue()).toBe('浙江省宁波市海曙区端到端路1号');
    await correction.getByText(orgcode).waitFor();
    await correction.getByText(mobile).waitFor();
    expect(await correction.locator('input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).not.toContain(orgcode);
    await correction.locator('.ant-upload-list-item', { hasText: '营业执照.png' }).waitFor();

    const corrected = '浙江省宁波市海曙区端到端路1号2幢301室';
    await field('详细地址').fill(corrected);
    const posted = page.waitForRequest((r) => r.url().endsWith('/a/stone/common/account/resubmit'));
    await page.getByRole('button', { name: '修改后重新提交' }).click();
    // The application's id and the query's code go with the values, the confirmation does not.
    const body = (await posted).postDataJSON() as Record<string, unknown>;
    expect(body).toMatchObject({
      orgcode,
      orgname,
      loginName,
      contactMobile: mobile,
      address: corrected,
      smsCode: match.stringMatching(/^\d{6}$/),
      id: match.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(body).not.toHaveProperty('passwordCheck');
    await page.waitForURL(/\/register-success\?applyNo=ZC\d+/);
    await page.getByText('注册申请已提交').first().waitFor();

    await query();
    await page.locator('.ant-descriptions').getByText('待审核').waitFor();
    expect(await page.locator('.engine-open-form').count()).toBe(0);
  });

  it('a password reset: apply, jgadmin agrees, login with the temporary password forces a change', { timeout: 180_000 }, async () => {
    const base = server.baseURL;
    const orgCode = DEMO_UNITS.second.orgcode;
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: '忘记密码' }).click();
    await page.waitForURL(/\/resetPassword$/);
    await field('登录账号').fill('bladmin');
    await field('统一社会信用代码').fill(orgCode);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByText('如信息无误，验证码已发送').first().waitFor();
    await field('短信验证码').fill(await codeFor(undefined, 'reset'));
    await field('申请人').fill('北仑经办');
    await page.locator('input[type=file]').setInputFiles({ name: '身份证.png', mimeType: 'image/png', buffer: PNG });
    await page.locator('.ant-upload-list-item-done', { hasText: '身份证.png' }).waitFor();
    await page.getByRole('button', { name: '提交申请' }).click();
    await page.waitForURL(/\/resetSuccess$/);

    await logInAs(page, base, 'jgadmin');
    await page.goto(`${base}/account/reset-password-check-list`);
    const row = () => page.locator('.ant-table-row', { hasText: '北仑经办' }).filter({ visible: true });
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('bladmin');
    await row().getByRole('button', { name: '同意重置' }).click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }).last());
    await expect.poll(() => row().count()).toBe(0);
    await logOut(page);

    let temporary = '';
    await expect.poll(() => (temporary = /临时密码为 (\S+) /.exec(lastMessage('reset-result') ?? '')?.[1] ?? '')).not.toBe('');
    await logIn(page, base, { loginName: 'bladmin', password: temporary, orgCode });
    const change = page.locator('.change-password-modal .ant-modal');
    await change.getByText('请修改登录密码').waitFor();
    const strong = 'Blsub@2027x';
    await change.getByLabel('当前密码').fill(temporary);
    await change.getByLabel('新密码', { exact: true }).fill(strong);
    await change.getByLabel('确认新密码').fill(strong);
    await change.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login/);
    await logIn(page, base, { loginName: 'bladmin', password: strong, orgCode });
    await page.waitForURL(/\/home$/);
  });
});
