/**
 * Registration and password reset in Chromium (issue 14): a visitor registers a new unit (SMS code,
 * licence upload) → jgadmin approves it under 账号注册审核 → the first login with the new account;
 * a visitor asks for a password reset → jgadmin agrees → login with the temporary password sent by
 * SMS → the forced change dialog → login with the new password.
 *
 * The SMS codes are read where the demo provider writes them: the server log (its own server here,
 * started with LOG_LEVEL=info, so the suite's shared server and its demo accounts are untouched).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { startServer, type StartedServer } from '../support/server';
import { openPage } from './support/browser';
import { logIn, logInAs, logOut, submitDialog } from './support/shell';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('registration and password reset', () => {
  let server: StartedServer;
  let page: Page;
  let close: () => Promise<void>;
  beforeAll(async () => {
    // The outbox provider logs a message's text (the code) at debug only.
    server = await startServer({ env: { LOG_LEVEL: 'debug', PORTAL_SMS_PROVIDER: 'outbox' } });
    const opened = await openPage();
    page = opened.page;
    close = () => opened.browser.close();
    page.setDefaultTimeout(20_000);
    await page.setViewportSize({ width: 1366, height: 900 });
  }, 240_000);
  afterAll(async () => {
    await close?.();
    await server?.stop();
  });

  /** The newest text message of `purpose` to `mobile` (or to anyone) in the server log. */
  const lastMessage = (purpose: string, mobile?: string): string | null => {
    const texts = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"sms"'))
      .map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { sms: { mobile: string; purpose: string; text?: string } }).sms)
      .filter((m): m is typeof m & { text: string } => m.text !== undefined && m.purpose === purpose && (!mobile || m.mobile === mobile));
    return texts.length ? texts[texts.length - 1].text : null;
  };
  const codeFor = async (purpose: string, mobile?: string) => {
    let code: string | undefined;
    await expect.poll(() => (code = /验证码为(\d{6})/.exec(lastMessage(purpose, mobile) ?? '')?.[1])).toBeTruthy();
    return code!;
  };
  const field = (label: string | RegExp) => page.getByLabel(label, { exact: typeof label === 'string' });

  it('a new unit registers, jgadmin approves, the new account logs in', { timeout: 180_000 }, async () => {
    const base = server.baseURL;
    const stamp = Date.now().toString(36).slice(-4).toUpperCase().replace(/[IOSVZ]/g, 'A');
    const orgcode = makeUscc('91', '330203', `MA9${stamp}E`.slice(0, 8));
    const orgname = `宁波端到端测试${stamp}有限公司`;
    const mobile = '13905749901';
    const loginName = `e2e_reg_${stamp.toLowerCase()}`;
    const password = 'Reg@2026ok';
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: '企业账号注册' }).click();
    await page.waitForURL(/\/register$/);
    await field('单位名称').fill(orgname);
    await field('统一社会信用代码').fill(orgcode);
    await field('详细地址').fill('浙江省宁波市海曙区端到端路1号');
    await field('法定代表人').fill('陈测试');
    await field('法定代表人身份证号').fill('110101199003070070');
    await field('联系人').fill('林联系');
    await field('联系人手机').fill(mobile);
    await field('登录账号').fill(loginName);
    await field('登录密码').fill('simple12');
    await page.getByText('密码强度不足').waitFor();
    await field('登录密码').fill(password);
    await field('确认密码').fill(password);
    await page.locator('input[type=file]').setInputFiles({ name: '营业执照.png', mimeType: 'image/png', buffer: PNG });
    // Done, not just listed: the file is the field's value once its upload finished.
    await page.locator('.ant-upload-list-item-done', { hasText: '营业执照.png' }).waitFor();
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByRole('button', { name: /秒后重新获取/ }).waitFor();
    await field('短信验证码').fill(await codeFor('register', mobile));
    await page.getByRole('button', { name: '提交注册申请' }).click();
    await page.waitForURL(/\/register-success/);
    await page.getByText('注册申请已提交').first().waitFor();

    await logInAs(page, base, 'jgadmin');
    await page.goto(`${base}/account/check`);
    const row = () => page.locator('.ant-table-row', { hasText: loginName }).filter({ visible: true });
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
    await field('短信验证码').fill(await codeFor('reset'));
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
