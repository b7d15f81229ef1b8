/**
 * Operators and certificates (/zyrygl): the unit adds a worker, records a certificate
 * expiring in 30 days, and finds it in 持证预警 marked as due soon; the worker's detail lists it.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { idCardCheckChar } from '../../validators/identifiers';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const stamp = Date.now().toString(36).slice(-5).toUpperCase();
const worker = `测试${stamp}`;
const certNo = `TSE2E${stamp}`;
const first17 = `33021219900101${String(Date.now() % 1000).padStart(3, '0')}`;
const idCard = `${first17}${idCardCheckChar(first17)}`;

describe('a worker with a certificate expiring in 30 days', () => {
  const { page } = signedInSuite('nbadmin');

  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const combo = (label: string) => page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true });
  const option = (text: string) => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: text }).first();
  const date = async (label: string, value: string) => {
    await textbox(label).click();
    await textbox(label).fill(value);
    await textbox(label).press('Enter');
  };
  const save = async () => {
    await page
      .getByRole('button', { name: /保\s*存/ })
      .filter({ visible: true })
      .click();
    await page
      .getByText(/保存成功/)
      .first()
      .waitFor();
  };

  it('adds the worker', async () => {
    await page.goto(`${baseURL}/zyrygl/workPerson`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await textbox('姓名').fill(worker);
    await textbox('身份证号').fill('330212199001011239');
    await textbox('手机号码').fill('13905746666');
    await page.getByText('请输入有效的身份证号').filter({ visible: true }).first().waitFor();
    await textbox('身份证号').fill(idCard);
    await save();
    await page.locator('.ant-table-row', { hasText: worker }).filter({ visible: true }).waitFor();
  });

  it('records the certificate, and 持证预警 shows it as due soon', async () => {
    await page.goto(`${baseURL}/zyrygl/certificate`);
    await page
      .getByRole('button', { name: /新\s*增/ })
      .filter({ visible: true })
      .click();
    await combo('作业人员').click();
    await page.keyboard.type(worker);
    await option(worker).click();
    await expect.poll(() => textbox('身份证号').inputValue()).toBe(idCard);
    await textbox('证书编号').fill(certNo);
    await textbox('发证机关').fill('宁波市市场监督管理局');
    await combo('作业项目').click();
    await option('Q2 起重机司机').click();
    await page.keyboard.press('Escape');
    await date('发证日期', addToDate(todayIn(), -4, 'y'));
    await date('有效期至', addToDate(todayIn(), 30, 'd'));
    await save();

    await page.goto(`${baseURL}/zyrygl/personWarning`);
    const row = page.locator('.ant-table-row', { hasText: certNo }).filter({ visible: true });
    await row.waitFor();
    await expect(row.locator('[data-deadline]').getAttribute('data-deadline')).resolves.toBe('soon');
    await expect(row.innerText()).resolves.toContain(worker);
  });
});
