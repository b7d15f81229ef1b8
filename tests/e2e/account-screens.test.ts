/**
 * The account screens as schema screens (账号详情, 新增账号): the authority opens an account its
 * area holds, 解锁 lifts the lock five wrong passwords set, 停用 asks (red) and ends it, 启用 brings
 * it back — each time the detail reads the account again and stays; 新增账号 offers a tree of the
 * authority's own menus, shows the initial password once, then opens the new account's page.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { loginOverHttp } from './support/api';
import { signedInSuite } from './support/suite';

describe('account screens', () => {
  const { page, baseURL } = signedInSuite('jgadmin');

  it('账号详情: 解锁, 停用 and 启用 call the account endpoints and the detail stays on the account', async () => {
    page.setDefaultTimeout(30_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    const account = DEMO_ACCOUNTS.find((a) => a.loginName === 'gcwb')!;
    for (let i = 0; i < 5; i++) await expect(loginOverHttp(`${baseURL}/espServer`, { ...account, password: 'wrong-password' })).rejects.toThrow();

    await page.goto(`${baseURL}/account/manager?loginName=gcwb`);
    await page.locator('.engine-list-table .ant-table-row').getByRole('link', { name: 'gcwb' }).click();
    await page.waitForURL(/\/account\/account-detail\?id=/);
    const detail = page.locator('.engine-screen');
    const state = detail.locator('.ant-descriptions-row', { hasText: '状态' }).first();
    await state.getByText('已锁定').waitFor();
    await detail.getByText('角色与菜单权限').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1366);

    await detail.getByRole('button', { name: /解\s*锁/ }).click();
    await page
      .locator('.ant-modal-confirm', { hasText: '确定解锁该账号吗？' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('账号已解锁').waitFor();
    await state.getByText('正常').waitFor();
    await expect(detail.getByRole('button', { name: /解\s*锁/ }).count()).resolves.toBe(0);
    expect(page.url()).toMatch(/\/account\/account-detail\?id=/);

    await detail.getByRole('button', { name: /停\s*用/ }).click();
    const ask = page.locator('.ant-modal-confirm', { hasText: '确定停用该账号吗？停用后该账号立即退出登录，且不能再登录。' });
    await expect(ask.locator('.ant-btn-dangerous').count()).resolves.toBe(1);
    await ask.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('账号已停用').waitFor();
    await state.getByText('已停用').waitFor();
    await expect(loginOverHttp(`${baseURL}/espServer`, account)).rejects.toThrow();

    await detail.getByRole('button', { name: /启\s*用/ }).click();
    await page
      .locator('.ant-modal-confirm', { hasText: '确定启用该账号吗？' })
      .getByRole('button', { name: /确\s*定/ })
      .click();
    await page.getByText('账号已启用').waitFor();
    await state.getByText('正常').waitFor();
    await expect(loginOverHttp(`${baseURL}/espServer`, account)).resolves.toBeTruthy();
  });

  it('新增账号: the authority makes a staff account from its own menus and sees the initial password once', async () => {
    await page.goto(`${baseURL}/account/add-account`);
    const form = page.locator('.engine-screen');
    const loginName = `jg${Date.now().toString(36)}`;
    await form.getByLabel('登录账号').fill(loginName);
    await form.getByLabel('姓名').fill('钱程');
    await form.getByLabel('手机号码').fill('13905740031');
    await form.getByLabel('角色名称').fill('账号管理员');
    const tree = form.getByTestId('option-tree');
    // The authority's own menus only: never a using unit's.
    await tree.getByText('账号与系统').waitFor();
    await expect(tree.getByText('企业主体责任').count()).resolves.toBe(0);
    // Nothing checked: the form says so and posts nothing.
    await form.getByRole('button', { name: /保\s*存/ }).click();
    await form.getByText('请至少选择一个菜单权限').waitFor();
    await tree.locator('.ant-tree-treenode', { hasText: '账号与系统' }).first().locator('.ant-tree-checkbox').click();
    await form.getByRole('button', { name: /保\s*存/ }).click();

    const created = page.locator('.ant-modal-confirm', { hasText: '账号已创建' });
    await created.getByText(`登录账号：${loginName}`).waitFor();
    await created.getByText('初始密码仅显示这一次，请告知使用人；首次登录时须修改密码。').waitFor();
    const password = (await created.getByTestId('once-value').innerText()).trim();
    expect(password).toMatch(/^\d{8}$/);
    await created.getByRole('button', { name: '我已记下' }).click();
    await page.waitForURL(/\/account\/account-detail\?id=[0-9a-f]{32}$/);
    const detail = page.locator('.engine-screen');
    await detail.getByText(loginName).first().waitFor();
    await detail.locator('.ant-descriptions', { hasText: '账号管理员' }).getByText('账号管理', { exact: true }).first().waitFor();
    const jg = DEMO_ACCOUNTS.find((a) => a.loginName === 'jgadmin')!;
    await expect(loginOverHttp(`${baseURL}/espServer`, { ...jg, loginName, password })).resolves.toBeTruthy();
  });
});
