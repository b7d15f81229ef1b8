/**
 * The screen audit: each demo user opens every menu entry it can see, at 1366x768, and
 * each screen must render without a console error or a failed API reply, never be wider than the
 * viewport, show no English words where users read labels, help and messages, and not be the 404
 * page (a route naming nothing to show). An external link's entry shows the page leading to the link
 * (or saying it is not configured). A screenshot per screen goes to test-results/screens/.
 *
 * The same walk is the accessibility audit: axe-core's WCAG 2.x A/AA rules (support/axe.ts) on the
 * login page and on each distinct screen, scanned once by the first user who sees it (a screen's
 * layout does not depend on who opens it; a separate walk of its own cost CI 7-13 minutes). The
 * shell around the screens (menu, header) is the same on each of a user's screens: it is scanned
 * with the user's first screen, the later ones only within the content pane (that took the scans
 * from ~1.6 s to ~0.7 s a screen). No
 * serious or critical violation may remain; all of them, minor ones too, go to test-results/a11y.json.
 */
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RouteEntry } from '../../src/app/menu';
import { launchBrowser } from './support/browser';
import { menuScreens, openScreen } from './support/screens';
import { account, logIn } from './support/shell';
import { scan, serious, writeReport, type Violation } from './support/axe';

const baseURL = inject('baseURL');
const SHOTS = 'test-results/screens';

/** Latin words users may meet in labels and messages (file types, units, proper names). */
const ALLOWED_WORDS = new Set(['Excel', 'XLSX', 'xlsx', 'PDF', 'pdf', 'JPG', 'jpg', 'PNG', 'png', 'DOC', 'DOCX', 'MPa', 'kW', 'MW', 'QR']);
/** Where users read words (not data cells, whose values may be model numbers). */
const TEXT_SELECTORS = [
  '.ant-form-item-label',
  '.ant-form-item-extra',
  'th',
  '.ant-empty-description',
  '.ant-card-head-title',
  'button',
  '.ant-tabs-tab',
  '.ant-descriptions-item-label',
  '.ant-result-title',
  '.ant-result-subtitle',
  '.ant-alert-message',
];

interface Finding {
  route: string;
  problem: string;
}

/** Every accessibility violation found (the report), and the screens already scanned by an earlier user. */
const violations: Violation[] = [];
const scanned = new Set<string>();
const a11yProblems = (found: Violation[]) => serious(found).map((v) => `accessibility: ${v.rule} (${v.impact}) at ${v.targets.join(' | ')}: ${v.summary}`);

async function audit(page: Page, route: RouteEntry, loginName: string, withShell: boolean): Promise<Finding[]> {
  const findings: Finding[] = [];
  const problem = (text: string) => findings.push({ route: route.fullPath, problem: text });
  const onConsole = (msg: { type(): string; text(): string }) => {
    if (msg.type() === 'error') problem(`console error: ${msg.text().slice(0, 200)}`);
  };
  const onPageError = (err: Error) => problem(`page error: ${err.message.slice(0, 200)}`);
  const onResponse = (res: { url(): string; status(): number }) => {
    if (res.url().includes('/espServer/') && res.status() >= 400) problem(`API ${res.status()} ${new URL(res.url()).pathname}`);
  };
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  page.on('response', onResponse);
  try {
    // Lists settle after their first page arrives.
    await openScreen(page, baseURL, route.fullPath);
    const content = page.locator('.shell__content');
    if ((await page.getByText('抱歉，您访问的页面不存在。').count()) > 0) problem('the 404 page');
    const widths = await page.evaluate(() => {
      const pane = document.querySelector<HTMLElement>('.shell__content');
      return { page: document.documentElement.scrollWidth, viewport: window.innerWidth, pane: pane ? pane.scrollWidth - pane.clientWidth : 0 };
    });
    if (widths.page > widths.viewport || widths.pane > 1) problem(`wider than the page (document ${widths.page}px, pane overflow ${widths.pane}px)`);
    // Key columns (state, deadlines) are visible on arrival: not under the fixed 操作 column nor past the table's edge.
    const hidden = await page.evaluate(() => {
      const table = document.querySelector('.engine-list-table .ant-table-container');
      if (!table) return [];
      const box = table.getBoundingClientRect();
      const fixed = table.querySelector('th.ant-table-cell-fix-right');
      const right = fixed ? fixed.getBoundingClientRect().left : box.right;
      return [...table.querySelectorAll('th[data-key-column]')]
        .filter((th) => th.getBoundingClientRect().right > right + 1)
        .map((th) => (th as HTMLElement).innerText.trim());
    });
    if (hidden.length) problem(`key columns hidden by scrolling: ${hidden.join(', ')}`);
    const texts = await content.locator(TEXT_SELECTORS.join(', ')).filter({ visible: true }).allInnerTexts();
    const words = [...new Set(texts.flatMap((t) => t.match(/[A-Za-z]{3,}/g) ?? []))].filter((w) => !ALLOWED_WORDS.has(w));
    if (words.length) problem(`English words shown: ${words.slice(0, 8).join(', ')}`);
    await page.screenshot({ path: `${SHOTS}/${loginName}${route.fullPath.replace(/\//g, '_')}.png` });
    if (withShell || !scanned.has(route.fullPath)) {
      scanned.add(route.fullPath);
      const found = await scan(page, `${loginName} ${route.fullPath}`, withShell ? undefined : '.shell__content');
      violations.push(...found);
      for (const text of a11yProblems(found)) problem(text);
    }
  } finally {
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
    page.off('response', onResponse);
  }
  return findings;
}

afterAll(() => writeReport(violations));

describe('the login page', () => {
  it('has no serious or critical accessibility violation', async () => {
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' })).newPage();
      await page.goto(`${baseURL}/login`);
      await page.getByPlaceholder('账号', { exact: true }).waitFor();
      const found = await scan(page, '/login');
      violations.push(...found);
      expect(a11yProblems(found)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe.each(['nbadmin', 'nbsub', 'bladmin', 'jgadmin', 'nbjy', 'wbadmin', 'analyst'])('screen audit as %s', (loginName) => {
  let browser: Browser;
  let page: Page;
  let routes: RouteEntry[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' })).newPage();
    page.setDefaultTimeout(20_000);
    await logIn(page, baseURL, account(loginName));
    await page.waitForURL((url) => !url.pathname.includes('/login'));
    await page.locator('.shell__content').waitFor();
    // The screen playground (/dev/) is the analysts' tool, not a clerk's screen: its own e2e covers it.
    routes = await menuScreens(page);
  }, 60_000);
  afterAll(() => browser?.close());

  // The first user's walk also scans most screens for accessibility: 13 minutes at load 8-10 (2026-11-27), hence the wide limit.
  it('opens every menu entry it can see, each a working, accessible screen', { timeout: 1_800_000 }, async () => {
    // The analyst's menu is the home page and the notices (besides the playground); every other user has more.
    expect(routes.length).toBeGreaterThanOrEqual(loginName === 'analyst' ? 2 : 4);
    const findings: Finding[] = [];
    for (const [i, route] of routes.entries()) findings.push(...(await audit(page, route, loginName, i === 0)));
    expect(findings).toEqual([]);
  });
});
