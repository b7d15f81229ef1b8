/**
 * A stats screen defined only in JSON (schemas/screens/equipment-overview.json) against the real
 * server: the cards show what the list endpoint counts, the charts label codes by their
 * dictionary, and a card opens its list with the same rows. Counts are compared with the server,
 * never with the demo seed's numbers; the test adds a row of its own so a chart label is certain.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { apiCall } from './support/api';
import { account, logIn, openMenu } from './support/shell';

const baseURL = inject('baseURL');

const listCount = async (page: Page, filters: Record<string, unknown> = {}) =>
  (await apiCall<{ count: number }>(page, '/r/equipment/list', { pageSize: 1, ...filters })).count;

describe('a JSON-only stats screen: the equipment overview', () => {
  const { page } = browserSuite();

  const card = (label: string) => page.locator('.engine-stat-card', { hasText: label }).filter({ visible: true });
  const cardValue = async (label: string) => Number((await card(label).locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));

  it('shows the counts the list endpoint finds, and charts labelled by the dictionaries', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await apiCall(page, '/r/equipment/save', { equclacode: '9000', useStatus: '1', equipmentName: `客运索道 ${Date.now()}`, address: '宁波市鄞州区测试路1号' });
    const total = await listCount(page);
    const inUse = await listCount(page, { useStatus: ['1'] });
    expect(total).toBeGreaterThan(0);

    await openMenu(page, '设备管理', '设备概况');
    await page.waitForURL(/\/equipment\/overview$/);
    await expect.poll(() => cardValue('设备总数')).toBe(total);
    await expect.poll(() => cardValue('在用')).toBe(inUse);

    const bars = page.getByRole('img', { name: /^按设备种类：/ }).filter({ visible: true });
    await expect.poll(async () => (await bars.getAttribute('aria-label')) ?? '').toContain('客运索道');
    // ECharts draws each chart as SVG with its labels as text.
    await bars.locator('svg text', { hasText: '客运索道' }).first().waitFor();
    const donut = page.getByRole('img', { name: /^按使用状态：/ }).filter({ visible: true });
    expect(await donut.getAttribute('aria-label')).toContain(`在用 ${inUse}`);
    await donut.locator('svg text', { hasText: '在用' }).first().waitFor();

    // A line chart: counts per month of two date fields, with its months in the table view.
    const trend = page.getByRole('img', { name: /^前后6个月检验情况：/ }).filter({ visible: true });
    await expect.poll(async () => (await trend.getAttribute('aria-label')) ?? '').toMatch(/已检验 \d{4}-\d{2} \d+.*；检验到期 /);
    const trendCard = page.locator('.engine-chart-card', { hasText: '前后6个月检验情况' }).filter({ visible: true });
    await trendCard.getByText('表格').click();
    await expect.poll(() => trendCard.locator('.ant-table-row').count()).toBe(12);

    // The table view lists the same values.
    const chart = page.locator('.engine-chart-card', { hasText: '按设备种类' }).filter({ visible: true });
    await chart.getByText('表格').click();
    await chart.locator('.ant-table-row', { hasText: '客运索道' }).waitFor();
  });

  it('narrows every number by the filters kept in the URL', async () => {
    await page.goto(`${baseURL}/equipment/overview?equclacode=9000`);
    const expected = await listCount(page, { equclacode: ['9000'] });
    await expect.poll(() => cardValue('设备总数')).toBe(expected);
    const bars = page.getByRole('img', { name: /^按设备种类：/ }).filter({ visible: true });
    await expect.poll(async () => (await bars.getAttribute('aria-label')) ?? '').toBe(`按设备种类：客运索道 ${expected}（100.0%），合计 ${expected}`);
  });

  it("opens a card's list with the same rows", async () => {
    await page.goto(`${baseURL}/equipment/overview`);
    await expect.poll(() => cardValue('在用')).toBeGreaterThan(0);
    const inUse = await cardValue('在用');
    await page.getByRole('link', { name: /^在用：/ }).click();
    await page.waitForURL(/\/equipment\/query-comprehensive\?useStatus=1$/);
    await expect.poll(() => page.locator('.ant-pagination-total-text').filter({ visible: true }).first().innerText()).toBe(`共 ${inUse} 条`);
  });
});
