/**
 * Random inspection plans (检查计划): the authority (jgadmin) defines a plan with a seed of its
 * own, saves and draws it (抽取): the detail shows the seed, the candidate count and the drawn units
 * with their officers; it records the check of the demo unit with 责令整改, which issues a
 * rectification order; the unit (nbadmin) finds the order under 监督检查隐患, waiting for its answer.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { browserSuite } from './support/suite';
import { clickAndExpectWrite, logInAs, logOut } from './support/shell';

const baseURL = inject('baseURL');
const tag = Date.now().toString(36).slice(-5);
const title = `E2E抽查计划${tag}`;
const seed = `E2E-SEED-${tag}`;
const finding = `电梯五方通话装置无法接通（E2E${tag}）`;

describe('a random inspection plan is drawn, checked and ends in a rectification order', () => {
  const { page } = browserSuite();
  const body = () => page.locator('body');
  const textbox = (label: string, scope = body()) => scope.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const date = async (label: string, value: string) => {
    await textbox(label).click();
    await textbox(label).fill(value);
    await textbox(label).press('Enter');
  };
  const pick = async (label: string, option: string) => {
    await page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true }).click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: option }).first().click();
  };
  const confirm = (text: string) =>
    page
      .locator('.ant-modal-confirm', { hasText: text })
      .filter({ visible: true })
      .getByRole('button', { name: /确\s*定/ });

  it('the authority saves a plan with its seed and draws it', async () => {
    await logInAs(page, baseURL, 'jgadmin');
    await page.goto(`${baseURL}/plan/plans`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/\/plan\/plan-form\?mode=add/);
    await textbox('计划名称').fill(title);
    await pick('设备种类', '电梯');
    await pick('设备种类', '起重机械');
    await page.keyboard.press('Escape');
    await date('计划开始日期', todayIn());
    await date('计划结束日期', addToDate(todayIn(), 20, 'd'));
    await textbox('随机种子').fill(seed);
    await clickAndExpectWrite(page, page.getByRole('button', { name: /保\s*存/ }).filter({ visible: true }), 'inspection-plan', /成功/);
    await page
      .getByRole('button', { name: /抽\s*取/ })
      .filter({ visible: true })
      .click();
    await clickAndExpectWrite(page, confirm('抽取后计划条件和随机种子不可再修改'), 'inspection-plan', /成功/);

    await page.goto(`${baseURL}/plan/plans`);
    const row = page.locator('.ant-table-row', { hasText: title }).filter({ visible: true });
    await expect.poll(async () => (await row.count()) && row.innerText()).toContain('已抽取');
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await page.waitForURL(/\/plan\/plan-detail\?/);
    await page.getByText(seed).filter({ visible: true }).first().waitFor();
    const drawn = page.locator('.ant-table-row', { hasText: DEMO_UNITS.using.orgname }).filter({ visible: true });
    await drawn.first().waitFor();
    expect(await drawn.first().innerText()).toContain('待检查');
    // Two officers per check, named.
    expect(await drawn.first().innerText()).toMatch(/[\u4e00-\u9fff]{2,3}、[\u4e00-\u9fff]{2,3}/);
  });

  it("the authority records the demo unit's check with 责令整改", async () => {
    await page.goto(`${baseURL}/plan/checks`);
    const row = page.locator('.ant-table-row', { hasText: title }).filter({ hasText: DEMO_UNITS.using.orgname }).filter({ visible: true });
    await expect.poll(async () => (await row.count()) && row.innerText()).toContain('待检查');
    await row.getByRole('button', { name: '登记结果' }).click();
    await page.waitForURL(/\/plan\/check-form\?/);
    await date('检查日期', todayIn());
    await pick('检查结果', '责令整改');
    await textbox('检查发现').fill(finding);
    await textbox('整改要求').fill('修复五方通话装置并由维保单位出具记录');
    await date('整改期限', addToDate(todayIn(), 15, 'd'));
    await page.getByRole('button', { name: '提交检查结果' }).filter({ visible: true }).click();
    await clickAndExpectWrite(page, confirm('提交后检查结果不可修改'), 'inspection-check', /成功/);
    await page.goto(`${baseURL}/plan/checks`);
    await expect.poll(async () => (await row.count()) && row.innerText()).toContain('已检查');
    expect(await row.innerText()).toContain('责令整改');
    await logOut(page);
  });

  it('the unit sees the order waiting for its answer', async () => {
    await logInAs(page, baseURL, 'nbadmin');
    await page.goto(`${baseURL}/company-service/supervisionCheckHiddenDanger`);
    const row = page.locator('.ant-table-row', { hasText: finding }).filter({ visible: true });
    await expect.poll(async () => (await row.count()) && row.innerText()).toContain('待整改');
    await expect(row.getByRole('button', { name: '整改反馈' }).count()).resolves.toBe(1);
  });
});
