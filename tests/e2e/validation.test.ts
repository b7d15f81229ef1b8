/**
 * The validator catalogue in a real form: the profile dialog shows a field's message only after
 * the 500 ms deferral, and the password dialog shows the live strength meter.
 */
import { describe, expect, it } from 'vitest';
import { signedInSuite } from './support/suite';
import { openUserMenu } from './support/shell';

describe('field validation in the browser', () => {
  const { page } = signedInSuite('nbadmin');

  it('shows the mobile-number message after the deferral and not before', async () => {
    await openUserMenu(page, '个人信息');
    const dialog = page.locator('.ant-modal', { hasText: '手机号码' });
    const mobile = dialog.getByLabel('手机号码');
    await mobile.fill('');
    await mobile.pressSequentially('1381234', { delay: 20 });
    const message = dialog.getByText('请输入有效的手机号码');
    await page.waitForTimeout(250);
    expect(await message.count()).toBe(0);
    await message.waitFor({ timeout: 2000 });
    await mobile.fill('13812345678');
    await message.waitFor({ state: 'detached', timeout: 2000 });
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
  });

  it('rates a new password live while it is typed', async () => {
    await openUserMenu(page, '修改密码');
    const dialog = page.locator('.change-password-modal .ant-modal');
    const meter = dialog.locator('.strength-meter');
    await dialog.getByLabel('新密码', { exact: true }).fill('abcdefgh');
    await expect.poll(() => meter.getAttribute('data-score')).toBe('1');
    await expect(meter.innerText()).resolves.toContain('弱');
    await dialog.getByLabel('新密码', { exact: true }).fill('Admin@2026');
    await expect.poll(() => meter.getAttribute('data-score')).toBe('4');
    await expect(meter.innerText()).resolves.toContain('强');
    await dialog.getByLabel('新密码', { exact: true }).blur();
    await dialog.getByLabel('确认新密码').focus();
    expect(await dialog.getByText('请输入8-14位含字母、数字和特殊符号的密码').count()).toBe(0);
    await dialog.getByLabel('新密码', { exact: true }).fill('12345678');
    await dialog.getByLabel('确认新密码').focus();
    await dialog.getByText('请输入8-14位含字母、数字和特殊符号的密码').waitFor();
    await dialog.getByRole('button', { name: /取\s*消/ }).click();
  });
});
