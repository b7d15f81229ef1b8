/**
 * axe-core's WCAG 2.x A and AA rules over a page as it stands: what the screen audit runs on the login
 * page and on every distinct menu screen. Every violation (of any impact) is kept for the report
 * test-results/a11y.json, so a run shows what the minor ones are too; serious and critical ones fail.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export interface Violation {
  screen: string;
  rule: string;
  impact: string;
  nodes: number;
  targets: string[];
  summary: string;
  /** For colour-contrast: the distinct foreground/background pairs that fail. */
  colors?: string[];
}

/** axe's WCAG A/AA violations of the page as it stands, or of the part `within` selects. */
export async function scan(page: Page, screen: string, within?: string): Promise<Violation[]> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  const results = await (within ? builder.include(within) : builder).analyze();
  return results.violations.map((v) => ({
    screen,
    rule: v.id,
    impact: v.impact ?? 'unknown',
    nodes: v.nodes.length,
    targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
    summary: v.nodes[0]?.failureSummary?.split('\n').slice(0, 3).join(' ') ?? '',
    colors:
      v.id === 'color-contrast'
        ? [
            ...new Set(
              v.nodes.flatMap((n) =>
                n.any.map((c) => {
                  const d = c.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | null;
                  return `${d?.fgColor} on ${d?.bgColor} (${d?.contrastRatio})`;
                }),
              ),
            ),
          ]
        : undefined,
  }));
}

export const serious = (list: Violation[]) => list.filter((v) => v.impact === 'serious' || v.impact === 'critical');

/** Writes every violation found, grouped by rule, to test-results/a11y.json. */
export function writeReport(found: readonly Violation[]): void {
  mkdirSync('test-results', { recursive: true });
  const byRule: Record<string, { impact: string; screens: number; nodes: number }> = {};
  for (const v of found) {
    const entry = (byRule[v.rule] ??= { impact: v.impact, screens: 0, nodes: 0 });
    entry.screens += 1;
    entry.nodes += v.nodes;
  }
  writeFileSync('test-results/a11y.json', JSON.stringify({ byRule, violations: found }, null, 2));
}
