/**
 * Supervision orders (监督整改): the authority (jgadmin) drafts a rectification notice to
 * the demo unit, picked by name (its credit code comes with it), and issues it (下发); the unit (nbadmin) finds it under 整改反馈查询 and answers it
 * (整改反馈) with a description, the completion date and an uploaded evidence file; the authority
 * verifies it (核查通过) and the detail shows the flow log and the evidence.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { browserSuite } from './support/suite';
import { logInAs, logOut, submitDialog } from './support/shell';

const baseURL = inject('baseURL');
const problem = `电梯轿厢紧急报警装置失效（E2E${Date.now().toString(36).slice(-5)}）`;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');

describe('a rectification order is answered with evidence', () => {
  const { page } = browserSuite();

  const textbox = (label: string, scope = page.locator('body')) => scope.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const date = async (label: string, value: string, scope = page.locator('body')) => {
    await textbox(label, scope).click();
    await textbox(label, scope).fill(value);
    await textbox(label, scope).press('Enter');
  };
  const row = () => page.locator('.ant-table-row', { hasText: problem }).filter({ visible: true });

  it('the authority drafts the notice to a unit of its area and issues it', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/supervision-order`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/\/account\/supervision-order-form\?mode=add/);
    // The unit is picked by a part of its name; its credit code comes with it.
    await page.getByRole('combobox', { name: '被监督单位', exact: true }).filter({ visible: true }).click();
    await page.keyboard.type('甬江');
    const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: DEMO_UNITS.using.orgname });
    await option.waitFor();
    await option.click();
    await page.getByText(DEMO_UNITS.using.orgcode, { exact: true }).filter({ visible: true }).first().waitFor();
    await textbox('存在问题').fill(problem);
    await textbox('整改要求').fill('修复紧急报警装置，确保与值班室可靠通话');
    await date('整改期限', addToDate(todayIn(), 10, 'd'));
    await page
      .getByRole('button', { name: /下\s*发/ })
      .filter({ visible: true })
      .click();
    await page
      .locator('.ant-modal-confirm', { hasText: '下发后使用单位即可查看' })
      .filter({ visible: true })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page
      .getByText(/下发成功/)
      .first()
      .waitFor();
    await page.goto(`${baseURL}/account/supervision-order`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待整改');
    await expect(row().innerText()).resolves.toContain(DEMO_UNITS.using.orgname);
    await logOut(page);
  });

  it('the unit answers it with a description, the completion date and an evidence file', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/correctQuery`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待整改');
    await row().getByRole('button', { name: '整改反馈' }).click();
    const dialog = page.locator('.ant-modal').filter({ visible: true });
    await textbox('整改情况说明', dialog).fill('已更换紧急报警装置主机，经维保单位测试通话正常');
    await date('整改完成日期', todayIn(), dialog);
    await dialog.locator('input[type=file]').setInputFiles({ name: '整改后测试记录.pdf', mimeType: 'application/pdf', buffer: PDF });
    await dialog.locator('a[href*="/attachments/download/"]').first().waitFor();
    await submitDialog(dialog);
    await expect.poll(() => row().innerText()).toContain('待核查');
    await logOut(page);
  });

  it('the authority verifies it; the detail shows the evidence and the flow log', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/supervision-order`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('待核查');
    await row().getByRole('button', { name: '核查通过' }).click();
    await submitDialog(page.locator('.ant-modal', { has: page.locator('textarea') }).filter({ visible: true }), '整改到位，予以销号');
    await expect.poll(() => row().innerText()).toContain('已销号');
    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/account\/supervision-order-detail\?/);
    await page.getByText('整改后测试记录.pdf').filter({ visible: true }).first().waitFor();
    const log = page.locator('.ant-timeline').filter({ visible: true });
    await log.getByText('整改到位，予以销号').waitFor();
    expect(await log.innerText()).toMatch(/整改反馈/);
  });
});
