/**
 * Accessibility audit: axe-core's WCAG 2.x A and AA rules on the login page and on every menu screen
 * the demo users can open (the screen audit's walk), at 1366x768. No serious or critical violation
 * may remain. One browser, one context per user. Each distinct screen is scanned once, by the first
 * user (in USERS' order) who sees it: the four users' menus overlap, and scanning every screen for
 * each of them took over 11 minutes on a loaded two-core machine for no further finding (a screen's
 * layout does not depend on who opens it). Every violation found (of any impact) is written per
 * rule to test-results/a11y.json, so a run shows what the minor ones are too.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { account, logIn } from './support/shell';
import { menuScreens, openScreen } from './support/screens';

const baseURL = inject('baseURL');
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const USERS = ['nbadmin', 'bladmin', 'nbsub', 'jgadmin'];

interface Violation {
  screen: string;
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
  summary: string;
  /** For colour-contrast: the distinct foreground/background pairs that fail. */
  colors?: string[];
}

/** axe's WCAG A/AA violations of the page as it stands. */
async function scan(page: Page, screen: string): Promise<Violation[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    nodes: v.nodes.length,
    targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
    summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? '',
    colors:
      v.id === 'color-contrast'
        ? [...new Set(v.nodes.flatMap((n) => n.any.map((c) => { const d = c.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null; return `${d?.fgColor} on ${d?.bgColor} (${d?.contrastRatio})`; })))]
        : undefined,
  }));
}

const found: Violation[] = [];
/** Screens already scanned (by an earlier user). */
const scanned = new Set<string>();
const serious = (list: Violation[]) => list.filter((v) => v.impact === 'serious' || v.impact === 'critical');

describe('accessibility (axe, WCAG 2.x A/AA)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    mkdirSync('test-results', { recursive: true });
    const byRule: Record<string, { impact: string; screens: number; nodes: number }> = {};
    for (const v of found) {
      const entry = (byRule[v.rule] ??= { impact: v.impact, screens: 0, nodes: 0 });
      entry.screens += 1;
      entry.nodes += v.nodes;
    }
    writeFileSync('test-results/a11y.json', JSON.stringify({ byRule, violations: found }, null, 2));
  });

  it('the login page has no serious or critical violation', { timeout: 120_000 }, async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' });
    const page = await context.newPage();
    await page.goto(`${baseURL}/login`);
    await page.getByPlaceholder('账号', { exact: true }).waitFor();
    const violations = await scan(page, '/login');
    found.push(...violations);
    await context.close();
    expect(serious(violations)).toEqual([]);
  });

  it.each(USERS)('every menu screen first seen by %s has no serious or critical violation', { timeout: 900_000 }, async (loginName) => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    try {
      await logIn(page, baseURL, account(loginName));
      await page.waitForURL((url) => !url.pathname.includes('/login'));
      await page.locator('.shell__content').waitFor();
      const screens = await menuScreens(page);
      expect(screens.length).toBeGreaterThanOrEqual(4);
      const violations: Violation[] = [];
      for (const screen of screens) {
        if (scanned.has(screen.fullPath)) continue;
        scanned.add(screen.fullPath);
        await openScreen(page, baseURL, screen.fullPath);
        violations.push(...(await scan(page, `${loginName} ${screen.fullPath}`)));
      }
      found.push(...violations);
      expect(serious(violations)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
