/** Page helpers for the shell journey: what a person does, by visible labels. */
import type { Browser, Locator, Page } from 'playwright-core';
import { openPage } from './browser';
import { DEMO_ACCOUNTS, type DemoAccount } from '../../../src/server/db/seed';

export function account(loginName: string): DemoAccount {
  const found = DEMO_ACCOUNTS.find((a) => a.loginName === loginName);
  if (!found) throw new Error(`no demo account ${loginName}`);
  return found;
}

/** Fills and submits the login form (captcha is off in e2e). */
export async function logIn(page: Page, baseURL: string, who: Pick<DemoAccount, 'loginName' | 'password' | 'orgCode'>): Promise<void> {
  if (!page.url().includes('/login')) await page.goto(`${baseURL}/login`);
  // Exact placeholders: just after a logout the page that was open may still be in the DOM for a
  // moment, and its filters (请输入登录账号…) must not be taken for the login form.
  await page.getByPlaceholder('账号', { exact: true }).fill(who.loginName);
  await page.getByPlaceholder('密码', { exact: true }).fill(who.password);
  await page.getByPlaceholder('组织机构代码（统一社会信用代码）').fill(who.orgCode);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** Logs a demo account in through the form and waits until the portal has left the login page (wherever the account lands). */
export async function logInAs(page: Page, baseURL: string, loginName: string): Promise<void> {
  await logIn(page, baseURL, account(loginName));
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** Opens a page through the side menu: its group (if any), then the item. */
export async function openMenu(page: Page, group: string | null, item: string): Promise<void> {
  const menu = page.locator('.shell-menu');
  if (group) {
    const submenu = menu.locator('.ant-menu-submenu').filter({ has: page.locator('.ant-menu-submenu-title', { hasText: group }) });
    if (!(await submenu.evaluate((el) => el.classList.contains('ant-menu-submenu-open')))) await submenu.locator('.ant-menu-submenu-title').click();
  }
  const entry = menu.getByRole('menuitem', { name: item });
  await entry.click();
  // A click that lands while the accordion is still animating can miss: click again once if the item did not become current.
  try {
    await menu.locator('.ant-menu-item-selected', { hasText: item }).waitFor({ timeout: 5_000 });
  } catch {
    await entry.click();
    await menu.locator('.ant-menu-item-selected', { hasText: item }).waitFor();
  }
}

export function tabTitles(page: Page): Promise<string[]> {
  return page.locator('.shell-tab .shell-tab__title').allTextContents();
}

export async function openUserMenu(page: Page, action: string): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Logs out through the user menu; when the login page does not come, says what the page shows instead. */
export async function logOut(page: Page): Promise<void> {
  await openUserMenu(page, '退出登录');
  try {
    await page.waitForURL(/\/login/);
  } catch (err) {
    const dialogs = await page.locator('.ant-modal').filter({ visible: true }).allInnerTexts();
    const shot = `/tmp/e2e-logout-${Date.now()}.png`;
    await page.screenshot({ path: shot });
    throw new Error(`logout did not reach /login (at ${page.url()}; dialogs: ${JSON.stringify(dialogs)}; screenshot ${shot})`, { cause: err });
  }
}

/** A fresh browser signed in as a demo account and on its home page (what most journeys start from). */
export async function signedInPage(baseURL: string, loginName: string): Promise<{ browser: Browser; page: Page }> {
  const opened = await openPage();
  await logIn(opened.page, baseURL, account(loginName));
  await opened.page.waitForURL(/\/home$/);
  return opened;
}

/**
 * Fills a dialog's opinion (when given) and presses 确定 until the dialog closes. On a busy machine
 * a click can land while the modal is still animating in, or a re-render can wipe the text just
 * typed; such a try is repeated (three at most). Fails with the dialog's own text when it stays open.
 *
 * The dialog is pinned first: `dialog` is often "the last visible modal", which points at nothing
 * (or at another modal) once this one has closed, so a retry decided while it was closing used to
 * wait out the page's whole timeout on a dialog that was gone. A dialog playing its closing
 * animation counts as closed.
 */
export async function submitDialog(dialog: Locator, opinion?: string): Promise<void> {
  const mark = `dialog-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  await dialog.evaluate((el, value) => el.setAttribute('data-e2e-dialog', value), mark);
  const pinned = dialog.page().locator(`[data-e2e-dialog="${mark}"]`);
  const open = dialog.page().locator(`[data-e2e-dialog="${mark}"]:not([class*="-leave"])`);
  // A step that fails because the dialog closed meanwhile is no failure: the loop then returns.
  const unlessClosed = async (error: unknown) => {
    if (await open.isVisible()) throw error;
  };
  for (let attempt = 1; ; attempt++) {
    if (!(await open.isVisible())) return;
    if (opinion !== undefined) await open.locator('textarea').fill(opinion, { timeout: 10_000 }).catch(unlessClosed);
    await open
      .getByRole('button', { name: /确\s*定/ })
      .click({ timeout: 10_000 })
      .catch(unlessClosed);
    const closed = await open.waitFor({ state: 'hidden', timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (closed) return;
    if (attempt >= 3) throw new Error(`the dialog stayed open after ${attempt} tries: ${await pinned.innerText().catch(() => '')}`);
  }
}

/**
 * Clicks a button that writes `resource` (a save, an action after its confirm) and waits for the
 * server's answer, then for the success message. A refusal fails with the server's message, and a
 * write that never leaves the page says so, instead of a bare timeout on the message.
 */
export async function clickAndExpectWrite(page: Page, button: Locator, resource: string, success: RegExp): Promise<void> {
  const answered = page.waitForResponse((r) => r.request().method() !== 'GET' && r.url().includes(`/${resource}/`), { timeout: 60_000 });
  await button.click();
  const response = await answered.catch(() => {
    throw new Error(`no write of ${resource} reached the server within 60 s after the click`);
  });
  const body = (await response.json().catch(() => ({}))) as { result?: string; message?: string };
  if (body.result !== 'true') throw new Error(`the server refused the write of ${resource}: ${response.status()} ${body.message ?? ''}`);
  await page.getByText(success).first().waitFor();
}
