/**
 * An on-site check started from an equipment list row: the row's 现场检查 opens
 * /equipment/checkNew/:id, the form prefills the equipment from the route and copies its data,
 * the unit records the check, and 现场检查 lists it.
 */
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const checker = `检查员${String(Date.now()).slice(-5)}`;

describe('on-site check from an equipment row', () => {
  const { page } = signedInSuite('nbadmin');

  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });

  it('opens checkNew/:id for the row, prefilled, and records the check', async () => {
    await page.goto(`${baseURL}/equipment/query-comprehensive?useStatus=1`);
    const row = page.locator('.ant-table-row').filter({ visible: true }).first();
    await row.waitFor();
    const name = (await row.locator('td').first().innerText()).trim();
    await row.getByRole('button', { name: '现场检查' }).click();
    await page.waitForURL(/\/equipment\/checkNew\/[0-9a-f]{32}$/);
    await expect.poll(() => textbox('设备名称').inputValue()).toBe(name);

    await textbox('检查日期').click();
    await textbox('检查日期').fill('2026-11-20');
    await page.keyboard.press('Enter');
    await textbox('检查人').fill(checker);
    await page.getByRole('combobox', { name: '检查结论', exact: true }).filter({ visible: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: '符合要求' }).click();
    await page
      .getByRole('button', { name: /保\s*存/ })
      .filter({ visible: true })
      .click();
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();

    await page.goto(`${baseURL}/equipment/xcjcList?checker=${encodeURIComponent(checker)}`);
    const listed = page.locator('.ant-table-row', { hasText: checker }).filter({ visible: true });
    await listed.waitFor();
    expect(await listed.innerText()).toContain(name);
  });
});
