/**
 * The unit's information (/company-info): the unit applies to change its contact mobile
 * from 企业信息 (the form starts from the profile), the authority approves it, and 企业信息变更记录
 * shows the new version, whose difference from the one before 对比 marks field by field.
 */
import { describe, expect, inject, it } from 'vitest';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';
import { browserSuite, signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const mobile = `139${String(Date.now()).slice(-8)}`;
/** Lists, change texts and version rows show the mobile masked; the unit's own detail shows it whole. */
const shown = `${mobile.slice(0, 3)}****${mobile.slice(-4)}`;

describe('the unit changes its contact mobile, the authority approves, the history shows the difference', () => {
  const { page } = browserSuite();
  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const row = (text: string) => page.locator('.ant-table-row', { hasText: text }).filter({ visible: true });

  it('the unit applies from its profile, the form starting from the registered values', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/company-info/maintain`);
    await page.getByText('统一社会信用代码').first().waitFor();
    await page.getByRole('button', { name: '申请变更' }).click();
    await page.waitForURL(/dwxxwh-form/);
    await expect.poll(() => textbox('联系手机').inputValue()).toMatch(/^1\d{10}$/);
    await expect(textbox('单位名称').inputValue()).resolves.toBe('宁波甬江特种设备使用有限公司');
    await textbox('联系手机').fill(mobile);
    await textbox('变更原因').fill('企业联系人更换手机号码');
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    await page
      .getByText(/提交成功/)
      .first()
      .waitFor();
    await page.goto(`${baseURL}/company-info/dwxxwh`);
    await expect.poll(() => row(shown).innerText()).toContain('待审核');
  });

  it('the authority approves it', async () => {
    await logOut(page);
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/account/unit-change-audit`);
    await row(shown).getByRole('button', { name: '审核通过' }).click();
    await submitDialog(page.locator('.ant-modal').filter({ visible: true }), '信息属实，同意');
    // The queue opens on what waits: the approved one leaves it.
    await expect.poll(() => row(shown).count(), { timeout: 30_000 }).toBe(0);
  });

  it('the history shows the new version, and 对比 marks what changed', async () => {
    await logOut(page);
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-info/maintain-history`);
    const newest = row(shown).first();
    await expect.poll(() => newest.innerText()).toContain(`→ ${shown}`);
    const rows = page.locator('.ant-table-row').filter({ visible: true });
    await rows.nth(0).locator('.ant-checkbox-input').check();
    await rows.nth(1).locator('.ant-checkbox-input').check();
    await page.getByRole('button', { name: '对比' }).click();
    const dialog = page.locator('.ant-modal').filter({ visible: true });
    const differs = (label: string) =>
      dialog.locator('tr.engine-compare-differs').filter({ has: page.locator('td:first-child', { hasText: new RegExp(`^${label}$`) }) });
    const line = differs('联系手机');
    await expect.poll(() => line.innerText()).toContain(shown);
    await expect(differs('单位名称').count()).resolves.toBe(0);
    await page.goto(`${baseURL}/company-info/maintain`);
    await expect.poll(() => page.locator('.ant-descriptions', { hasText: '联系手机' }).innerText()).toContain(mobile);
  });
});

describe('a reference reads as the record it names, in the list, its filter and the detail', () => {
  const { page, baseURL } = signedInSuite('nbadmin');
  const dept = '安全生产管理部';
  const ID = /\b[0-9a-f]{32}\b/;

  it('shows the department by name, asking for a page of labels once', async () => {
    const asked: unknown[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('/r/safety-dept/list') && request.method() === 'POST') asked.push(request.postDataJSON());
    });
    await page.goto(`${baseURL}/company-info/azRYgl`);
    const table = page.locator('.ant-table-tbody').filter({ visible: true });
    await expect.poll(() => table.innerText()).toContain(dept);
    expect(await table.innerText()).not.toMatch(ID);
    // The five staff share one department: one request for every label on the page.
    expect(asked.filter((body) => Array.isArray((body as { id?: unknown }).id))).toHaveLength(1);
  });

  it('filters by the department chosen by name, and a back-navigation keeps the name', async () => {
    const filter = page.locator('.ant-form-item', { hasText: '所在部门' }).filter({ visible: true }).locator('.ant-select');
    await filter.click();
    await page.keyboard.type('安全生产');
    await page.locator('.ant-select-item-option', { hasText: dept }).filter({ visible: true }).click();
    await page
      .getByRole('button', { name: /查\s*询/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/dept=[0-9a-f]{32}/);
    await page.locator('.ant-table-row').filter({ visible: true }).first().getByText('查看').click();
    const details = page.locator('.ant-descriptions', { hasText: '所在部门' }).filter({ visible: true });
    await expect.poll(() => details.innerText()).toContain(dept);
    expect(await details.innerText()).not.toMatch(ID);
    await page.goBack();
    await page.waitForURL(/dept=[0-9a-f]{32}/);
    await expect.poll(() => filter.innerText()).toContain(dept);
    expect(await filter.innerText()).not.toMatch(ID);
  });
});
