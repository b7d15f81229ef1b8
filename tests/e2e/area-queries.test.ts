/**
 * The authority's area queries (辖区监管): jgadmin opens 超期未检 through the menu and finds the
 * overdue equipment of both demo using units, each row with its 使用单位 and its date red; 导出
 * downloads the query; a row opens the equipment's detail read-only (no 编辑, no 删除).
 */
import { describe, expect, inject, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { browserSuite } from './support/suite';
import { logInAs, openMenu } from './support/shell';

const baseURL = inject('baseURL');

describe('辖区监管 → 超期未检', () => {
  const { page } = browserSuite();

  it('lists the overdue equipment of both units with the unit name, exports it and opens a row read-only', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await openMenu(page, '辖区监管', '超期未检');
    await page.waitForURL(/\/area\/equipment-timeout/);
    const table = page.locator('.ant-table').filter({ visible: true });
    const rows = table.locator('.ant-table-row');
    await rows.first().waitFor();
    await table.locator('thead th', { hasText: '使用单位' }).first().waitFor();
    await expect(rows.first().locator('[data-deadline]').getAttribute('data-deadline')).resolves.toBe('overdue');

    // Both units' rows: the first unit's come first on the page; the second's through the 使用单位 filter.
    expect(await table.innerText()).toContain(DEMO_UNITS.using.orgname);
    await page.getByPlaceholder('请输入使用单位').filter({ visible: true }).fill('北仑');
    await page
      .getByRole('button', { name: /查\s*询/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/unitName=/);
    await expect.poll(async () => (await rows.count()) > 0 && (await rows.allInnerTexts()).every((t) => t.includes(DEMO_UNITS.second.orgname))).toBe(true);

    // 导出: the same query as XLSX, fetched with the page's session.
    const href = await page
      .locator('a', { hasText: /导\s*出/ })
      .filter({ visible: true })
      .first()
      .getAttribute('href');
    expect(href).toContain('unitName=');
    const file = await page.request.get(new URL(href!, baseURL).toString());
    expect(file.status()).toBe(200);
    expect((await file.body()).subarray(0, 2).toString()).toBe('PK');

    // A row opens the detail: the unit and the equipment, read only.
    const name = (await rows.first().locator('td').first().innerText()).trim();
    await rows
      .first()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/area\/equipment-detail\?/);
    const detail = page.locator('.ant-descriptions').filter({ visible: true });
    await detail.first().waitFor();
    await expect.poll(async () => (await detail.allInnerTexts()).join('\n')).toContain(DEMO_UNITS.second.orgname);
    expect((await detail.allInnerTexts()).join('\n')).toContain(name);
    expect(
      await page
        .getByRole('button', { name: /编\s*辑/ })
        .filter({ visible: true })
        .count(),
    ).toBe(0);
    expect(
      await page
        .getByRole('button', { name: /删\s*除/ })
        .filter({ visible: true })
        .count(),
    ).toBe(0);
  });
});
