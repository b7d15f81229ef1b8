/**
 * The authority's 简易申报受理 (/account/declaration-audit): jgadmin opens the list on the
 * declarations waiting to be accepted (the demo seed's), the one past its 受理期限 in red and the
 * one near it in orange; it opens one and returns it with an opinion (back on the list, it is no
 * longer waiting), which the detail's flow log shows after the declarant's 提交; a using unit's
 * administrator has no such menu entry.
 */
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { logInAs, logOut, openMenu, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const OVERDUE = '工地施工升降机无人持证操作';
const NEAR = '港区门式起重机行走异常';

describe('the authority handles the simple declarations of its area', () => {
  const { page } = browserSuite();
  const row = (title: string) => page.locator('.ant-table-row', { hasText: title }).filter({ visible: true });

  it('lists those waiting, with their deadlines coloured, and returns one with an opinion', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await openMenu(page, '审批受理', '简易申报受理');
    await page.waitForURL(/\/account\/declaration-audit$/);
    await row(OVERDUE).waitFor();
    await expect(row(OVERDUE).locator('[data-deadline]').getAttribute('data-deadline')).resolves.toBe('overdue');
    await expect(row(NEAR).locator('[data-deadline]').getAttribute('data-deadline')).resolves.toBe('soon');
    // Opens on those waiting: the closed and the returned demo ones are not listed.
    await expect(page.locator('.ant-table-row', { hasText: '浴室燃气锅炉冒黑烟' }).count()).resolves.toBe(0);

    await row(OVERDUE)
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/account\/declaration-audit-detail\?/);
    await page.getByText('工地施工升降机由未持证人员操作').filter({ visible: true }).waitFor();
    const detail = page.url();
    await page
      .getByRole('button', { name: /退\s*回/ })
      .filter({ visible: true })
      .click();
    await submitDialog(
      page.locator('.ant-modal', { has: page.locator('textarea') }).filter({ visible: true }),
      '已移交江北区市场监管所立案调查，请关注后续短信通知',
    );
    // A final state: back on the list, which no longer has it among those waiting.
    await page.waitForURL(/\/account\/declaration-audit$/);
    await row(NEAR).waitFor();
    await expect.poll(() => row(OVERDUE).count()).toBe(0);
    await page.goto(detail);
    const log = page.locator('.ant-timeline').filter({ visible: true });
    await log.getByText('已移交江北区市场监管所立案调查').waitFor();
    expect(await log.innerText()).toContain('陈先生（申报人）');
    const state = page
      .locator('.ant-descriptions-item-label', { hasText: /^状态$/ })
      .filter({ visible: true })
      .locator('xpath=following-sibling::*[1]');
    await expect.poll(() => state.innerText()).toBe('已退回');
    await expect(
      page
        .getByRole('button', { name: /受\s*理/ })
        .filter({ visible: true })
        .count(),
    ).resolves.toBe(0);
    await logOut(page);
  });

  it('is not in a using unit’s menu', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.locator('.shell-menu').waitFor();
    await expect(page.locator('.shell-menu').getByText('简易申报受理').count()).resolves.toBe(0);
    await page.goto(`${baseURL}/account/declaration-audit`);
    await page.waitForURL(/\/401$/);
  });
});
