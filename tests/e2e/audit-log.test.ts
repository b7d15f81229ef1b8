/**
 * 安全审计日志 in Chromium at 1366×768 as the demo authority (jgadmin): the demo's audit rows of
 * its area are listed newest first with readable changes; a search by business and operation
 * narrows them; 导出 downloads the same search as XLSX; nothing is wider than the page.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { openMenu } from './support/shell';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');

describe('audit log screen', () => {
  const { page } = signedInSuite('jgadmin');

  it('lists, searches and exports the area’s audit log', { timeout: 120_000 }, async () => {
    page.setDefaultTimeout(20_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await openMenu(page, '账号管理', '安全审计日志');
    await page.waitForURL(/\/account\/audit-log/);
    const rows = page.locator('.ant-table-row');
    await rows.first().waitFor();
    const total = Number((await page.locator('.ant-pagination-total-text').innerText()).match(/\d+/)![0]);
    expect(total).toBeGreaterThan(0);
    if (process.env.AUDIT_SCREENSHOT) await page.screenshot({ path: process.env.AUDIT_SCREENSHOT });

    // Search: the business by its Chinese title, and the operation 新增.
    const select = (name: string) => page.locator('.ant-select', { has: page.locator(`#auditFilter_${name}`) }).locator('.ant-select-selector');
    await select('resource').click();
    const first = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').first();
    const title = (await first.innerText()).trim();
    await first.click();
    await select('operation').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '新增' }).first().click();
    await page.getByRole('button', { name: /查\s*询/ }).click();
    await page.waitForURL(/resource=/);
    // The previous page stays until the search answers: wait for rows of the search alone.
    await expect.poll(async () => (await rows.allInnerTexts()).every((text) => text.includes(title) && text.includes('新增'))).toBe(true);
    const found = await rows.allInnerTexts();
    expect(found.length).toBeGreaterThan(0);
    // Each change reads 「字段：值」 (「字段：旧 → 新」 once a value changes).
    for (const text of found) expect(text).toMatch(/\S：\S/);

    // Nothing wider than the page.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /导\s*出/ }).click()]);
    expect(download.suggestedFilename()).toBe('安全审计日志.xlsx');
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
  });
});
