/**
 * The authority's home desk in Chromium (jgadmin): a tile for every queue that waits on it, and each
 * tile's number is the total of the list it opens — click the tile, read the list's 共 N 条. The
 * 报检待确认缴费 tile opens 在线报检受理 on 待缴费 with 缴费凭证 已上传, where every row offers
 * 确认缴费; a 待缴费 row without a certificate (未上传) never does. The quick entries name what each
 * menu area holds.
 */
import { describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { signedInSuite } from './support/suite';
import { AUTHORITY_QUEUES } from '../support/authority-queues';

const baseURL = inject('baseURL');

async function tiles(page: Page): Promise<Map<string, number>> {
  await page.goto(`${baseURL}/home`);
  const all = page.locator('[data-desk-card]');
  await all.first().waitFor();
  const out = new Map<string, number>();
  for (const tile of await all.all()) {
    out.set((await tile.getAttribute('data-desk-card'))!, Number((await tile.locator('.ant-statistic-content-value').innerText()).replace(/,/g, '')));
  }
  return out;
}

/** The visible list's total, once its first page has loaded. */
async function listTotal(page: Page, label: string, expected: number): Promise<void> {
  const total = page.locator('.ant-pagination-total-text').filter({ visible: true }).first();
  if (expected === 0) {
    await page.locator('.ant-table').filter({ visible: true }).first().waitFor();
    await expect.poll(async () => (await total.count()) === 0 || (await total.innerText()) === '共 0 条', { message: label, timeout: 15_000 }).toBe(true);
  } else {
    await expect.poll(() => total.innerText(), { message: label, timeout: 15_000 }).toBe(`共 ${expected} 条`);
  }
}

describe("the authority's home desk", () => {
  const { page } = signedInSuite('jgadmin');

  it('has a tile for every queue waiting on it; each opens a list of as many rows as it counts', async () => {
    const counts = await tiles(page);
    expect([...counts.keys()]).toEqual(expect.arrayContaining(AUTHORITY_QUEUES));
    // No unit work on the authority's desk.
    expect([...counts.keys()]).not.toContain('超期未检');
    for (const [label, count] of counts) {
      await page.goto(`${baseURL}/home`);
      await page.locator(`[data-desk-card="${label}"] a`).click();
      await page.waitForURL((url) => !url.pathname.endsWith('/home'));
      await listTotal(page, label, count);
    }
    // One page load per tile (sixteen and more) on a loaded two-core machine.
  }, 600_000);

  it('报检待确认缴费 opens the applications with a certificate, each offering 确认缴费; one without offers none', async () => {
    const waiting = (await tiles(page)).get('报检待确认缴费')!;
    await page.locator('[data-desk-card="报检待确认缴费"] a').click();
    await page.waitForURL(/\/account\/online-apply-audit\?/);
    const url = new URL(page.url());
    expect(url.searchParams.getAll('status')).toEqual(['unpaid']);
    expect(url.searchParams.get('payCertificate')).toBe('true');
    await listTotal(page, '报检待确认缴费', waiting);
    const table = page.locator('.ant-table').filter({ visible: true }).first();
    const rows = table.locator('.ant-table-row');
    expect(await rows.count()).toBe(Math.min(waiting, 20));
    for (const row of await rows.all()) {
      const text = await row.innerText();
      expect(text).toContain('待缴费');
      expect(text).toContain('已上传');
      await row.getByRole('button', { name: '确认缴费' }).waitFor();
    }

    // 待缴费 without a certificate: the column says so and the action is not offered.
    await page.goto(`${baseURL}/account/online-apply-audit?status=unpaid&payCertificate=false`);
    const bare = page.locator('.ant-table').filter({ visible: true }).first();
    await bare.waitFor();
    await expect
      .poll(async () => (await bare.locator('.ant-table-row').count()) > 0 || (await bare.locator('.ant-empty').count()) > 0, { timeout: 15_000 })
      .toBe(true);
    for (const row of await bare.locator('.ant-table-row').all()) {
      expect(await row.innerText()).toContain('未上传');
      expect(await row.getByRole('button', { name: '确认缴费' }).count()).toBe(0);
    }
  });

  it('the quick entries say what each area holds, not a bare count', async () => {
    await page.goto(`${baseURL}/home`);
    const approval = page.locator('.home__entry').filter({ hasText: '审批受理' });
    await approval.waitFor();
    expect(await approval.locator('small').innerText()).toMatch(/^账号注册审核、\S+ 等 \d+ 项$/);
    expect(await page.locator('.home__entry').allInnerTexts()).not.toContainEqual(expect.stringMatching(/项功能/));
  });
});
