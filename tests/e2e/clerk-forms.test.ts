/**
 * What a clerk meets in a form, in Chromium against the real server (nbadmin):
 * - 提交 from the list returns to the list and closes the form's tab (titled 新增… while adding);
 * - 提交 on a form opened by its address (no page to go back to) leaves the record read-only:
 *   no input, no 添加一行, only 返回;
 * - a long label keeps to one line with the colon after its last character;
 * - the upload hint states the server's size limit;
 * - typed but unsearched filter text survives a switch to another tab and back.
 */
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { AppConfig } from '../../src/shared/contract';
import { API } from '../../src/shared/contract';
import { addToDate, todayIn } from '../../src/shared/dates';
import { apiCall, elevatorBody } from './support/api';
import { formControls } from './support/form';
import { openMenu, tabTitles } from './support/shell';
import { signedInSuite } from './support/suite';

const baseURL = inject('baseURL');
const stamp = Date.now().toString(36).slice(-5);
const equipmentName = `表单测试电梯${stamp}`;

describe('clerk forms', () => {
  const { page } = signedInSuite('nbadmin');
  const field = (label: string) => page.getByLabel(label, { exact: true }).filter({ visible: true });

  beforeAll(async () => {
    // The demo seed has no equipment: the unit registers one elevator to apply for.
    await apiCall(page, '/r/equipment/save', elevatorBody(equipmentName));
  });

  /** Fills the application form of 在线报检 with one piece of equipment. */
  async function fillApplication(applicant: string) {
    await page.getByRole('button', { name: '添加一行' }).waitFor();
    await field('申请单位').fill(applicant);
    await expect.poll(() => field('申请单位').inputValue()).toBe(applicant);
    await field('期望检验日期').click();
    await field('期望检验日期').fill(addToDate(todayIn(), 10, 'd'));
    await field('期望检验日期').press('Enter');
    await page.getByRole('button', { name: '添加一行' }).click();
    await page.getByLabel('设备', { exact: true }).filter({ visible: true }).last().click();
    await page.locator('.ant-select-item-option', { hasText: equipmentName }).click();
  }

  it('提交 from the list returns to the list and closes the 新增 form tab', async () => {
    await openMenu(page, '自助服务', '在线报检');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/online-apply-form\?mode=add/);
    // The address changes before the tab strip marks the new tab active: wait for its title.
    const formTab = '新增报检申请';
    await expect.poll(() => page.locator('.shell-tab--active .shell-tab__title').innerText()).toBe(formTab);
    await fillApplication(`提交回列表${stamp}`);
    await page.getByRole('button', { name: /提\s*交/ }).click();
    await page.getByText('提交成功').first().waitFor();
    await page.waitForURL(/\/company-service\/online-apply$/);
    await page
      .locator('.ant-table-row', { hasText: `提交回列表${stamp}` })
      .filter({ visible: true })
      .waitFor();
    await expect.poll(() => tabTitles(page)).not.toContain(formTab);
  });

  it('a form opened for adding is titled 新增… in its tab', async () => {
    await openMenu(page, '自助服务', '在线报检');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await page.waitForURL(/online-apply-form\?mode=add/);
    await expect.poll(() => tabTitles(page)).toContain('新增报检申请');
    await page.getByRole('button', { name: /返\s*回/ }).click();
    await page.waitForURL(/\/company-service\/online-apply$/);
    await page.goto(`${baseURL}/construction/register?mode=add`);
    await expect.poll(() => tabTitles(page)).toContain('新增施工告知申请');
  });

  it('提交 on a form opened by its address leaves the record read-only there', async () => {
    await openMenu(page, '自助服务', '在线报检');
    await page.getByRole('button', { name: /新\s*增/ }).click();
    await fillApplication(`地址提交${stamp}`);
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await page.getByText('保存成功').first().waitFor();
    const row = page.locator('.ant-table-row', { hasText: `地址提交${stamp}` }).filter({ visible: true });
    await row.waitFor();
    const saved = await apiCall<{ list: { id: string; applicant: string }[] }>(page, '/r/online-apply/list', { pageNo: 1, pageSize: 50 });
    const id = saved.list.find((r) => r.applicant === `地址提交${stamp}`)?.id;
    expect(id).toBeTruthy();

    // A typed address: the form has no page before it.
    await page.goto(`${baseURL}/company-service/online-apply-form?mode=edit&id=${id}`);
    await page.getByRole('button', { name: '添加一行' }).waitFor();
    await page.getByRole('button', { name: /提\s*交/ }).click();
    await page.getByText('提交成功').first().waitFor();
    await page.waitForURL(/mode=view/);
    const card = page.locator('.ant-card').filter({ visible: true }).first();
    await card.getByText(`地址提交${stamp}`).first().waitFor();
    expect(await card.locator('input:not([type="hidden"]):not([disabled]), textarea:not([disabled])').count()).toBe(0);
    expect(await page.getByRole('button', { name: '添加一行' }).filter({ visible: true }).count()).toBe(0);
    const buttons = (await card.locator('.engine-action-bar button').allInnerTexts()).map((t) => t.replace(/\s/g, ''));
    expect(buttons).toEqual(['返回']);
  });

  it('a long label keeps to one line, its colon after the last character', async () => {
    await page.goto(`${baseURL}/construction/register?mode=add`);
    const { formItem } = formControls(page);
    const label = formItem('施工单位统一社会信用代码').locator('.ant-formily-item-label').first();
    await label.waitFor();
    const shape = await label.evaluate((el) => {
      const text = el.querySelector('label')!;
      const colon = el.querySelector('.ant-formily-item-colon')!.getBoundingClientRect();
      const box = text.getBoundingClientRect();
      // An inline label has one box per line it takes; the colon sits on that same line.
      return {
        text: (el as HTMLElement).innerText.replace(/\s/g, ''),
        lines: text.getClientRects().length,
        colonOnLine: colon.top < box.bottom && colon.bottom > box.top,
      };
    });
    expect(shape.lines).toBe(1);
    expect(shape.colonOnLine).toBe(true);
    expect(shape.text.endsWith(':')).toBe(true);
    expect(shape.text.slice(0, -1).includes(':')).toBe(false);
  });

  it('the upload hint states the size limit the server enforces', async () => {
    await page.goto(`${baseURL}/construction/register?mode=add`);
    const { formItem } = formControls(page);
    const config = await page.evaluate(async (path) => ((await (await fetch(`/espServer${path}`)).json()) as { data: AppConfig }).data, API.appConfig);
    expect(config.attachmentMaxMb).toBeGreaterThan(0);
    await formItem('施工方案').scrollIntoViewIfNeeded();
    await expect.poll(() => formItem('施工方案').innerText()).toContain(`单个文件不超过 ${config.attachmentMaxMb} MB`);
  });

  it('typed filter text survives a switch to another tab and back', async () => {
    await openMenu(page, '自助服务', '在线报检');
    const applicant = page.locator('.engine-filter-bar').filter({ visible: true }).getByLabel('申请单位');
    await applicant.fill(`未查询${stamp}`);
    await page.locator('.shell-tab', { hasText: '首页' }).click();
    await page.waitForURL(/\/home$/);
    await page.locator('.shell-tab', { hasText: '在线报检' }).click();
    await page.waitForURL(/\/company-service\/online-apply/);
    await expect.poll(() => applicant.inputValue()).toBe(`未查询${stamp}`);
  });
});
