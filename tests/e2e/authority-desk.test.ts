/**
 * The authority's home desk in Chromium (jgadmin): a tile for every queue that waits on it, and each
 * tile's number is the total of the list it opens — click the tile, read the list's 共 N 条. Online
 * inspection is the bodies' work now: its 辖区报检超时未办 tile opens 在线报检监督 on the late
 * applications, each showing its body and offering 改派 — never 受理, 核定费用, 确认缴费 or 录入检验结果
 * (tests/e2e/inspection-body.test.ts has the body's desk). The quick entries name what each menu
 * area holds.
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

  it("辖区报检超时未办 opens the late applications of its area with their body, offering 改派 and none of the body's actions", async () => {
    const late = (await tiles(page)).get('辖区报检超时未办')!;
    expect(late).toBeGreaterThan(0);
    await page.locator('[data-desk-card="辖区报检超时未办"] a').click();
    await page.waitForURL(/\/account\/online-apply-audit\?/);
    await listTotal(page, '辖区报检超时未办', late);
    const rows = page.locator('.ant-table').filter({ visible: true }).first().locator('.ant-table-row');
    expect(await rows.count()).toBe(Math.min(late, 20));
    for (const row of await rows.all()) {
      const text = await row.innerText();
      expect(text).toMatch(/宁波市特种设备检验研究院|浙江省特种设备科学研究院宁波分院/);
      expect(await row.locator('[data-deadline="overdue"]').count()).toBe(1);
      await row.getByRole('button', { name: '改派' }).waitFor();
      for (const name of [/受\s*理/, '核定费用', '确认缴费', '录入检验结果']) expect(await row.getByRole('button', { name }).count()).toBe(0);
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
