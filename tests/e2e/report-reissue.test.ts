/**
 * Re-issue of an inspection report in the browser: nbadmin (鄞州) applies for a re-issue of one of
 * its inspection reports at 检验报告及证书补发 (/company-service/report-reissue); the commit routes it
 * to 宁波市特种设备检验研究院, whose nbjy accepts it at 补发受理 (/inspection/report-reissue) and
 * issues it with a PDF; nbadmin then sees 已补发 and the document's download link in the detail.
 */
import { describe, expect, inject, it } from 'vitest';
import { pdfFile } from './support/form';
import { logInAs, logOut, submitDialog } from './support/shell';
import { browserSuite } from './support/suite';

const baseURL = inject('baseURL');
const DOCUMENT = `补发检验报告E2E${Date.now().toString(36).slice(-5)}.pdf`;

describe('report re-issue: the unit applies, the inspection body accepts and issues a PDF', () => {
  const { page } = browserSuite();
  let applyNo = '';

  const select = async (label: string, option?: string) => {
    // force: a select showing a value has its value over the input.
    await page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true }).click({ force: true });
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    const choice = option ? options.filter({ hasText: option }).first() : options.first();
    await choice.waitFor();
    await choice.click();
    await expect.poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ visible: true }).count()).toBe(0);
  };
  const row = () => page.locator('.ant-table-row', { hasText: applyNo }).filter({ visible: true });

  it('nbadmin applies for a re-issue of a lost report, to download', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/report-reissue`);
    await page
      .getByRole('button', { name: /申请补发/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/\/company-service\/report-reissue-form\?mode=add/);
    await select('补发文件', '检验报告');
    await select('检验记录');
    await select('补发原因', '遗失');
    // 在线下载 is the default: no posting fields.
    await expect(page.getByRole('textbox', { name: '邮寄地址', exact: true }).filter({ visible: true }).count()).resolves.toBe(0);
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    const confirm = page.locator('.ant-modal-confirm').filter({ visible: true });
    if (await confirm.count()) await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('提交成功').first().waitFor();

    await page.goto(`${baseURL}/company-service/report-reissue`);
    const first = page.locator('.ant-table-row', { hasText: '已提交' }).filter({ visible: true }).first();
    await first.waitFor();
    // The newest first: the one just submitted.
    applyNo = (await first.innerText()).match(/BF\d{10}/)![0];
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/company-service\/report-reissue-detail\?/);
    await page.getByText('宁波市特种设备检验研究院').filter({ visible: true }).first().waitFor();
    await logOut(page);
  });

  it('nbjy accepts it in its queue and issues it with a PDF', async () => {
    await logInAs(page, baseURL, 'nbjy');
    await page.goto(`${baseURL}/inspection/report-reissue`);
    await row().waitFor();
    await row()
      .getByRole('button', { name: /受\s*理/ })
      .click();
    await submitDialog(page.locator('.ant-modal', { has: page.locator('textarea') }).filter({ visible: true }), '予以受理');
    await expect.poll(() => row().innerText()).toContain('已受理');

    await row()
      .getByRole('button', { name: /^补\s*发$/ })
      .click();
    const dialog = page.locator('.ant-modal').filter({ visible: true }).filter({ hasText: '补发文件' });
    await dialog.locator('input[type=file]').setInputFiles(pdfFile(DOCUMENT));
    await dialog.getByText(DOCUMENT).waitFor();
    await submitDialog(dialog, '已补发电子报告');
    await expect.poll(() => page.locator('.ant-table-row', { hasText: applyNo }).count()).toBe(0); // the queue opens on open states only
    await logOut(page);
  });

  it('nbadmin sees 已补发 and the document link', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/report-reissue`);
    await expect.poll(() => row().innerText()).toContain('已补发');
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/company-service\/report-reissue-detail\?/);
    const link = page.getByRole('link', { name: DOCUMENT }).filter({ visible: true });
    await link.waitFor();
    expect(await link.getAttribute('href')).toMatch(/\/attachments\/download\/[0-9a-f]{32}/);
    await page.getByText('已补发电子报告').filter({ visible: true }).first().waitFor();
  });
});
