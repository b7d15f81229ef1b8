/**
 * One session per account (PORTAL_SINGLE_SESSION=on) on a server of its own: the same account
 * logging in in a second browser ends the first one's session, and the first browser's next step
 * lands on the login page, which says why.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startServer, type StartedServer } from '../support/server';
import { openPage } from './support/browser';
import { logInAs } from './support/shell';

describe('one session per account', () => {
  let server: StartedServer;
  let browser: Browser;
  let first: Page;
  let second: Page;
  beforeAll(async () => {
    server = await startServer({ env: { PORTAL_SINGLE_SESSION: 'on' } });
    ({ browser, page: first } = await openPage());
    // A second browser profile: its own cookies and session storage.
    second = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
    second.setDefaultTimeout(15_000);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends the earlier browser to the login page with the reason', async () => {
    await logInAs(first, server.baseURL, 'nbadmin');
    await logInAs(second, server.baseURL, 'nbadmin');
    await first.reload();
    await first.waitForURL(/\/login/);
    await first.locator('.login-card__alert').getByText('您的账号已在其他地方登录，当前会话已结束').waitFor();
    // The second browser goes on working.
    await second.reload();
    await second.locator('.shell-menu').waitFor();
  });
});
