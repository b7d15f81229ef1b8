/**
 * A menu entry that is an external link (气瓶追溯: hrefSetting gasCylinder, hrefAppend token).
 * Unset, opened by its address the page says the service is not configured (never a 建设中
 * placeholder) and the menu leaves it out. Configured (this file's own server, with
 * PORTAL_GAS_CYLINDER_URL), the menu item and the page's button open a new window at the outside
 * address carrying a single-use token from the server: never the session token (neither in the
 * address nor in the referrer), no opener, and the token redeems once at the portal.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LINK_API } from '../../src/shared/external-link';
import { startServer, type StartedServer } from '../support/server';
import { openPage } from './support/browser';
import { browserSuite } from './support/suite';
import { logInAs } from './support/shell';

const baseURL = inject('baseURL');
const GAS_URL = 'https://qp.example.cn/portal?from=esp';

describe('an external menu entry while its link is unset', () => {
  const { page } = browserSuite();

  it('says the service is not configured, and the menu leaves it out', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/gas-cylinder`);
    await page.getByText('气瓶追溯服务未配置').waitFor();
    await expect(page.getByText('建设中').count()).resolves.toBe(0);
    await expect(page.locator('.shell-menu').getByText('气瓶追溯').count()).resolves.toBe(0);
  });
});

describe('a configured external link carrying the identity', () => {
  const opened: { server?: StartedServer; page?: Page; context?: BrowserContext; close?: () => Promise<void> } = {};
  /** The Referer each request to the outside system came with. */
  const referrers: string[] = [];
  beforeAll(async () => {
    opened.server = await startServer({ env: { PORTAL_GAS_CYLINDER_URL: GAS_URL } });
    const { browser, page } = await openPage();
    opened.close = () => browser.close();
    opened.page = page;
    opened.context = page.context();
    // The outside system, answered in the browser (nothing leaves the machine).
    await opened.context.route('https://qp.example.cn/**', async (route) => {
      referrers.push(route.request().headers().referer ?? '');
      await route.fulfill({ contentType: 'text/html; charset=utf-8', body: '<!doctype html><title>气瓶追溯系统</title><p>外部系统</p>' });
    });
  }, 240_000);
  afterAll(async () => {
    await opened.close?.();
    await opened.server?.stop();
  });

  /** Waits for the window a click opens and for it to reach the outside address. */
  async function outsideWindow(click: () => Promise<void>): Promise<{ url: URL; window: Page }> {
    const popup = opened.context!.waitForEvent('page');
    await click();
    const window = await popup;
    await window.waitForURL(/qp\.example\.cn/);
    return { url: new URL(window.url()), window };
  }
  const redeem = async (token: string) => {
    const res = await fetch(`${opened.server!.baseURL}/espServer${LINK_API.verify}?token=${encodeURIComponent(token)}`);
    return (await res.json()) as { result: string; code?: string; message: string; data?: { loginName: string; creditCode: string } };
  };
  /** The checks every opened link must pass: a token, no session, no opener; it redeems once. */
  async function checkOpened({ url, window }: { url: URL; window: Page }, sessionToken: string) {
    expect(`${url.origin}${url.pathname}`).toBe('https://qp.example.cn/portal');
    expect(url.searchParams.get('from')).toBe('esp');
    expect([...url.searchParams.keys()].sort()).toEqual(['from', 'token']);
    expect(url.toString()).not.toContain(sessionToken);
    expect(url.toString()).not.toContain('__sid');
    expect(referrers.join(' ')).not.toContain(sessionToken);
    await expect(window.evaluate(() => window.opener === null)).resolves.toBe(true);
    const token = url.searchParams.get('token')!;
    const first = await redeem(token);
    expect(first.result).toBe('true');
    expect(first.data?.loginName).toBe('nbadmin');
    const again = await redeem(token);
    expect([again.result, again.code, again.message]).toEqual(['false', 'LINK_TOKEN_USED', '访问凭证已使用，请从平台重新打开']);
    await window.close();
    return token;
  }

  it('opens from the menu with a single-use token, never the session', async () => {
    const page = opened.page!;
    const base = opened.server!.baseURL;
    await logInAs(page, base, 'nbadmin');
    const sessionToken = (await page.evaluate(() => sessionStorage.getItem('portal.token')))!;
    expect(sessionToken).toBeTruthy();
    const menu = page.locator('.shell-menu');
    await menu.locator('.ant-menu-submenu-title', { hasText: '自助服务' }).click();
    const item = menu.getByRole('menuitem', { name: '气瓶追溯' });
    await item.waitFor();
    const first = await checkOpened(await outsideWindow(() => item.click()), sessionToken);
    // Each opening gets its own token.
    const second = await checkOpened(await outsideWindow(() => item.click()), sessionToken);
    expect(second).not.toBe(first);
  });

  it('opens the same way from the page of its address', async () => {
    const page = opened.page!;
    await page.goto(`${opened.server!.baseURL}/company-service/gas-cylinder`);
    const button = page.getByRole('button', { name: '打开气瓶追溯' });
    await button.waitFor();
    await page.getByText('一次性凭证').waitFor();
    const sessionToken = (await page.evaluate(() => sessionStorage.getItem('portal.token')))!;
    await checkOpened(await outsideWindow(() => button.click()), sessionToken);
  });
});
