/**
 * 辖区单位 and 单位档案 in Chromium at 1366×768 as the demo city authority (jgadmin): the menu
 * 辖区监管 → 辖区单位 lists both demo using units with their equipment and overdue counts; the
 * 区县 filter narrows it; a unit's name opens its file, whose 基本信息 shows the unit and whose 设备
 * tab lists that unit's equipment, read only; nothing is wider than the page. From 超期未检, a row's
 * unit opens that unit's file, and a row's 查看 opens the equipment with its 检验记录 tab.
 */
import { describe, expect, inject, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { browserSuite } from './support/suite';
import { logInAs, openMenu } from './support/shell';

const baseURL = inject('baseURL');
const shot = (name: string) => (process.env.AREA_UNITS_SCREENSHOTS ? { path: `${process.env.AREA_UNITS_SCREENSHOTS}/${name}.png` } : undefined);

describe('辖区监管 → 辖区单位 → 单位档案', () => {
  const { page } = browserSuite();

  it('lists the area’s units, opens a unit’s file and switches to its equipment', async () => {
    page.setDefaultTimeout(45_000);
    await page.setViewportSize({ width: 1366, height: 768 });
    await logInAs(page, baseURL, 'jgadmin');
    await openMenu(page, '辖区监管', '辖区单位');
    await page.waitForURL(/\/area\/units/);
    const table = page.locator('.engine-list-table').filter({ visible: true });
    const rows = table.locator('.ant-table-row');
    await rows.first().waitFor();
    expect(await table.locator('thead th').allInnerTexts()).toEqual([
      '单位名称',
      '统一社会信用代码',
      '区县',
      '单位类型',
      '设备数',
      '超期未检数',
      '联系人',
      '操作',
    ]);
    const unitRow = (name: string) => rows.filter({ hasText: name });
    await unitRow(DEMO_UNITS.using.orgname).waitFor();
    await unitRow(DEMO_UNITS.second.orgname).waitFor();
    // The demo units hold equipment (300 and 50), some of it overdue.
    const counts = async (name: string) => (await unitRow(name).locator('td').allInnerTexts()).slice(4, 6).map((t) => Number(t.trim()));
    const [equipmentCount, overdueCount] = await counts(DEMO_UNITS.using.orgname);
    expect(equipmentCount).toBeGreaterThan(0);
    expect(overdueCount).toBeGreaterThan(0);
    expect(overdueCount).toBeLessThanOrEqual(equipmentCount);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const listShot = shot('area-units');
    if (listShot) await page.screenshot(listShot);

    // A click on a district cell filters by it: 北仑 alone.
    await unitRow(DEMO_UNITS.second.orgname).locator('td').nth(2).getByText('北仑区').click();
    await page.waitForURL(/district=330206/);
    await expect.poll(async () => (await rows.allInnerTexts()).join('\n')).not.toContain(DEMO_UNITS.using.orgname);
    await unitRow(DEMO_UNITS.second.orgname).waitFor();
    await page
      .getByRole('button', { name: /重\s*置/ })
      .filter({ visible: true })
      .click();
    await unitRow(DEMO_UNITS.using.orgname).waitFor();

    // The unit's name opens its file.
    await unitRow(DEMO_UNITS.using.orgname).getByRole('link', { name: DEMO_UNITS.using.orgname }).click();
    await page.waitForURL(/\/area\/unit-file\?id=/);
    const tabs = page.locator('.engine-detail-tabs').filter({ visible: true });
    await tabs.waitFor();
    expect((await tabs.locator('.ant-tabs-tab').allInnerTexts()).map((t) => t.trim())).toEqual([
      '基本信息',
      '设备',
      '使用登记',
      '检验记录',
      '作业人员',
      '证书',
      '监督整改',
      '变更记录',
    ]);
    await expect
      .poll(async () => (await page.locator('.ant-descriptions').filter({ visible: true }).allInnerTexts()).join('\n'))
      .toContain(DEMO_UNITS.using.orgcode);
    const fileShot = shot('area-unit-file');
    if (fileShot) await page.screenshot(fileShot);

    await tabs.getByRole('tab', { name: '设备' }).click();
    const pane = tabs.locator('.ant-tabs-tabpane-active');
    const equipment = pane.locator('.ant-table-row');
    await equipment.first().waitFor();
    await expect.poll(() => pane.locator('.ant-pagination-total-text').innerText()).toBe(`共 ${equipmentCount} 条`);
    expect(await pane.locator('thead th').first().innerText()).toBe('设备名称');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    const tabShot = shot('area-unit-file-equipment');
    if (tabShot) await page.screenshot(tabShot);

    // Another tab: the unit's certificates; the file writes nothing (no 新增, 编辑, 删除).
    await tabs.getByRole('tab', { name: '证书' }).click();
    await tabs.locator('.ant-tabs-tabpane-active .ant-table-row, .ant-tabs-tabpane-active .ant-empty').first().waitFor();
    for (const name of [/新\s*增/, /编\s*辑/, /删\s*除/]) expect(await page.getByRole('button', { name }).filter({ visible: true }).count()).toBe(0);
  });

  it('opens a unit’s file and an item’s inspections from an overdue row', async () => {
    page.setDefaultTimeout(45_000);
    await openMenu(page, '辖区监管', '超期未检');
    await page.waitForURL(/\/area\/equipment-timeout/);
    const table = page.locator('.engine-list-table').filter({ visible: true });
    const rows = table.locator('.ant-table-row');
    await rows.first().waitFor();
    // The second demo unit's overdue rows: its name is a link to its file.
    await page.goto(`${baseURL}/area/equipment-timeout?unitName=${encodeURIComponent(DEMO_UNITS.second.orgname)}`);
    const row = rows.filter({ hasText: DEMO_UNITS.second.orgname }).first();
    await row.waitFor();
    await row.getByRole('link', { name: DEMO_UNITS.second.orgname }).click();
    await page.waitForURL(/\/area\/unit-file\?id=/);
    await expect
      .poll(async () => (await page.locator('.ant-descriptions').filter({ visible: true }).allInnerTexts()).join('\n'))
      .toContain(DEMO_UNITS.second.orgcode);

    // Back on the list, 查看 opens the item; its 检验记录 tab lists its inspections, newest first.
    await page.goBack();
    await page.waitForURL(/\/area\/equipment-timeout/);
    await row.waitFor();
    await row
      .getByRole('button', { name: /查\s*看/ })
      .or(row.getByRole('link', { name: /查\s*看/ }))
      .first()
      .click();
    await page.waitForURL(/\/area\/equipment-detail\?id=/);
    const tabs = page.locator('.engine-detail-tabs').filter({ visible: true });
    await tabs.getByRole('tab', { name: '检验记录' }).click();
    const pane = tabs.locator('.ant-tabs-tabpane-active');
    await pane.locator('.ant-table-row').first().waitFor();
    const dates = (await pane.locator('.ant-table-row td:first-child').allInnerTexts()).map((d) => d.trim());
    for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  });
});
