/** /dev/playground: a pasted screen renders live beside its lint errors; the analyst role's tool, no company's. */
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { account, logIn, logInAs, logOut } from './support/shell';

const baseURL = inject('baseURL');

describe('schema playground', () => {
  const { page } = browserSuite();

  it('renders the pasted screen and lists its lint errors with their location', async () => {
    await logIn(page, baseURL, account('analyst'));
    await page.waitForURL(/\/home$/);
    // Its own menu entry.
    await page.locator('.ant-menu').getByText('屏幕调试台').waitFor();
    await page.goto(`${baseURL}/dev/playground`);
    const preview = page.locator('.schema-playground');
    await preview.locator('.ant-table').waitFor();
    await expect(preview.locator('.schema-playground__errors').innerText()).resolves.toContain('没有发现问题');

    const editor = page.getByLabel('屏幕定义');
    const text = await editor.inputValue();
    await editor.fill(text.replace('"title": "单位通知"', '"title": "单位通知（调试）"'));
    await preview.getByText('单位通知（调试）').waitFor();

    await editor.fill(text.replace('"title", "unitName"', '"title", "nosuchfield"'));
    await expect
      .poll(() => preview.locator('.schema-playground__errors').innerText())
      .toMatch(/screens\/demo-notice-list\.json:\d+:\d+: resource 'demo-notice' has no field 'nosuchfield'/);
    await preview.getByText('修正左侧的问题后显示预览').waitFor();
    await logOut(page);
  });

  it.each(['nbadmin', 'nbsub', 'jgadmin'])('is not open to %s', async (loginName) => {
    await logInAs(page, baseURL, loginName);
    await page.goto(`${baseURL}/dev/playground`);
    await page.waitForURL(/\/401$/);
    // The 401 page has no shell: sign out from the home page.
    await page.goto(`${baseURL}/home`);
    await logOut(page);
  });
});
