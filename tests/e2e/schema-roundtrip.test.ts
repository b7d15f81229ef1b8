/**
 * A screen defined only in JSON (schemas/resources/demo-notice.json and its list, form and detail
 * screens), end to end against the real server: the unit adds a notice and submits it, the
 * authority approves it with an opinion, and the detail shows the flow log.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const title = `电梯安全月活动通知 ${Date.now()}`;

describe('a JSON-only screen: list → add → save → commit → audit → flow log', () => {
  const { page } = browserSuite();

  const row = () => page.locator('.ant-table-row', { hasText: title }).filter({ visible: true });
  // Pages of other open tabs stay mounted but hidden (keep-alive): act on the visible one only.
  const field = (label: string) => page.getByLabel(label).filter({ visible: true });

  it('the unit saves a draft, then submits it from the form', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.locator('.shell-menu').getByRole('menuitem', { name: '单位通知' }).click();
    await page.waitForURL(/\/home\/unit-notice$/);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/\/home\/unit-notice\/form\?mode=add/);

    // Required fields are checked before anything is sent.
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('请填写标题').first().waitFor();

    await field('标题').fill(title);
    await field('正文').fill('各使用单位请于本月底前完成电梯自查。');
    await field('联系邮箱').fill('not-an-email');
    await page.getByText('请输入正确邮箱格式').waitFor();
    await field('联系邮箱').fill('safety@example.com');
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();

    await page.goto(`${baseURL}/home/unit-notice`);
    await row().waitFor();
    await expect(row().innerText()).resolves.toContain('草稿');
    await row()
      .getByRole('button', { name: /提\s*交/ })
      .click();
    await page
      .locator('.ant-modal-confirm')
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await expect.poll(() => row().innerText()).toContain('已提交');
    // A submitted notice can no longer be edited or deleted by the unit.
    expect(
      await row()
        .getByRole('button', { name: /编\s*辑/ })
        .count(),
    ).toBe(0);
    await logOut(page);
  });

  it('the authority approves it with an opinion; the detail shows the flow log', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/home/unit-notice`);
    await row().waitFor();
    await row()
      .getByRole('button', { name: /审核通过/ })
      .click();
    await submitDialog(page.locator('.ant-modal', { has: page.locator('textarea') }), '同意发布');
    await expect.poll(() => row().innerText()).toContain('已通过');

    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/home\/unit-notice\/detail\?/);
    await page.getByText(title).filter({ visible: true }).first().waitFor();
    const log = page.locator('.ant-timeline');
    await log.getByText('同意发布').waitFor();
    const text = await log.innerText();
    expect(text).toMatch(/提交/);
    expect(text).toMatch(/审核通过/);
  });
});
