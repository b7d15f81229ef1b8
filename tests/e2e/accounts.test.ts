/**
 * Accounts and phone upload in Chromium: nbadmin makes a sub-account under 子账号维护
 * with one menu group; its first login forces a password change, and then its menu holds only what
 * it was given. A desktop form's attachment field shows a QR code whose address, opened on a phone
 * (another browser context, no session), takes a file that the desktop form then shows.
 */
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { logIn, logOut } from './support/shell';
import { browserSuite } from './support/suite';

const baseURL = inject('baseURL');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('accounts', () => {
  const { page, browser } = browserSuite();

  it('a sub-account made by nbadmin sees only the menus it was given', async () => {
    page.setDefaultTimeout(20_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await logIn(page, baseURL, { loginName: 'nbadmin', password: 'Admin@2026', orgCode: DEMO_UNITS.using.orgcode });
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/system/bypassAccount`);
    await page.getByRole('cell', { name: 'nbsub' }).waitFor();

    const loginName = `e2e${Date.now().toString(36)}`;
    await page.getByRole('button', { name: '新增子账号' }).click();
    const dialog = page.locator('.ant-modal', { hasText: '新增子账号' });
    await dialog.getByLabel('登录账号').fill(loginName);
    await dialog.getByLabel('姓名').fill('赵敏');
    await dialog.getByLabel('手机号码').fill('13905740021');
    await dialog.getByLabel('角色名称').fill('主体责任专员');
    // The tree offers nbadmin's own menus only (never the system menu) and grants a whole group at once.
    const tree = dialog.getByTestId('option-tree');
    await expect(tree.getByText('子账号维护').count()).resolves.toBe(0);
    await tree.locator('.ant-tree-treenode', { hasText: '企业主体责任' }).first().locator('.ant-tree-checkbox').click();
    await dialog.getByRole('button', { name: /保\s*存/ }).click();

    const created = page.locator('.ant-modal-confirm', { hasText: '账号已创建' });
    const password = (await created.getByTestId('once-value').innerText()).trim();
    expect(password).toMatch(/^\d{8}$/);
    await created.getByRole('button', { name: '我已记下' }).click();
    const row = page.locator('.ant-table-row', { hasText: loginName });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain('主体责任专员');
    await logOut(page);

    // First login with the initial password: the forced change, then a login with the new one.
    const strong = 'Zhao@2026x';
    await logIn(page, baseURL, { loginName, password, orgCode: DEMO_UNITS.using.orgcode });
    const change = page.locator('.change-password-modal .ant-modal');
    await change.getByText('请修改登录密码').waitFor();
    await change.getByLabel('当前密码').fill(password);
    await change.getByLabel('新密码', { exact: true }).fill(strong);
    await change.getByLabel('确认新密码').fill(strong);
    await change.getByRole('button', { name: /确\s*定/ }).click();
    await page.waitForURL(/\/login/);
    await logIn(page, baseURL, { loginName, password: strong, orgCode: DEMO_UNITS.using.orgcode });
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    const menu = page.locator('.shell-menu');
    await menu.waitFor();
    const groups = await menu.locator('.ant-menu-submenu-title').allInnerTexts();
    expect(groups.map((g) => g.trim())).toEqual(['企业主体责任']);
    const text = await menu.innerText();
    for (const other of ['设备管理', '使用登记', '企业信息维护', '系统管理', '自助服务']) expect(text).not.toContain(other);
    // A route outside its menus is refused.
    await page.goto(`${baseURL}/equipment/overview`);
    await page.waitForURL(/\/401$/);
  });

  it('a file uploaded on the phone page appears in the desktop form', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' })).newPage();
    page.setDefaultTimeout(20_000);
    await logIn(page, baseURL, { loginName: 'nbadmin', password: 'Admin@2026', orgCode: DEMO_UNITS.using.orgcode });
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/home/unit-notice/form`);
    const field: Locator = page
      .locator('.ant-formily-item')
      .filter({ visible: true })
      .filter({ has: page.locator('.ant-formily-item-label', { hasText: '附件' }) })
      .first();
    await field.waitFor();
    await field.getByRole('button', { name: '手机上传' }).click();
    const qr = page.locator('.ant-modal', { hasText: '手机扫码上传' });
    const link = qr.getByTestId('mobile-upload-link');
    const url = await link.getAttribute('href');
    expect(url).toMatch(/\/attachmentUploadMobile\?token=[\w-]{43}$/);

    // The phone: another context, a phone's viewport, no session.
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, locale: 'zh-CN' })).newPage();
    try {
      await phone.goto(url!);
      await phone.getByText('宁波甬江特种设备使用有限公司').waitFor();
      await phone.getByTestId('mobile-file').setInputFiles({ name: '现场照片.png', mimeType: 'image/png', buffer: PNG });
      await phone.getByText('上传成功').waitFor();
      const width = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      // The code is single-use: opening it again says so.
      await phone.reload();
      await phone.getByText('二维码已失效或已使用，请在电脑上重新生成').waitFor();
    } finally {
      await phone.context().close();
    }

    // The desktop dialog hears of it and the file joins the field, without a reload.
    await qr.getByText('已收到：现场照片.png').waitFor();
    await qr.locator('.ant-modal-close').click();
    const entry = field.locator('.ant-upload-list-item', { hasText: '现场照片.png' });
    await entry.waitFor();
    await expect(entry.locator('a[href*="/attachments/download/"]').count()).resolves.toBeGreaterThan(0);
  });
});
