/**
 * The 国密 login (PORTAL_CRYPTO=sm) through the real login page on a server of its own: the page
 * loads sm-crypto only here, encrypts the three fields with SM2 under the server's key, and the
 * account reaches its home page. The default mode's page never loads it (first-load.test.ts
 * measures that page's scripts).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/contract';
import { startServer, type StartedServer } from '../support/server';
import { openPage } from './support/browser';
import { account, logIn } from './support/shell';

describe('国密 login page', () => {
  let server: StartedServer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    server = await startServer({ env: { PORTAL_CRYPTO: 'sm' } });
    ({ browser, page } = await openPage());
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('encrypts the fields with SM2 and signs the account in', async () => {
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(API.login));
    await logIn(page, server.baseURL, account('nbadmin'));
    const form = new URLSearchParams((await posted).postData() ?? '');
    for (const field of ['username', 'password', 'orgCode']) expect(form.get(field), field).toMatch(/^04[0-9a-f]{192,}$/);
    await page.waitForURL(/\/home$/);
  });
});
