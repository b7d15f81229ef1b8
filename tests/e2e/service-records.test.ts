/**
 * The self-service remainder in the browser: a clerk (nbsub, 使用单位经办人) files a fault
 * registration from 自助申请查询 (/company-service/report-query), sees it there as 已提交 and opens its
 * own detail route; then opens a periodic inspection record (/company-service/check-record) and its
 * detail with the conclusion and the report.
 */
import { describe, expect, inject, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const description = `曳引机异响，电梯急停（E2E${Date.now().toString(36).slice(-5)}）`;

describe('self-service records', () => {
  const { page } = signedInSuite('nbsub');

  const textbox = (label: string) => page.getByRole('textbox', { name: label, exact: true }).filter({ visible: true });
  const select = async (label: string, option?: string) => {
    await page.getByRole('combobox', { name: label, exact: true }).filter({ visible: true }).click();
    const options = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option');
    const choice = option ? options.filter({ hasText: option }).first() : options.first();
    await choice.waitFor();
    const text = await choice.innerText();
    await choice.click();
    // The dropdown closes (animated) before the next select opens its own.
    await expect.poll(() => page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ visible: true }).count()).toBe(0);
    return text;
  };

  it('files a fault registration and finds it in 自助申请查询', async () => {
    await page.goto(`${baseURL}/company-service/report-query`);
    await page
      .getByRole('button', { name: /新增申请/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/\/company-service\/report-query-form\?mode=add/);
    await select('申请类型', '故障登记');
    const picked = await select('设备');
    const date = textbox('故障发生日期');
    await date.click();
    await date.fill(addToDate(todayIn(), -1, 'd'));
    await date.press('Enter');
    await select('故障类别', '机械故障');
    await textbox('故障情况').fill(description);
    await page
      .getByRole('button', { name: /提\s*交/ })
      .filter({ visible: true })
      .click();
    const confirm = page.locator('.ant-modal-confirm, .ant-popover').filter({ visible: true });
    if (
      await confirm.count().then(
        (n) => n > 0,
        () => false,
      )
    )
      await confirm.getByRole('button', { name: /确\s*定/ }).click();
    await page.getByText('提交成功').first().waitFor();

    await page.goto(`${baseURL}/company-service/report-query`);
    const row = page.locator('.ant-table-row').filter({ visible: true }).first();
    await expect.poll(() => row.innerText()).toContain('已提交');
    const text = await row.innerText();
    expect(text).toContain('故障登记');
    // The equipment chosen in the picker is the row's (its display names the piece).
    const cells = text
      .split(/[\t\n]+/)
      .map((cell) => cell.trim())
      .filter((cell) => cell.length > 1);
    expect(
      cells.filter((cell) => picked.includes(cell)),
      `${picked} / ${cells.join(' | ')}`,
    ).not.toEqual([]);
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await page.waitForURL(/\/company-service\/fault-registration-detail\?id=/);
    await page.getByText(description).filter({ visible: true }).waitFor();
    await page.getByText('机械故障').filter({ visible: true }).first().waitFor();
  });

  it('opens a periodic inspection record with its conclusion', async () => {
    await page.goto(`${baseURL}/company-service/check-record`);
    const row = page.locator('.ant-table-row').filter({ visible: true }).first();
    await row.waitFor();
    const conclusion = (await row.innerText()).match(/合格|基本符合要求|不合格|复检合格/)?.[0];
    expect(conclusion).toBeTruthy();
    await row.getByRole('button', { name: /查\s*看/ }).click();
    await page.waitForURL(/\/company-service\/check-record\/detail\?id=/);
    await page.getByText('定期检验').filter({ visible: true }).first().waitFor();
    await page.getByText(conclusion!, { exact: true }).filter({ visible: true }).first().waitFor();
  });
});
