/**
 * Online inspection application end to end against the real server: the unit (nbadmin) applies for
 * the inspection of one elevator and sees the fee the server computed; the inspection body it is
 * routed to (nbjy) accepts it with a planned date and the inspectors and bills it; the unit opens the scan-code payment page, pays at the sandbox provider
 * (模拟支付 → 确认支付), the page turns to 已缴费 with the receipt number, and the list shows 已缴费.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Envelope } from '../../src/shared/contract';
import { account, logIn, logInAs, logOut, submitDialog } from './support/shell';
import { formControls } from './support/form';
import { browserSuite } from './support/suite';
import { loginOverHttp, elevatorBody } from './support/api';

const baseURL = inject('baseURL');
const API = `${baseURL}/espServer`;
const stamp = Date.now().toString().slice(-6);
const equipmentName = `报检测试电梯${stamp}`;
const applicant = `宁波甬江特种设备使用有限公司（报检${stamp}）`;

/** Logs a demo account in over HTTP; returns the session id. */
const apiSession = (loginName: string) => loginOverHttp(API, account(loginName));

describe('online inspection: apply → fee → the body accepts and bills → pay at the sandbox → 已缴费', () => {
  const { page } = browserSuite();

  beforeAll(async () => {
    // The demo seed has no equipment: the unit registers one elevator through the API.
    const sid = await apiSession('nbadmin');
    const res = await fetch(`${API}/r/equipment/save?__sid=${sid}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(elevatorBody(equipmentName)),
    });
    const saved = (await res.json()) as Envelope<unknown>;
    if (saved.result !== 'true') throw new Error(`equipment not saved: ${saved.message}`);
  });

  const row = () => page.locator('.ant-table-row', { hasText: applicant }).filter({ visible: true });
  const field = (label: string) => page.getByLabel(label, { exact: true }).filter({ visible: true });

  it('the unit applies for the inspection of one elevator and sees the fee', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/company-service/online-apply`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/\/company-service\/online-apply-(form|edit)\?mode=add/);
    await page.getByRole('button', { name: '添加一行' }).waitFor();

    await field('申请单位').fill(applicant);
    await expect.poll(() => field('申请单位').inputValue()).toBe(applicant);
    await field('联系人').fill('张伟');
    await field('联系电话').fill('13805740001');
    await field('期望检验日期').click();
    await field('期望检验日期').fill(addToDate(todayIn(), 10, 'd'));
    await field('期望检验日期').press('Enter');

    await page.getByRole('button', { name: '添加一行' }).click();
    await page.getByLabel('设备', { exact: true }).filter({ visible: true }).last().click();
    await page.locator('.ant-select-item-option', { hasText: equipmentName }).click();
    await page.getByRole('button', { name: /提\s*交/ }).click();
    await page.getByText('提交成功').first().waitFor();

    await page.goto(`${baseURL}/company-service/online-apply`);
    await row().waitFor();
    const text = await row().innerText();
    expect(text).toContain('已提交');
    // 曳引与强制驱动电梯：700 元 (inspection-fee), computed by the server on save.
    expect(text).toContain('¥700.00');

    await row()
      .getByRole('button', { name: /查\s*看/ })
      .click();
    await page.waitForURL(/\/company-service\/online-apply-detail\?/);
    const items = page.locator('.ant-descriptions', { hasText: '报检设备与检验费' }).filter({ visible: true });
    await items.getByText(equipmentName).waitFor();
    expect(await items.innerText()).toContain('¥700.00');
    await logOut(page);
  });

  it('the inspection body accepts the application with a date and inspectors, and bills the fee', async () => {
    await logInAs(page, baseURL, 'nbjy');
    await page.goto(`${baseURL}/inspection/online-apply`);
    await row().waitFor();
    await row()
      .getByRole('button', { name: /受\s*理/ })
      .click();
    const dialog = page.locator('.ant-modal', { has: page.locator('textarea') });
    const { visible } = formControls(page);
    await visible('计划检验日期').click();
    await visible('计划检验日期').fill(addToDate(todayIn(), 3, 'd'));
    await visible('计划检验日期').press('Enter');
    await visible('检验人员').fill('王磊、陈静');
    await submitDialog(dialog, '资料齐全，予以受理');
    await expect.poll(() => row().innerText()).toContain('已受理');

    await row().getByRole('button', { name: '核定费用' }).click();
    await submitDialog(page.locator('.ant-modal-confirm'));
    await expect.poll(() => row().innerText()).toContain('待缴费');
    await logOut(page);
  });

  it('the unit pays on the scan-code page through the sandbox; the application shows 已缴费', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/company-service/online-apply`);
    await row().waitFor();
    expect(await row().innerText()).toContain('待缴费');
    await row().getByRole('link', { name: '¥700.00' }).click();
    await page.waitForURL(/\/pay-code\?id=[0-9a-f]{32}$/);

    await page.getByText('请使用微信支付扫描二维码完成缴费').waitFor();
    await page.getByTestId('pay-countdown').waitFor();
    await page.locator('.ant-qrcode canvas').waitFor();
    expect(await page.locator('.ant-statistic').innerText()).toContain('700.00');

    const [sandbox] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: '模拟支付' }).click()]);
    await sandbox.getByRole('button', { name: '确认支付' }).click();
    await sandbox.getByText('支付成功').waitFor();
    await sandbox.close();

    // The page polls the application until the provider's notification has settled it.
    // (Other tabs stay mounted but hidden and may show seeded 已缴费 applications: the visible page only.)
    await page.getByText('已缴费').filter({ visible: true }).first().waitFor({ timeout: 20_000 });
    await expect(
      page
        .getByText(/收据编号：SF\d{10}/)
        .filter({ visible: true })
        .innerText(),
    ).resolves.toMatch(/SF\d{10}/);

    await page.goto(`${baseURL}/company-service/online-apply`);
    await expect.poll(() => row().innerText()).toContain('已缴费');
  });
});
