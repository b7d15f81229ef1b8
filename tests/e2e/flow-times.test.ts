/**
 * The authority's 办理时效 (统计分析, schemas/screens/area-stats-flow-times.json) against the real
 * server: one table row per workflow the officer may list, labelled with the resource's title, its
 * numbers those of `GET /r/<resource>/flow-times` (never the demo seed's), 办结数 never above
 * 提交数, the day columns sortable, and the page no wider than a 1366 px screen.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { browserSuite } from './support/suite';
import { account, logIn, openMenu } from './support/shell';

const baseURL = inject('baseURL');

interface FlowTimes {
  submitted: number;
  finished: number;
  avgDays: number | null;
  p90Days: number | null;
}

/** GET /r/<resource>/flow-times in the page's session; null when the officer may not list the resource. */
const flowTimes = (page: Page, resource: string) =>
  page.evaluate(async (resource) => {
    const res = await fetch(`/espServer/r/${resource}/flow-times`, { credentials: 'include' });
    if (res.status === 403) return null;
    const reply = (await res.json()) as { result: string; message: string; data: unknown };
    if (reply.result !== 'true') throw new Error(`${resource}: ${reply.message}`);
    return reply.data;
  }, resource) as Promise<FlowTimes | null>;

/** A schema document of the repository. */
const schema = <T>(path: string): T => JSON.parse(readFileSync(new URL(`../../schemas/${path}`, import.meta.url), 'utf8')) as T;

const days = (value: number | null) => (value === null ? '—' : value.toFixed(1));

describe('办理时效: how long the workflows take', () => {
  const { page } = browserSuite();

  it('lists each workflow with the numbers the server counts, within a 1366 px screen', async () => {
    await page.setViewportSize({ width: 1366, height: 768 });
    await logIn(page, baseURL, account('jgadmin'));
    await page.waitForURL(/\/home$/);
    await openMenu(page, '统计分析', '办理时效');
    await page.waitForURL(/\/stats\/flow-times$/);

    const card = page.locator('.engine-flow-times').filter({ visible: true });
    await card.locator('.ant-card-head-title', { hasText: '各业务办理时效' }).waitFor();
    const table = card.getByRole('table');
    const rows = table.locator('.ant-table-tbody .ant-table-row');
    await rows.first().waitFor();

    // The screen's resources in its order, less those the officer may not list.
    const screen = schema<{ flowTimes: { resources: string[] } }>('screens/area-stats-flow-times.json');
    const expected: { title: string; figures: FlowTimes }[] = [];
    for (const name of screen.flowTimes.resources) {
      const figures = await flowTimes(page, name);
      if (!figures) continue;
      expected.push({ title: schema<{ title: string }>(`resources/${name}.json`).title, figures });
    }
    expect(expected.length).toBeGreaterThan(1);
    await expect.poll(() => rows.count()).toBe(expected.length);

    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td as HTMLElement).innerText.trim())));
    expect(cells.map((c) => c[0])).toEqual(expected.map((e) => e.title));
    for (const [i, { figures }] of expected.entries()) {
      const [, submitted, finished, rate, avg, p90] = cells[i];
      expect(Number(submitted), expected[i].title).toBe(figures.submitted);
      expect(Number(finished), expected[i].title).toBe(figures.finished);
      expect(Number(finished)).toBeLessThanOrEqual(Number(submitted));
      expect(rate).toMatch(figures.submitted === 0 ? /^—$/ : /^\d+\.\d%$/);
      expect(avg).toBe(days(figures.avgDays));
      expect(p90).toBe(days(figures.p90Days));
    }
    // Some workflow has numbers in the demo data.
    expect(expected.some((e) => e.figures.submitted > 0)).toBe(true);
    const p90s = expected.flatMap((e) => (e.figures.p90Days === null ? [] : [e.figures.p90Days]));
    const top = Math.max(...p90s);
    const marked = card.getByTitle('90%用时最长');
    if (p90s.length > 1 && top > Math.min(...p90s)) {
      // The slowest 90th percentile stands out, and bars beside the table give each workflow's days.
      await expect.poll(() => marked.count()).toBe(p90s.filter((v) => v === top).length);
      expect(await marked.first().innerText()).toBe(days(top));
      const first = expected.find((e) => e.figures.avgDays !== null)!;
      const chart = card.getByRole('img', { name: /^各业务办理时效/ });
      await expect.poll(async () => (await chart.getAttribute('aria-label')) ?? '').toContain(`${first.title}平均${days(first.figures.avgDays)}天`);
    } else {
      // Nothing to single out when every finished workflow took as long.
      expect(await marked.count()).toBe(0);
    }

    // Sorting by 90%用时 puts the slowest first (descending on the first click).
    await table.locator('th', { hasText: '90%用时（天）' }).click();
    if (p90s.length > 0) await expect.poll(async () => (await rows.first().locator('td').nth(5).innerText()).trim()).toBe(days(top));
    await expect.poll(() => rows.count()).toBe(expected.length);

    // Nothing sticks out of a 1366 px screen.
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(1366);
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('.engine-flow-times *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .map((el) => el.className.toString().slice(0, 40)),
    );
    expect(wide).toEqual([]);
  });
});
