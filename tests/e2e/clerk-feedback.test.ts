/**
 * What a clerk sees around navigation and messages, in Chromium against the real server:
 * - the top progress bar while a menu page's code and first data load (a list answer held back);
 * - a list or record that fails to load: the message in the page (with 重试) and once as a toast;
 * - a logout, a password change and the forced change's 退出登录: their success message only,
 *   never 登录已过期, and no call goes out without the session;
 * - the login's cookie lives the configured hours (appConfig cookieExpiresHours);
 * - the 报检设备 sub-table of 在线报检 labels the dictionary codes the server filled in on save.
 */
import type { Page, Response } from 'playwright-core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { PRIMARY } from '../../src/app/theme';
import type { AppConfig } from '../../src/shared/contract';
import { ACCOUNT_API, type AccountSaveResult } from '../../src/shared/accounts';
import { addToDate, todayIn } from '../../src/shared/dates';
import { apiCall, elevatorBody } from './support/api';
import { formControls } from './support/form';
import { account, logIn, logInAs, openMenu, openUserMenu } from './support/shell';
import { browserSuite } from './support/suite';

const baseURL = inject('baseURL');
const stamp = Date.now().toString(36).slice(-5);
const EXPIRED = '登录已过期，请重新登录';

/**
 * Watches the API traffic from now on: `settled()` waits until every request seen has been
 * answered (or failed), then tells which were answered 401 and which went out without `__sid`.
 */
function watchApi(page: Page) {
  const open = new Set<string>();
  const finished: Response[] = [];
  const withoutSession: string[] = [];
  let seq = 0;
  const ids = new WeakMap<object, string>();
  const onRequest = (request: import('playwright-core').Request) => {
    if (!request.url().includes('/espServer/a/')) return;
    const id = String(++seq);
    ids.set(request, id);
    open.add(id);
    const url = new URL(request.url());
    // The login page's own calls need no session; everything else the signed-out app sends would be refused.
    if (!url.searchParams.has('__sid') && !/\/a\/(login|stone\/common\/|stone\/appConfig|validCode)/.test(url.pathname)) withoutSession.push(url.pathname);
  };
  const done = (request: import('playwright-core').Request) => {
    const id = ids.get(request);
    if (id) open.delete(id);
  };
  const onResponse = (response: Response) => {
    if (response.url().includes('/espServer/')) finished.push(response);
  };
  page.on('request', onRequest);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  page.on('response', onResponse);
  return {
    async settled() {
      await expect.poll(() => open.size).toBe(0);
      page.off('request', onRequest);
      page.off('requestfinished', done);
      page.off('requestfailed', done);
      page.off('response', onResponse);
      return { unauthorized: finished.filter((r) => r.status() === 401).map((r) => new URL(r.url()).pathname), withoutSession };
    },
  };
}

/** The toasts on screen with `text`. */
const toasts = (page: Page, text: string) => page.locator('.ant-message-notice', { hasText: text });
/** A #rrggbb colour as getComputedStyle writes it. */
const rgbOf = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

async function expectCleanSignOut(page: Page, success: string, traffic: ReturnType<typeof watchApi>) {
  try {
    await page.getByText(success).first().waitFor();
  } catch (err) {
    // Say what the page shows instead (a question before closing tabs, an error), as logOut does.
    const dialogs = await page.locator('.ant-modal, .ant-message-notice').filter({ visible: true }).allInnerTexts();
    const shot = `/tmp/e2e-sign-out-${Date.now()}.png`;
    await page.screenshot({ path: shot });
    throw new Error(`no ${success} (at ${page.url()}; on screen: ${JSON.stringify(dialogs)}; screenshot ${shot})`, { cause: err });
  }
  await page.waitForURL(/\/login/);
  await page.getByRole('heading', { name: '账号登录' }).waitFor();
  const { unauthorized, withoutSession } = await traffic.settled();
  expect(unauthorized).toEqual([]);
  expect(withoutSession).toEqual([]);
  await expect(toasts(page, EXPIRED).count()).resolves.toBe(0);
}

describe('clerk feedback', () => {
  const { page } = browserSuite();

  afterEach(async () => {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });

  it('shows the progress bar in the primary colour while a menu page loads its first data', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    // The list's answer is held back 800 ms; the bar must be on screen while the page waits for it.
    const barWhileHeld: boolean[] = [];
    await page.route('**/espServer/r/online-apply/list**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      barWhileHeld.push(await page.locator('#nprogress .bar').isVisible());
      await route.continue();
    });
    await openMenu(page, '自助服务', '在线报检');
    const bar = page.locator('#nprogress .bar');
    await bar.waitFor();
    await expect(bar.evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe(rgbOf(PRIMARY));
    await page.locator('.ant-table').filter({ visible: true }).first().waitFor();
    expect(barWhileHeld.length).toBeGreaterThan(0);
    expect(barWhileHeld.every(Boolean)).toBe(true);
    // And it goes once the page has its data.
    await page.locator('#nprogress').waitFor({ state: 'detached' });
  });

  it('a list that fails to load says so in the page and once as a toast; 重试 loads it', async () => {
    let failure: 'network' | 'message' | null = 'network';
    await page.route('**/espServer/r/first-regist-apply/list**', async (route) => {
      if (failure === 'network') return route.abort('failed');
      if (failure === 'message') return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ errorMsg: '数据服务维护中' }) });
      return route.continue();
    });
    await page.goto(`${baseURL}/firstRegisterManagement/firstRegisterQuery`);
    const alert = page.locator('.ant-alert-error').filter({ visible: true });
    await alert.getByText('服务器出错了请稍后再试').waitFor();
    await toasts(page, '服务器出错了请稍后再试').first().waitFor();
    await expect(toasts(page, '服务器出错了请稍后再试').count()).resolves.toBe(1);

    failure = 'message';
    await alert.getByRole('button', { name: /重\s*试/ }).click();
    await alert.getByText('数据服务维护中').waitFor();
    await toasts(page, '数据服务维护中').first().waitFor();
    await expect(toasts(page, '数据服务维护中').count()).resolves.toBe(1);

    failure = null;
    await alert.getByRole('button', { name: /重\s*试/ }).click();
    await page.locator('.ant-table').filter({ visible: true }).first().waitFor();
    await expect(page.locator('.ant-alert-error').filter({ visible: true }).count()).resolves.toBe(0);
  });

  it('a record that fails to load shows the server message in the page and as a toast', async () => {
    await page.goto(`${baseURL}/company-service/online-apply-detail?id=${'0'.repeat(32)}`);
    const alert = page.locator('.ant-alert-error').filter({ visible: true });
    await alert.waitFor();
    const message = (await alert.locator('.ant-alert-description').innerText()).trim();
    expect(message).not.toBe('');
    await toasts(page, message).first().waitFor();
    await expect(toasts(page, message).count()).resolves.toBe(1);
  });

  it('keeps the login cookie for the configured hours', async () => {
    if (!page.url().startsWith(baseURL)) await logInAs(page, baseURL, 'nbadmin'); // run on its own
    const config = await page.evaluate(async () => (await (await fetch('/espServer/a/stone/common/appConfig')).json()) as { data: AppConfig });
    const hours = config.data.cookieExpiresHours;
    const cookie = (await page.context().cookies()).find((c) => c.name === 'portal.login');
    expect(cookie, 'the login cookie').toBeDefined();
    const lifeHours = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
    // Set at the login a few minutes ago at most.
    expect(lifeHours).toBeLessThanOrEqual(hours);
    expect(lifeHours).toBeGreaterThan(hours - 0.5);
    // Within those hours a new tab of the browser is still signed in.
    const tab = await page.context().newPage();
    try {
      await tab.goto(`${baseURL}/home`);
      await tab.getByTestId('welcome').waitFor();
      expect(new URL(tab.url()).pathname).toBe('/home');
    } finally {
      await tab.close();
    }
  });

  it('labels the codes the server filled into the 报检设备 sub-table after a save', async () => {
    const equipmentName = `标签电梯${stamp}`;
    await apiCall(page, '/r/equipment/save', elevatorBody(equipmentName));
    const { visible } = formControls(page);
    await page.goto(`${baseURL}/company-service/online-apply-form?mode=add`);
    await page.getByRole('button', { name: '添加一行' }).waitFor();
    await visible('联系人').fill('张伟');
    await visible('联系电话').fill('13805740001');
    await visible('期望检验日期').click();
    await visible('期望检验日期').fill(addToDate(todayIn(), 10, 'd'));
    await visible('期望检验日期').press('Enter');
    await page.getByRole('button', { name: '添加一行' }).click();
    await page.getByLabel('设备', { exact: true }).filter({ visible: true }).last().click();
    await page.locator('.ant-select-item-option', { hasText: equipmentName }).click();
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();

    const row = page.locator('.ant-formily-array-table .ant-table-row').filter({ visible: true }).first();
    await expect.poll(() => row.innerText()).toContain('曳引与强制驱动电梯');
    const text = await row.innerText();
    expect(text).toContain('电梯');
    expect(text).not.toMatch(/\b3[01]00\b/);
  });

  it('a logout shows 退出成功 and nothing about an expired session', async () => {
    await page.goto(`${baseURL}/company-service/online-apply`);
    await page.locator('.ant-table').filter({ visible: true }).first().waitFor();
    const traffic = watchApi(page);
    await openUserMenu(page, '退出登录');
    await expectCleanSignOut(page, '退出成功', traffic);
  });

  /** A sub-account nbadmin makes for the password journeys: its first login must change the initial password. */
  const fresh = { loginName: `fb${stamp}`, password: '', orgCode: account('nbadmin').orgCode };
  const forcedDialog = () => page.locator('.change-password-modal .ant-modal');

  it('退出登录 in the forced password change shows 退出成功 only', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    const { initialPassword } = await apiCall<AccountSaveResult>(page, ACCOUNT_API.subSave, {
      loginName: fresh.loginName,
      name: '钱芳',
      mobile: '13905740031',
      roleName: `退出测试${stamp}`,
      menuIds: ['company-service:online-apply'],
    });
    expect(initialPassword).toMatch(/^\d{8}$/);
    fresh.password = initialPassword!;
    await openUserMenu(page, '退出登录');
    await page.waitForURL(/\/login/);

    await logIn(page, baseURL, fresh);
    await forcedDialog().getByText('请修改登录密码').waitFor();
    const traffic = watchApi(page);
    await forcedDialog().getByRole('button', { name: '退出登录' }).click();
    await expectCleanSignOut(page, '退出成功', traffic);
  });

  it('a password change, forced or chosen, ends the session with its own message only', async () => {
    const change = async (from: string, to: string) => {
      const dialog = forcedDialog();
      await dialog.getByLabel('当前密码').fill(from);
      await dialog.getByLabel('新密码', { exact: true }).fill(to);
      await dialog.getByLabel('确认新密码').fill(to);
      const traffic = watchApi(page);
      await dialog.getByRole('button', { name: /确\s*定/ }).click();
      await expectCleanSignOut(page, '密码修改成功，请重新登录', traffic);
    };
    // The forced change at the first login.
    await logIn(page, baseURL, fresh);
    await forcedDialog().getByText('请修改登录密码').waitFor();
    const first = `Fb@${stamp}x1`;
    await change(fresh.password, first);
    // A change the user chooses from the user menu, on a page that reads the unit.
    await logIn(page, baseURL, { ...fresh, password: first });
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.locator('.shell-menu').waitFor();
    await openUserMenu(page, '修改密码');
    await change(first, `Fb@${stamp}x2`);
  });
});
