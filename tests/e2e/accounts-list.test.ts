/**
 * The account lists as schema screens at 1366×768: the authority's 账号管理 shows each account's
 * 所属单位 and full 创建时间 (date and time) uncut and inside the table without scrolling sideways,
 * folds its filters behind 展开/收起, offers 列设置, keeps its filters when the clerk comes back,
 * and asks before 停用; its 状态 reads 已锁定 for an account five wrong passwords locked, and 解锁
 * brings it back to 正常; the unit's 子账号维护 does the same over its sub-accounts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { loginOverHttp } from './support/api';
import { signedInSuite } from './support/suite';

/** Whether every cell of the column headed `title` shows its whole text inside the table's visible area. */
async function columnUncut(page: Page, title: string): Promise<{ texts: string[]; cut: string[] }> {
  return page.evaluate((heading) => {
    const table = document.querySelector<HTMLElement>('.ant-table-wrapper')!;
    const heads = [...table.querySelectorAll<HTMLElement>('.ant-table-thead th')];
    const index = heads.findIndex((th) => th.innerText.trim() === heading);
    if (index < 0) return { texts: [], cut: [`no column ${heading}`] };
    const visible = table.querySelector<HTMLElement>('.ant-table-content, .ant-table-body')!.getBoundingClientRect();
    const texts: string[] = [];
    const cut: string[] = [];
    for (const row of table.querySelectorAll<HTMLElement>('.ant-table-tbody .ant-table-row')) {
      const cell = row.querySelectorAll<HTMLElement>('td')[index];
      const box = cell.getBoundingClientRect();
      const text = cell.innerText.trim();
      texts.push(text);
      const inner = cell.querySelector<HTMLElement>('.ant-typography, span, a') ?? cell;
      // The fixed 操作 column lies over the cells that scroll under it.
      const fixed = row.querySelector<HTMLElement>('.ant-table-cell-fix-right');
      const right = Math.min(visible.right, fixed ? fixed.getBoundingClientRect().left : Infinity);
      if (cell.scrollWidth > cell.clientWidth + 1 || inner.scrollWidth > inner.clientWidth + 1 || box.right > right + 1 || box.left < visible.left - 1)
        cut.push(text);
    }
    return { texts, cut };
  }, title);
}

describe('account lists', () => {
  const { page, baseURL } = signedInSuite('jgadmin');

  it('账号管理 shows 所属单位 and 创建时间 uncut at 1366×768, with 展开/收起 and 列设置', async () => {
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseURL}/account/manager`);
    await page.locator('.ant-table-wrapper .ant-table-row').first().waitFor();

    const units = await columnUncut(page, '所属单位');
    expect(units.texts.length).toBeGreaterThan(0);
    expect(units.texts).toContain('宁波北仑港城起重设备使用有限公司');
    expect(units.cut).toEqual([]);
    const created = await columnUncut(page, '创建时间');
    for (const text of created.texts) expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(created.cut).toEqual([]);

    await page.getByRole('button', { name: '列设置' }).click();
    await page.locator('.ant-popover', { hasText: '行高' }).waitFor();
    await page.keyboard.press('Escape');

    await page.getByText(/展开（另有 \d+ 项）/).click();
    await page.getByText('收起').waitFor();
  });

  it('keeps its filters after a visit to an account, and asks before 停用', async () => {
    await page.goto(`${baseURL}/account/manager`);
    const filters = page.locator('.engine-list-filters');
    await filters.getByLabel('登录账号').fill('bladmin');
    await filters.getByRole('button', { name: /查\s*询/ }).click();
    await page.waitForURL(/loginName=bladmin/);
    const rows = page.locator('.engine-list-table .ant-table-row');
    await expect.poll(() => rows.count()).toBe(1);

    await rows.first().getByRole('link', { name: 'bladmin' }).click();
    await page.waitForURL(/\/account\/account-detail\?id=/);
    await page.goBack();
    await page.waitForURL(/loginName=bladmin/);
    await expect.poll(() => page.locator('.engine-list-table .ant-table-row').count()).toBe(1);
    await expect(page.locator('.engine-list-filters').getByLabel('登录账号').inputValue()).resolves.toBe('bladmin');

    // 停用 asks first; cancelling changes nothing.
    await page.locator('.engine-list-table .ant-table-row').first().getByRole('button', { name: '停用' }).click();
    const ask = page.locator('.ant-modal-confirm', { hasText: '确定停用账号 bladmin 吗？' });
    await ask.waitFor();
    await ask.getByRole('button', { name: /取\s*消/ }).click();
    await ask.waitFor({ state: 'detached' });
    await expect(page.locator('.engine-list-table .ant-table-row').first().innerText()).resolves.toContain('正常');
  });

  it('shows an account five wrong passwords locked as 已锁定, and 解锁 brings it back to 正常', async () => {
    const account = DEMO_ACCOUNTS.find((a) => a.loginName === 'blsub')!;
    for (let i = 0; i < 5; i++) await expect(loginOverHttp(`${baseURL}/espServer`, { ...account, password: 'wrong-password' })).rejects.toThrow();
    await page.goto(`${baseURL}/account/manager?loginName=blsub`);
    const row = page.locator('.engine-list-table .ant-table-row');
    await expect.poll(() => row.count()).toBe(1);
    await expect(row.locator('.ant-tag', { hasText: '已锁定' }).count()).resolves.toBe(1);
    // With 解锁 the 操作 column is at its widest: 创建时间 still shows whole, beside it.
    expect((await columnUncut(page, '创建时间')).cut).toEqual([]);
    await row.getByRole('button', { name: '解锁' }).click();
    const ask = page.locator('.ant-modal-confirm', { hasText: '确定解锁账号 blsub 吗？' });
    await ask.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('账号已解锁').waitFor();
    await row.locator('.ant-tag', { hasText: '正常' }).waitFor();
    await expect(row.getByRole('button', { name: '解锁' }).count()).resolves.toBe(0);
  });
});
