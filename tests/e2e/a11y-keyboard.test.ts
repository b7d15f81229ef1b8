/**
 * Keyboard only: a person without a mouse logs in, opens a list from the side menu, types a filter
 * and searches, opens the add form, fills it and saves — with Tab, Shift+Tab, Enter and the arrow
 * keys alone. Wherever the focus lands on the way it must be visible (an outline, a focus ring or
 * antd's focused state), or the person could not tell where they are.
 */
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { account } from './support/shell';
import { browserSuite } from './support/suite';

const baseURL = inject('baseURL');

interface Focused {
  tag: string;
  text: string;
  label: string;
  placeholder: string;
  visible: boolean;
}

/** What has the focus, and whether it is shown (its own outline or ring, or its antd control's focused state). */
function focused(page: Page): Promise<Focused> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { tag: 'body', text: '', label: '', placeholder: '', visible: false };
    const shows = (node: Element): boolean => {
      const style = getComputedStyle(node);
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
      return outline || (style.boxShadow !== 'none' && style.boxShadow !== '');
    };
    const control = el.closest(
      '.ant-input-affix-wrapper, .ant-input-outlined, .ant-select, .ant-picker, .ant-input-number, .ant-checkbox-wrapper, .ant-radio-wrapper',
    );
    const ring = control?.querySelector('.ant-select-selector');
    const visible = shows(el) || (control !== null && (shows(control) || (ring != null && shows(ring)) || /-focused\b/.test(control.className)));
    return {
      tag: el.tagName.toLowerCase(),
      text: (el.innerText ?? '').trim().slice(0, 40),
      label: el.getAttribute('aria-label') ?? '',
      placeholder: el.getAttribute('placeholder') ?? '',
      visible,
    };
  });
}

/** Presses `key` until the focused element satisfies `wanted` (at most `max` times), checking at each step that the focus is visible. */
async function pressUntil(page: Page, key: string, wanted: (f: Focused) => boolean, what: string, max = 80): Promise<void> {
  const path: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    let now = await focused(page);
    path.push(`${now.tag}:${now.label || now.placeholder || now.text}`);
    // A control shows its focused state once React has rendered it: look again until it does.
    if (now.tag !== 'body' && !now.visible)
      await expect.poll(async () => (now = await focused(page)).visible, { timeout: 5_000, message: `focus not visible on ${path.at(-1)}` }).toBe(true);
    if (wanted(now)) return;
  }
  throw new Error(`${what} not reached with ${key} (${path.slice(-12).join(' → ')})`);
}

describe('keyboard only', () => {
  const { page } = browserSuite();

  it('logs in, searches a list from the menu and saves a new record, focus always visible', { timeout: 300_000 }, async () => {
    const who = account('nbadmin');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${baseURL}/login`);
    await page.getByPlaceholder('账号', { exact: true }).waitFor();
    await pressUntil(page, 'Tab', (f) => f.placeholder === '账号', 'the account field');
    await page.keyboard.type(who.loginName);
    await pressUntil(page, 'Tab', (f) => f.placeholder === '密码', 'the password field');
    await page.keyboard.type(who.password);
    await pressUntil(page, 'Tab', (f) => f.placeholder.startsWith('组织机构代码'), 'the organisation code field');
    await page.keyboard.type(who.orgCode);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/home$/);
    await page.locator('.shell__content').waitFor();

    // The side menu: Tab into it, arrows to the entry, Enter opens it.
    await pressUntil(page, 'Tab', (f) => f.text.startsWith('首页') || f.text.startsWith('单位通知'), 'the side menu');
    await pressUntil(page, 'ArrowDown', (f) => f.text === '单位通知', 'the 单位通知 menu entry', 30);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/home\/unit-notice$/);
    await page.locator('.engine-list-table').waitFor();
    await expect.poll(() => page.locator('.engine-list-table .ant-table-row').count()).toBeGreaterThan(0);

    const title = `键盘公告${Date.now().toString(36)}`;
    await pressUntil(page, 'Tab', (f) => f.tag === 'input' && /标题/.test(f.label + f.placeholder), 'the 标题 filter');
    await page.keyboard.type(title);
    await pressUntil(page, 'Tab', (f) => f.tag === 'button' && /^查\s*询$/.test(f.text), 'the 查询 button');
    await page.keyboard.press('Enter');
    // The new title matches no record yet: the list, which had rows, shows none once searched.
    await page.screenshot({ path: 'test-results/screens/keyboard-search.png' });
    await expect.poll(() => page.locator('.engine-list-table .ant-table-row').count()).toBe(0);

    await pressUntil(page, 'Tab', (f) => f.tag === 'button' && /^新\s*增$/.test(f.text), 'the 新增 button');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/home\/unit-notice\/form/);
    await page.getByRole('textbox', { name: '标题', exact: true }).filter({ visible: true }).waitFor();
    await pressUntil(page, 'Tab', (f) => f.label === '标题', 'the 标题 field');
    await page.keyboard.type(title);
    await pressUntil(page, 'Tab', (f) => f.label === '正文', 'the 正文 field');
    await page.keyboard.type('只用键盘填写并保存。');
    const saved = page.waitForResponse((r) => r.request().method() !== 'GET' && r.url().includes('/demo-notice/'));
    await pressUntil(page, 'Tab', (f) => f.tag === 'button' && /^保\s*存$/.test(f.text), 'the 保存 button');
    await page.keyboard.press('Enter');
    expect(((await (await saved).json()) as { result: string }).result).toBe('true');
    await page
      .getByText(/保存成功|操作成功/)
      .first()
      .waitFor();
  });
});
