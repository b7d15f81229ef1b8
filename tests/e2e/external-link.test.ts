/**
 * A menu entry that is an external link (气瓶追溯: hrefSetting gasCylinder) opened by its address:
 * with the link configured the page leads to it with the SSO token appended, as the menu does;
 * without it the page says the service is not configured (never a 建设中 placeholder).
 */
import { describe, expect, inject, it } from 'vitest';
import { API } from '../../src/shared/contract';
import { browserSuite } from './support/suite';
import { logInAs } from './support/shell';

const baseURL = inject('baseURL');
const GAS_URL = 'https://qp.example.cn/portal?from=esp';

describe('an external menu entry opened by its address', () => {
  const { page } = browserSuite();

  it('says the service is not configured while its link is unset', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/gas-cylinder`);
    await page.getByText('气瓶追溯服务未配置').waitFor();
    await expect(page.getByText('建设中').count()).resolves.toBe(0);
    // The menu leaves the unconfigured entry out.
    await expect(page.locator('.shell-menu').getByText('气瓶追溯').count()).resolves.toBe(0);
  });

  it('leads to the configured link with the session token appended', async () => {
    await page.route(`**${API.appConfig}*`, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { links: Record<string, string> } };
      body.data.links = { ...body.data.links, gasCylinder: GAS_URL };
      await route.fulfill({ response, json: body });
    });
    await page.goto(`${baseURL}/company-service/gas-cylinder`);
    const open = page.getByRole('link', { name: '打开气瓶追溯' });
    await open.waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('portal.token'));
    expect(token).toBeTruthy();
    const href = new URL((await open.getAttribute('href'))!);
    expect(`${href.origin}${href.pathname}`).toBe('https://qp.example.cn/portal');
    expect(href.searchParams.get('from')).toBe('esp');
    expect(href.searchParams.get('token')).toBe(token);
    await expect(open.getAttribute('target')).resolves.toBe('_blank');
    await page.unroute(`**${API.appConfig}*`);
  });
});
