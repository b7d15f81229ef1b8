/**
 * The online inspection form quotes the fee while the clerk picks equipment: the amounts of 检验费用
 * (检验费合计, 减免金额, 应缴金额) and each row's 检验费 follow each pick and the relief policy before
 * anything is saved (the server's fee function through its quote call), and the saved application
 * holds exactly the amounts the form showed. Opened again for editing, the rows read the labels of
 * the categories the server filled in (not their codes). A screenshot at 1366×768 shows the form
 * with the live amounts.
 */
import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page as ResultPage } from '../../src/shared/contract';
import { apiCall } from './support/api';
import { account, logIn } from './support/shell';
import { browserSuite } from './support/suite';

const stamp = Date.now().toString().slice(-6);
const elevatorName = `报价测试电梯${stamp}`;
const boilerName = `报价测试锅炉${stamp}`;
const applicant = `宁波甬江特种设备使用有限公司（报价${stamp}）`;
const SHOTS = 'test-results/screens';

type Row = Record<string, unknown> & { id: string };

describe('online inspection form: the fee is quoted live and saved as quoted', () => {
  const { page, baseURL } = browserSuite();
  const field = (label: string) => page.getByLabel(label, { exact: true }).filter({ visible: true });
  /** The text a read-only amount of the form shows. */
  const amount = (label: string) =>
    page
      .locator('.ant-formily-item', { has: page.locator('.ant-formily-item-label', { hasText: new RegExp(`^${label}`) }) })
      .filter({ visible: true })
      .locator('.ant-formily-item-control')
      .innerText();
  /** The sub-table row of a piece of equipment. */
  const row = (name: string) => page.locator('.ant-table-row').filter({ hasText: name }).filter({ visible: true });
  const pick = async (name: string) => {
    await page.getByRole('button', { name: '添加一行' }).click();
    await page.getByLabel('设备', { exact: true }).filter({ visible: true }).last().click();
    await page.locator('.ant-select-item-option', { hasText: name }).filter({ visible: true }).click();
  };

  it('the amounts follow the picks before saving, and the save stores the amounts shown', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    // The demo seed has no equipment: the unit registers an elevator (700 元) and a boiler (1500 元).
    const base = { useStatus: '1', locationArea: '330212', address: '宁波市鄞州区天童南路588号', lastInspectionDate: '2025-06-01' };
    await apiCall(page, '/r/equipment/save', { ...base, equipmentName: elevatorName, equclacode: '3000', subCategory: '3100' });
    await apiCall(page, '/r/equipment/save', { ...base, equipmentName: boilerName, equclacode: '1000', subCategory: '1100' });

    await page.goto(`${baseURL}/company-service/online-apply`);
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/\/company-service\/online-apply-(form|edit)\?mode=add/);
    await page.getByRole('button', { name: '添加一行' }).waitFor();
    // Nothing picked: nothing to pay yet.
    expect(await amount('应缴金额')).toContain('待计算');

    await field('申请单位').fill(applicant);
    await expect.poll(() => field('申请单位').inputValue()).toBe(applicant);
    await field('联系人').fill('张伟');
    await field('联系电话').fill('13805740001');
    await field('期望检验日期').click();
    await field('期望检验日期').fill(addToDate(todayIn(), 10, 'd'));
    await field('期望检验日期').press('Enter');

    await pick(elevatorName);
    await expect.poll(() => amount('应缴金额')).toContain('¥700.00');
    await expect.poll(() => row(elevatorName).innerText()).toContain('¥700.00');
    await pick(boilerName);
    await expect.poll(() => amount('应缴金额')).toContain('¥2,200.00');
    await expect.poll(() => row(boilerName).innerText()).toContain('¥1,500.00');
    expect(await row(elevatorName).innerText()).toContain('¥700.00');
    expect(await amount('检验费合计')).toContain('¥2,200.00');

    await page.getByRole('combobox', { name: '减免政策' }).click();
    await page.locator('.ant-select-item-option', { hasText: '小微企业减免30%' }).filter({ visible: true }).click();
    await expect.poll(() => amount('应缴金额')).toContain('¥1,540.00');
    expect(await amount('减免金额')).toContain('¥660.00');
    expect(await amount('检验费合计')).toContain('¥2,200.00');

    // Nothing has been saved while the amounts were shown.
    const mine = () => apiCall<ResultPage<Row>>(page, '/r/online-apply/list', { applicant, pageSize: 10 });
    expect((await mine()).list).toHaveLength(0);

    mkdirSync(SHOTS, { recursive: true });
    await page.locator('.ant-formily-item', { hasText: '减免政策' }).filter({ visible: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/online-apply-fee-live.png` });

    const shown = { feeAmount: 2200, reliefAmount: 660, payableAmount: 1540 };
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').first().waitFor();
    await expect.poll(async () => (await mine()).list.length).toBe(1);
    const [saved] = (await mine()).list;
    expect({ feeAmount: saved.feeAmount, reliefAmount: saved.reliefAmount, payableAmount: saved.payableAmount }).toEqual(shown);

    // Opened again: the category columns the server filled in read their labels, the fees stay.
    await page.goto(`${baseURL}/company-service/online-apply-form?mode=edit&id=${saved.id}`);
    await row(elevatorName).waitFor();
    await expect.poll(() => row(elevatorName).innerText()).toContain('曳引与强制驱动电梯');
    const elevatorRow = await row(elevatorName).innerText();
    expect(elevatorRow).toContain('¥700.00');
    expect(elevatorRow).not.toMatch(/\b3100\b/);
    await expect.poll(() => row(boilerName).innerText()).toContain('承压蒸汽锅炉');
    expect(await row(boilerName).innerText()).not.toMatch(/\b1100\b/);
  });
});
