/**
 * The authority's 统计分析 screens (schemas/screens/area-stats-equipment.json, area-stats-inspection.json)
 * as jgadmin on the seeded demo data at 1366 px: a card's number is its list's total; a stacked
 * part opens the area list with exactly as many rows as it shows (district and category as
 * filters); a rate table shows the share with both numbers and its link opens the numerator's
 * rows; the overdue rate's 12-month trend has every month; nothing is wider than the window; 检验统计
 * draws its monthly pass rate as a line.
 * Numbers are compared with what the lists find, never with the seed's figures.
 */
import { describe, expect, it } from 'vitest';
import { signedInSuite } from './support/suite';
import { openMenu } from './support/shell';

describe('the authority stats screens', () => {
  const { page } = signedInSuite('jgadmin');

  const card = (label: string) => page.locator('.engine-stat-card', { hasText: label }).filter({ visible: true });
  const cardValue = async (label: string) => Number((await card(label).locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));
  const chartCard = (title: string) => page.locator('.engine-chart-card', { hasText: title }).filter({ visible: true });
  const listTotal = () => page.locator('.ant-pagination-total-text').filter({ visible: true }).first().innerText();
  const openEquipmentStats = async () => {
    await openMenu(page, '统计分析', '设备统计');
    await page.waitForURL(/\/stats\/equipment$/);
  };

  it('fits a 1366 px window and its 超期未检 card counts the overdue list', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await openEquipmentStats();
    await expect.poll(() => cardValue('超期未检')).toBeGreaterThanOrEqual(0);
    await page
      .getByRole('img', { name: /^各区县设备（按种类）：/ })
      .filter({ visible: true })
      .waitFor();
    await page
      .getByRole('img', { name: /^各区县超期未检率：/ })
      .filter({ visible: true })
      .waitFor();
    // The overdue rate's trend from the kept month figures: twelve months, each with both numbers (the demo fills every month).
    const trend = page.getByRole('img', { name: /^超期未检率（近12个月）：/ }).filter({ visible: true });
    await expect
      .poll(async () => (await trend.getAttribute('aria-label')) ?? '')
      .toMatch(/^超期未检率（近12个月）：(\d{4}-\d{2} \d+\.\d%（\d+ \/ [1-9]\d*），){11}\d{4}-\d{2} \d+\.\d%（\d+ \/ [1-9]\d*）$/);
    const overdue = await cardValue('超期未检');
    // Nothing reaches past the window's right edge.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('.engine-stats-screen *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((el) => el.className.toString()),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);

    await page.getByRole('link', { name: /^超期未检：/ }).click();
    await page.waitForURL(/\/area\/equipment-timeout\?/);
    await expect.poll(listTotal).toBe(`共 ${overdue} 条`);
  });

  it('opens a stacked part of a district as the area list with as many rows', async () => {
    await openEquipmentStats();
    const chart = chartCard('各区县设备（按种类）');
    await chart.getByText('表格').click();
    const cell = chart.locator('.ant-table-row').first().locator('td a').first();
    await cell.waitFor();
    const shown = Number(await cell.innerText());
    expect(shown).toBeGreaterThan(0);
    await cell.click();
    await page.waitForURL((url) => url.pathname === '/area/equipment' && url.searchParams.has('locationArea') && url.searchParams.has('equclacode'));
    await expect.poll(listTotal).toBe(`共 ${shown} 条`);
  });

  it('opens the list of a pie slice on a click on the chart, with the hand cursor over it', async () => {
    await openEquipmentStats();
    const donut = page.getByRole('img', { name: /^设备种类：/ }).filter({ visible: true });
    await expect.poll(async () => (await donut.getAttribute('aria-label')) ?? '').toMatch(/^设备种类：\S+ \d+（/);
    const [, count, share] = /^设备种类：\S+ (\d+)（([\d.]+)%）/.exec((await donut.getAttribute('aria-label'))!)!;
    // The first (largest) slice starts at 12 o'clock and runs clockwise: aim at its middle, mid-ring.
    const box = (await donut.boundingBox())!;
    const angle = (Number(share) / 100) * Math.PI;
    const r = 0.6 * (Math.min(box.width, box.height) / 2);
    const [x, y] = [box.x + 0.28 * box.width + r * Math.sin(angle), box.y + 0.5 * box.height - r * Math.cos(angle)];
    await page.mouse.move(x, y);
    await expect.poll(() => donut.evaluate((el) => getComputedStyle(el.querySelector('svg') ?? el).cursor)).toBe('pointer');
    await page.mouse.click(x, y);
    await page.waitForURL((url) => url.pathname === '/area/equipment' && url.searchParams.has('equclacode'));
    await expect.poll(listTotal).toBe(`共 ${count} 条`);
  });

  it('shows each district overdue share with both numbers, linking to its overdue rows', async () => {
    await openEquipmentStats();
    const chart = chartCard('各区县超期未检率');
    await chart.getByText('表格').click();
    const rows = chart.locator('.ant-table-row');
    await rows.first().waitFor();
    const texts = await rows.allInnerTexts();
    for (const text of texts) expect(text).toMatch(/\d+\.\d%（\d+ \/ \d+）/);
    // The summary row: the share over every district.
    await expect.poll(() => chart.locator('.ant-table-summary').innerText()).toMatch(/合计\s+(\d+\.\d%|—)（\d+ \/ \d+）/);
    const link = chart.locator('.ant-table-row a').first();
    if ((await link.count()) === 0) return; // no district has overdue equipment: nothing to open
    const [, part] = /（(\d+) \/ \d+）/.exec(await link.innerText())!;
    await link.click();
    await page.waitForURL((url) => url.pathname === '/area/equipment-timeout' && url.searchParams.has('locationArea'));
    await expect.poll(listTotal).toBe(`共 ${part} 条`);
  });

  it('打印 prints the page, which in print runs over A4 sheets with the charts one under another', async () => {
    await openEquipmentStats();
    await expect.poll(() => cardValue('设备总数')).toBeGreaterThan(0);
    // The browser's print dialog cannot open headless: count the calls instead.
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => void (window as unknown as { printed: number }).printed++;
    });
    await page
      .locator('.engine-stats-screen')
      .filter({ visible: true })
      .getByRole('button', { name: /打\s*印/ })
      .click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    try {
      // Charts take the page's width one under another, and the page is not cut at the window's height.
      const widths = await page
        .locator('.engine-stats-charts > .ant-col')
        .filter({ visible: true })
        .evaluateAll((cols) => cols.map((c) => Math.round(c.getBoundingClientRect().width)));
      expect(new Set(widths).size).toBe(1);
      const [screen, window] = await page.evaluate(() => [
        document.querySelector('.engine-stats-screen')!.getBoundingClientRect().height,
        document.documentElement.scrollHeight,
      ]);
      expect(window).toBeGreaterThanOrEqual(Math.floor(screen));
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });

  it('draws the monthly pass rate of 检验统计 as a line of percentages', async () => {
    await openMenu(page, '统计分析', '检验统计');
    await page.waitForURL(/\/stats\/inspection$/);
    const line = page.getByRole('img', { name: /^检验合格率（近12个月）：/ }).filter({ visible: true });
    await expect
      .poll(async () => (await line.getAttribute('aria-label')) ?? '')
      .toMatch(/^检验合格率（近12个月）：(\d{4}-\d{2} (\d+\.\d%（\d+ \/ \d+）|无记录)，){11}\d{4}-\d{2} /);
    // ECharts draws the line as SVG with its percentage axis.
    await line.locator('svg text', { hasText: '100%' }).first().waitFor();
    const table = chartCard('检验合格率（近12个月）');
    await table.getByText('表格').click();
    await expect.poll(() => table.locator('.ant-table-row').count()).toBe(12);
  });
});
