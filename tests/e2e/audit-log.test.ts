/**
 * 安全审计日志 in Chromium at 1366×768 as the demo authority (jgadmin), served by the engine (the
 * read-only resource audit-log): the area's audit rows newest first with readable changes and
 * formatted times; a search by operation narrows them and survives opening a row and coming back;
 * a record number's cell searches for that record's history;
 * the time column sorts; an unmatched search shows the empty state; 导出 downloads the search as
 * XLSX; nothing is wider than the page or the card.
 */
import { describe, expect, inject, it } from 'vitest';
import { openMenu } from './support/shell';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

describe('audit log screen', () => {
  const { page } = signedInSuite('jgadmin');

  it('lists, filters, sorts, opens and exports the area’s audit log', async () => {
    page.setDefaultTimeout(45_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await openMenu(page, '账号与系统', '安全审计日志');
    await page.waitForURL(/\/account\/audit-log/);
    const table = page.locator('.engine-list-table').filter({ visible: true });
    const rows = table.locator('.ant-table-row');
    await rows.first().waitFor();
    const total = () => page.locator('.ant-pagination-total-text').filter({ visible: true }).first().innerText();
    await expect.poll(total).toMatch(/^共 [1-9]\d* 条$/);
    expect(await table.locator('thead th').allInnerTexts()).toEqual(['时间', '单位', '操作人', '操作', '业务', '记录编号', '变更内容', '操作']);
    if (process.env.AUDIT_SCREENSHOT) await page.screenshot({ path: process.env.AUDIT_SCREENSHOT });

    // Times read YYYY-MM-DD HH:mm:ss, newest first.
    const times = async () => (await rows.locator('td:first-child').allInnerTexts()).map((t) => t.trim());
    const first = await times();
    for (const t of first) expect(t).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect([...first].sort().reverse()).toEqual(first);

    // Nothing wider than the page, and the table within its card.
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const widths = await table.evaluate((el) => ({ table: el.querySelector('table')!.getBoundingClientRect().width, box: el.getBoundingClientRect().width }));
    expect(widths.table).toBeLessThanOrEqual(widths.box + 1);

    // Search: the operation 新增; every row then reads 新增 and its changes 「字段：值」.
    await page.locator('.engine-filter-bar .ant-form-item', { hasText: '操作' }).filter({ visible: true }).locator('.ant-select-selector').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: /^新增$/ }).click();
    await page
      .locator('.engine-filter-bar')
      .filter({ visible: true })
      .getByRole('button', { name: /^查\s*询$/ })
      .click();
    await page.waitForURL(/operation=insert/);
    await expect.poll(async () => (await rows.locator('td:nth-child(4)').allInnerTexts()).every((t) => t.trim() === '新增')).toBe(true);
    const changes = await rows.locator('td:nth-child(7)').allInnerTexts();
    expect(changes.length).toBeGreaterThan(0);
    for (const text of changes) expect(text).toMatch(/\S：\S/);

    // Open a row, then come back: the search is still there.
    await rows
      .first()
      .getByRole('button', { name: /查\s*看/ })
      .or(rows.first().getByRole('link', { name: /查\s*看/ }))
      .first()
      .click();
    await page.waitForURL(/\/account\/audit-log\/detail/);
    await page.getByText('变更内容').filter({ visible: true }).first().waitFor();
    await page.goBack();
    await page.waitForURL(/operation=insert/);
    await expect.poll(async () => (await rows.locator('td:nth-child(4)').allInnerTexts()).every((t) => t.trim() === '新增')).toBe(true);
    await expect.poll(() => page.locator('.engine-filter-bar .ant-select-selection-item[title="新增"]').filter({ visible: true }).count()).toBe(1);

    // The time column sorts: newest first is the default; the header's cycle leads to oldest first.
    const header = table.locator('thead th', { hasText: '时间' });
    // Each click moves the sort one step (descending → none → ascending) and the address with it.
    // Wait for the address to move before the next click, so a slow click is not doubled; a click
    // the table did not take (it was still re-rendering) leaves the address as it was, and is repeated.
    for (let steps = 0; steps < 6 && !/[?&]orderBy=time(&|$)/.test(page.url()); steps++) {
      const before = page.url();
      await header.click();
      await expect
        .poll(() => page.url(), { timeout: 15_000 })
        .not.toBe(before)
        .catch(() => undefined);
    }
    await page.waitForURL(/[?&]orderBy=time(&|$)/);
    await expect
      .poll(async () => {
        const t = await times();
        return t.length > 1 && t.join() === [...t].sort().join();
      })
      .toBe(true);

    // 导出 is a link to the same search as XLSX (opened beside the page): fetched with the page's session.
    const href = await page
      .locator('a', { hasText: /导\s*出/ })
      .filter({ visible: true })
      .first()
      .getAttribute('href');
    expect(href).toContain('operation=insert');
    const file = await page.request.get(new URL(href!, baseURL).toString());
    expect(file.status()).toBe(200);
    expect(decodeURIComponent(file.headers()['content-disposition'] ?? '')).toContain('安全审计日志');
    expect((await file.body()).subarray(0, 2).toString()).toBe('PK');

    // A record number searches the log for that record (the rows of its history).
    const recordCell = rows.first().locator('td:nth-child(6) a');
    const recordId = (await recordCell.getAttribute('title'))!.match(/“(.+)”/)![1];
    await recordCell.click();
    await page.waitForURL(new RegExp(`recordId=${recordId}`));
    await expect
      .poll(async () => (await rows.locator('td:nth-child(6)').allInnerTexts()).every((t) => recordId.startsWith(t.trim().replace(/…$/, ''))))
      .toBe(true);

    // A search that matches nothing: the empty state.
    await page.goto(`${baseURL}/account/audit-log?recordId=${encodeURIComponent('没有这样的记录')}`);
    await table.locator('.ant-empty-description', { hasText: '暂无数据' }).waitFor();
  });
});
