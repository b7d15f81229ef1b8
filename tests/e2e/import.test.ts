/**
 * XLSX import from a list (schemas/screens/equipment-query.json toolbar `import`): the unit's
 * administrator opens 导入 on 设备综合查询, drops a two-row file into the dialog, is told
 * 成功导入 2 条 and sees both rows in the list without reloading; a file with a wrong row is
 * refused with the table of its problems and imports nothing.
 */
import ExcelJS from 'exceljs';
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const stamp = String(Date.now()).slice(-6);
const prefix = `E2E导入${stamp}`;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function xlsx(rows: (string | Date | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('设备');
  sheet.addRow(['*设备种类', '设备类别', '*设备名称', '*设备使用地点', '设备所在区域', '上次检验日期']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('importing rows from an .xlsx file on a list', () => {
  const { page } = signedInSuite('nbadmin');

  const dialog = (): Locator => page.locator('.engine-import-dialog').filter({ visible: true });
  const rows = (): Locator => page.locator('.ant-table-row', { hasText: prefix }).filter({ visible: true });
  const openImport = async () => {
    await page
      .getByRole('button', { name: /导\s*入/ })
      .filter({ visible: true })
      .click();
    await dialog().waitFor();
  };

  it('imports two rows through the dialog and shows them in the list', async () => {
    await page.goto(`${baseURL}/equipment/query-comprehensive?equipmentName=${encodeURIComponent(prefix)}`);
    await page.getByText('暂无数据').filter({ visible: true }).first().waitFor();

    await openImport();
    const template = dialog().getByRole('link', { name: /下载导入模板/ });
    expect(await template.getAttribute('href')).toBe('/espServer/r/equipment/import-template?screen=equipment-query');

    const file = await xlsx([
      ['电梯', '曳引与强制驱动电梯', `${prefix}客梯`, '宁波市鄞州区导入路1号', '鄞州区', '2025-03-01'],
      ['起重机械', '桥式起重机', `${prefix}行车`, '宁波市鄞州区导入路2号', '鄞州区', '2025-03-01'],
    ]);
    await dialog().locator('input[type=file]').setInputFiles({ name: '设备导入.xlsx', mimeType: XLSX_TYPE, buffer: file });
    await dialog().getByText('设备导入.xlsx').waitFor();
    await dialog()
      .getByRole('button', { name: /开始导入/ })
      .click();
    await dialog().getByText('成功导入 2 条').waitFor();
    await dialog()
      .getByRole('button', { name: /完\s*成/ })
      .click();
    await dialog().waitFor({ state: 'hidden' });

    // The list was refreshed: both rows, with the due dates the server derived.
    await expect.poll(() => rows().count()).toBe(2);
    const texts = await rows().allInnerTexts();
    expect(texts.find((t) => t.includes(`${prefix}客梯`))).toContain('2026-03-01');
    expect(texts.find((t) => t.includes(`${prefix}行车`))).toContain('2027-03-01');
  });

  it('refuses a file with a wrong row: the problems by row and column, nothing imported', async () => {
    await openImport();
    const file = await xlsx([
      ['电梯', '3100', `${prefix}第三台`, '宁波市鄞州区导入路3号', '鄞州区', null],
      ['电梯', '3100', null, '宁波市鄞州区导入路4号', '火星区', null],
    ]);
    await dialog().locator('input[type=file]').setInputFiles({ name: '有错误.xlsx', mimeType: XLSX_TYPE, buffer: file });
    await dialog()
      .getByRole('button', { name: /开始导入/ })
      .click();
    await dialog().getByText('导入失败，未导入任何数据').waitFor();
    const problems = dialog().locator('.engine-import-problems .ant-table-row');
    await expect
      .poll(() => problems.allInnerTexts())
      .toEqual([expect.stringMatching(/第3行\s+设备所在区域\s+“火星区”不是有效的选项/), expect.stringMatching(/第3行\s+设备名称\s+请填写设备名称/)]);
    await dialog()
      .getByRole('button', { name: /取\s*消/ })
      .click();
    await dialog().waitFor({ state: 'hidden' });
    await page.reload();
    await expect.poll(() => rows().count()).toBe(2);
  });
});
