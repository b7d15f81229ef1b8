/**
 * Text enlarged to 200 % (for older users): the login page, the home page and a list at 1366x768
 * zoomed to 200 % still show all their text — no element cuts its text off. Only the cells meant
 * to shorten a long value with an ellipsis may, when they carry the whole text as a tooltip (title).
 * A list's filter inputs show their whole placeholder (请输入登录账号), which no overflow check sees.
 *
 * How the zoom is made: a browser's zoom (Ctrl +, the only text enlargement desktop Chrome and Edge
 * offer for every page) halves the CSS pixels across the same window and draws each at twice the
 * size. A context of 683x384 CSS pixels at deviceScaleFactor 2 is exactly that (same 1366x768
 * window, media queries and layout as at 200 %); CSS `zoom` on the root would leave media queries
 * and the viewport units at 100 % and so test a layout no user sees.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchBrowser } from './support/browser';
import { account, logIn } from './support/shell';
import { openScreen } from './support/screens';

const baseURL = inject('baseURL');
const SHOTS = 'test-results/screens';

/** Elements that clip their own text (overflow hidden or clip and the text wider or taller than the box), except ellipsis cells with a tooltip. */
function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
      if (!ownText || !el.checkVisibility()) continue;
      // Text pushed past the window's top or left edge (a wrapped title growing out of its bar) can never be scrolled to.
      const box = el.getBoundingClientRect();
      if (box.top < -1 || box.left < -1) {
        found.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} "${el.innerText.trim().slice(0, 30)}" outside the window (${Math.round(box.left)}, ${Math.round(box.top)})`,
        );
        continue;
      }
      const style = getComputedStyle(el);
      const hidesX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const hidesY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      const cutX = hidesX && el.scrollWidth > el.clientWidth + 1;
      const cutY = hidesY && el.scrollHeight > el.clientHeight + 1;
      if (!cutX && !cutY) continue;
      // An intended ellipsis: the whole text is in a tooltip (a title, or a list's ellipsis cell, which shows it on hover).
      const ellipsis = style.textOverflow === 'ellipsis' && (el.title || el.closest('[title]') || el.closest('.engine-list-table td.ant-table-cell'));
      if (ellipsis && !cutY) continue;
      // Visually hidden helpers for screen readers (1px boxes) are not meant to be read on screen.
      if (el.clientWidth <= 1 || el.clientHeight <= 1) continue;
      found.push(
        `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} "${el.innerText.trim().slice(0, 30)}" (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`,
      );
    }
    return found;
  });
}

/** Visible filter inputs whose placeholder is wider than the input's text box (measured in the input's font). */
function cutPlaceholders(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const input of document.querySelectorAll<HTMLInputElement>('.engine-filter-bar input[placeholder]')) {
      if (!input.placeholder || !input.checkVisibility()) continue;
      const probe = document.createElement('span');
      probe.style.cssText = 'position:absolute;visibility:hidden;white-space:pre';
      probe.style.font = getComputedStyle(input).font;
      probe.textContent = input.placeholder;
      document.body.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      const style = getComputedStyle(input);
      const box = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      if (width > box + 1) found.push(`"${input.placeholder}" (${Math.round(width)} in ${box})`);
    }
    return found;
  });
}

describe('text zoomed to 200 %', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 683, height: 384 }, deviceScaleFactor: 2, locale: 'zh-CN' });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
  }, 60_000);
  afterAll(() => browser?.close());

  it('the login page cuts no text off', async () => {
    await page.goto(`${baseURL}/login`);
    await page.getByPlaceholder('账号', { exact: true }).waitFor();
    await page.screenshot({ path: `${SHOTS}/zoom200_login.png` });
    expect(await clippedTexts(page)).toEqual([]);
  });

  it('the home page cuts no text off', async () => {
    await logIn(page, baseURL, account('nbadmin'));
    await page.waitForURL(/\/home$/);
    await openScreen(page, baseURL, '/home');
    await page.screenshot({ path: `${SHOTS}/zoom200_home.png`, fullPage: true });
    expect(await clippedTexts(page)).toEqual([]);
  });

  it('a list cuts no text off (the table may scroll sideways)', async () => {
    await openScreen(page, baseURL, '/home/unit-notice');
    await page.locator('.engine-list-table').waitFor();
    await page.screenshot({ path: `${SHOTS}/zoom200_unit-notice.png`, fullPage: true });
    expect(await clippedTexts(page)).toEqual([]);
  });

  it("a list's filter inputs show their whole placeholder", async () => {
    await openScreen(page, baseURL, '/system/bypassAccount');
    await page.getByPlaceholder('请输入登录账号').waitFor();
    await page.screenshot({ path: `${SHOTS}/zoom200_sub-account-filters.png` });
    expect(await cutPlaceholders(page)).toEqual([]);
  });
});
