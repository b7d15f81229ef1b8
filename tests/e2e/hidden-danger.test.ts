/**
 * Hidden dangers (/implementation yhhzsb): the unit files one, reports it (上报) and,
 * once rectified, marks it 整改完成 with the date and result. The yearly safety commitment letter
 * (/implementation SafetyResponsibility): the commit asks for the signed scan, then goes through.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { clickAndExpectWrite, submitDialog } from './support/shell';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const content = `压力表表盘破损无法读数（E2E${Date.now().toString(36).slice(-5)}）`;

describe('a hidden danger filed, reported and rectified', () => {
  const { page } = signedInSuite('nbadmin');

  const textbox = (label: string, scope = page.locator('body')) => scope.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const date = async (label: string, value: string, scope = page.locator('body')) => {
    await textbox(label, scope).click();
    await textbox(label, scope).fill(value);
    await textbox(label, scope).press('Enter');
  };
  const row = () => page.locator('.ant-table-row', { hasText: content }).filter({ visible: true });

  it('files the danger and reports it', async () => {
    await page.goto(`${baseURL}/implementation/yhhzsb`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await textbox('隐患描述').fill(content);
    await date('发现日期', addToDate(todayIn(), -1, 'd'));
    await textbox('整改措施').fill('更换压力表并校验');
    await date('整改期限', addToDate(todayIn(), 3, 'd'));
    await page
      .getByRole('button', { name: /上\s*报/ })
      .filter({ visible: true })
      .click();
    // The form asks the action's question once the input is valid.
    await clickAndExpectWrite(
      page,
      page
        .locator('.ant-modal-confirm', { hasText: '上报后不能再修改隐患信息' })
        .filter({ visible: true })
        .getByRole('button', { name: /确\s*定/ }),
      'hidden-danger',
      /上报成功/,
    );
    await page.goto(`${baseURL}/implementation/yhhzsb`);
    await expect.poll(async () => (await row().count()) && row().innerText()).toContain('整改中');
    await expect(row().locator('[data-deadline]').getAttribute('data-deadline')).resolves.toBe('soon');
  });

  it('marks it rectified with the date and result', async () => {
    await row().getByRole('button', { name: '整改完成' }).click();
    const dialog = page.locator('.ant-modal').filter({ visible: true });
    await date('整改完成日期', todayIn(), dialog);
    await textbox('整改情况', dialog).fill('已更换新压力表，校验合格');
    await submitDialog(dialog);
    await expect.poll(() => row().innerText()).toContain('已整改');
    // Rectified: its deadline is no longer coloured.
    await expect(row().locator('[data-deadline]').count()).resolves.toBe(0);
  });
});

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');

describe('a safety commitment letter filled, signed and committed', () => {
  const { page } = signedInSuite('nbadmin');
  // A year no demo letter uses, one per run (one letter a year per unit).
  const year = String(2040 + (Date.now() % 50));
  const item = (label: string) =>
    page
      .locator('.ant-formily-item')
      .filter({ visible: true })
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: label }) })
      .first();

  it('refuses the commit without the scan, then commits with it', async () => {
    await page.goto(`${baseURL}/implementation/SafetyResponsibility`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await item('承诺单位').getByText('宁波甬江特种设备使用有限公司').waitFor();
    await item('承诺年度').locator('input').fill(year);
    await item('主要负责人').locator('input').fill('陈国华');
    const sign = item('签署日期').locator('input');
    await sign.click();
    await sign.fill(todayIn());
    await sign.press('Enter');
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    await item('签字盖章扫描件').getByText('请上传签字盖章扫描件').waitFor();
    await item('签字盖章扫描件').locator('input[type=file]').setInputFiles({ name: '安全承诺书（盖章）.pdf', mimeType: 'application/pdf', buffer: PDF });
    await item('签字盖章扫描件').locator('a[href*="/attachments/download/"]').first().waitFor();
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    const confirm = page.locator('.ant-modal, .ant-popover').filter({ visible: true }).filter({ hasText: '提交后不能再修改' });
    await confirm.waitFor();
    await clickAndExpectWrite(page, confirm.getByRole('button', { name: /确\s*定/ }), 'safety-commitment', /提交成功/);
    await page.goto(`${baseURL}/implementation/SafetyResponsibility`);
    const row = page.locator('.ant-table-row', { hasText: year }).filter({ visible: true });
    await expect.poll(async () => (await row.count()) && row.innerText()).toContain('已提交');
  });
});
