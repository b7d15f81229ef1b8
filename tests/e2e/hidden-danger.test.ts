/**
 * Hidden dangers (/implementation yhhzsb, issue 13): the unit files one, reports it (上报) and,
 * once rectified, marks it 整改完成 with the date and result.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { submitDialog } from './support/shell';
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
    await page.getByRole('button', { name: /新\s*增/ }).filter({ visible: true }).click();
    await textbox('隐患描述').fill(content);
    await date('发现日期', addToDate(todayIn(), -1, 'd'));
    await textbox('整改措施').fill('更换压力表并校验');
    await date('整改期限', addToDate(todayIn(), 3, 'd'));
    await page.getByRole('button', { name: /上\s*报/ }).filter({ visible: true }).click();
    await page.getByText(/上报成功/).first().waitFor();
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
