/** /dev/playground: a pasted screen renders live beside its lint errors; seed user only. */
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { account, logIn, logInAs, logOut } from './support/shell';

const baseURL = inject('baseURL');

describe('schema playground', () => {
  const { page } = browserSuite();

  it('renders the pasted screen and lists its lint errors with their location', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/dev/playground`);
    const preview = page.locator('.schema-playground');
    await preview.getByRole('button', { name: /新\s*增/ }).waitFor();
    await expect(preview.locator('.schema-playground__errors').innerText()).resolves.toContain('没有发现问题');

    const editor = page.getByLabel('屏幕定义');
    const text = await editor.inputValue();
    await editor.fill(text.replace('"title": "通知公告"', '"title": "通知公告（调试）"'));
    await preview.getByText('通知公告（调试）').waitFor();

    await editor.fill(text.replace('"title", "category"', '"title", "nosuchfield"'));
    await expect
      .poll(() => preview.locator('.schema-playground__errors').innerText())
      .toMatch(/screens\/demo-notice-list\.json:\d+:\d+: resource 'demo-notice' has no field 'nosuchfield'/);
    await preview.getByText('修正左侧的问题后显示预览').waitFor();
    await logOut(page);
  });

  it('is not open to a sub-account', async () => {
    await logInAs(page, baseURL, 'nbsub');
    await page.goto(`${baseURL}/dev/playground`);
    await page.waitForURL(/\/401$/);
  });
});
