/**
 * The home work desk (/home, GET /desk) in Chromium: every card's number is the total of the list
 * it opens — click each card, read the list's 共 N 条 — for the using unit (the authority's tiles:
 * authority-desk.test.ts); the
 * charts (ECharts) draw with their accessible label and the trend line's table view. A notice
 * written in the rich-text editor is stored as HTML and reads formatted for a unit.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/suite';
import { apiCall } from './support/api';
import { account, logIn, logOut } from './support/shell';

const baseURL = inject('baseURL');

async function cardsOf(page: Page): Promise<{ label: string; count: number }[]> {
  const tiles = page.locator('[data-desk-card]');
  await tiles.first().waitFor();
  const out: { label: string; count: number }[] = [];
  for (const tile of await tiles.all()) {
    const label = (await tile.getAttribute('data-desk-card'))!;
    const count = Number((await tile.locator('.ant-statistic-content-value').innerText()).replace(/,/g, ''));
    out.push({ label, count });
  }
  return out;
}

async function checkEveryCard(page: Page) {
  await page.goto(`${baseURL}/home`);
  const cards = await cardsOf(page);
  expect(cards.length).toBeGreaterThan(0);
  for (const { label, count } of cards) {
    await page.goto(`${baseURL}/home`);
    await page.locator(`[data-desk-card="${label}"] a`).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/home'));
    const total = page.locator('.ant-pagination-total-text').filter({ visible: true }).first();
    if (count === 0) {
      await expect.poll(async () => (await total.count()) === 0 || (await total.innerText()) === '共 0 条', { message: label }).toBe(true);
    } else {
      await expect.poll(() => total.innerText(), { message: label, timeout: 15_000 }).toBe(`共 ${count} 条`);
    }
  }
  return cards;
}

describe('the home work desk', () => {
  const { page } = browserSuite();

  it('the unit: each card opens a list with as many rows as it counts; charts are drawn', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.locator('.engine-echart svg').first().waitFor({ timeout: 20_000 });
    const trend = page.locator('[role="img"][aria-label^="近12个月应检与已检"]');
    // Charts draw one by one: wait for this one rather than count at the first drawn.
    await expect.poll(() => trend.count()).toBe(1);
    await trend.locator('svg path').first().waitFor({ state: 'attached' });
    // Every chart card draws (no card stuck loading or failed) and its table view lists what the chart's label says.
    const chartCards = page.locator('.home-desk__charts .engine-chart-card');
    await expect.poll(() => chartCards.count()).toBeGreaterThan(1);
    for (const card of await chartCards.all()) await card.locator('.engine-echart svg, .ant-empty').first().waitFor({ timeout: 20_000 });
    const trendCard = chartCards.filter({ hasText: '近12个月应检与已检' });
    await trendCard.getByText('表格').click();
    const firstMonth = trendCard.locator('.ant-table-row').first();
    await firstMonth.waitFor();
    const [month] = (await firstMonth.innerText()).split(/\s+/);
    expect(month).toMatch(/^\d{4}-\d{2}$/);
    const cards = await checkEveryCard(page);
    expect(cards.map((c) => c.label)).toEqual(expect.arrayContaining(['超期未检', '30天内到期', '未读公告']));
    // One page load per tile on a loaded two-core machine.
  }, 600_000);

  it('the authority: its queues, not the unit work (authority-desk.test.ts opens each)', async () => {
    await logOut(page);
    await logIn(page, baseURL, account('jgadmin'));
    await page.waitForURL(/\/(home|account)/);
    await page.goto(`${baseURL}/home`);
    const cards = await cardsOf(page);
    expect(cards.map((c) => c.label)).toEqual(expect.arrayContaining(['使用登记待审核', '施工告知待受理']));
    expect(cards.map((c) => c.label)).not.toContain('超期未检');
  });

  it('the authority writes a notice in the rich-text editor; a unit reads it formatted', async () => {
    // Still jgadmin (the previous test).
    const title = `富文本公告${Date.now().toString(36)}`;
    await page.goto(`${baseURL}/account/notice-manage-form?mode=add`);
    await page.getByRole('textbox', { name: '标题', exact: true }).filter({ visible: true }).fill(title);
    const editor = page.getByRole('textbox', { name: '正文' }).filter({ visible: true });
    await editor.click();
    await page.keyboard.type('各单位：');
    await page.getByRole('button', { name: '加粗' }).filter({ visible: true }).click();
    await page.keyboard.type('请按时报检');
    await page
      .getByRole('button', { name: /保\s*存/ })
      .filter({ visible: true })
      .click();
    await page.waitForURL(/mode=edit&id=[0-9a-f]{32}/);
    const id = new URL(page.url()).searchParams.get('id')!;
    const stored = await apiCall<{ content: string }>(page, `/r/notice-article/get/${id}`, {});
    expect(stored.content).toBe('<p>各单位：<strong>请按时报检</strong></p>');
    await apiCall(page, `/r/notice-article/publish/${id}`, {});

    await logOut(page);
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await page.goto(`${baseURL}/home/notice/detail?id=${id}`);
    const body = page.locator('.engine-rich-text').filter({ visible: true });
    await body.locator('strong', { hasText: '请按时报检' }).waitFor();
    expect(await body.innerText()).toContain('各单位：');
  });
});
