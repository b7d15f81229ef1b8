/**
 * Drives Debian's Chromium (playwright-core) over the two built pages: fresh browser context per
 * load (no HTTP or code cache carried over), variants alternating, reads `window.__bench`
 * (harness.tsx) and types into the keystroke field on some of the loads.
 *
 * Besides the in-page wall-clock times it reads the renderer main thread's CPU time (CDP
 * Performance.getMetrics `ThreadTime`) around the render (the page waits for `__benchGo()`) and
 * around the measured keystrokes: CPU time does not grow when other processes take the cores,
 * so it stays comparable on a busy machine where wall-clock times do not.
 */
import type { Browser, CDPSession, Page } from 'playwright-core';
import type { KeystrokeSample, PageResult } from './harness';

export type Variant = 'engine' | 'baseline';

export interface LoadResult {
  variant: Variant;
  /** render-start → layout effects of the commit that mounted the form. */
  mount: number;
  /** render-start → the frame after mounting was produced. */
  render: number;
  /** render-start → every form item in the DOM (later than `mount` for a form that renders parts as they are reached). */
  complete: number;
  /** Form items in the DOM at `complete`. */
  allItems: number;
  /** Navigation start → everything loaded (the page's boot, before the render). */
  boot: number;
  /** Paths of the scripts the page loaded before it was ready. */
  scripts: string[];
  /** Renderer main-thread CPU time from `__benchGo()` to `done` (the render, its frame, a little driver overhead). */
  renderCpu: number;
  /** Renderer main-thread CPU time per measured keystroke (keydown, keyup, timers in between). */
  keyCpu: number;
  items: number;
  oneCommit: boolean;
  extra: Record<string, number>;
  keystrokes: KeystrokeSample[];
}

export interface MeasureOptions {
  origin: string;
  loads: number;
  keystrokeLoads: number;
  typingLabel: string;
  text: string;
  warmupText: string;
  /** Milliseconds between keystrokes (each key is pressed, then this pause). */
  keyGap: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The renderer main thread's CPU time so far, in ms. */
async function threadTime(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = metrics.find((m) => m.name === 'ThreadTime')?.value;
  if (value === undefined) throw new Error('Chromium reports no ThreadTime metric');
  return value * 1000;
}

async function failed(page: Page): Promise<string | undefined> {
  return page.evaluate(() => window.__bench?.error);
}

/** Starts the render of a `?wait` page and returns its result with the CPU time it took. */
async function render(page: Page, cdp: CDPSession): Promise<{ result: PageResult; cpu: number }> {
  await page.waitForFunction(() => window.__bench?.ready === true, null, { timeout: 60_000, polling: 20 });
  const error = await failed(page);
  if (error) throw new Error(`page failed before rendering: ${error}`);
  // Let the page settle after loading (idle tasks, GC) so the CPU window holds the render only.
  await sleep(150);
  const before = await threadTime(cdp);
  await page.evaluate(() => window.__benchGo?.());
  await page.waitForFunction(() => window.__bench?.done === true, null, { timeout: 60_000, polling: 20 });
  const cpu = (await threadTime(cdp)) - before;
  const result = (await page.evaluate(() => window.__bench)) as PageResult;
  if (result.error) throw new Error(`${result.variant} page: ${result.error}`);
  result.extra = await page.evaluate(() => window.__benchExtra?.() ?? {});
  return { result, cpu };
}

async function typeKeys(page: Page, cdp: CDPSession, options: MeasureOptions): Promise<{ samples: KeystrokeSample[]; cpu: number }> {
  const input = page.locator(`[aria-label="${options.typingLabel}"]`);
  await input.click();
  await sleep(100);
  const press = async (text: string) => {
    for (const char of text) {
      await page.keyboard.press(char);
      await sleep(options.keyGap);
    }
  };
  await press(options.warmupText);
  await page.waitForFunction((n) => (window.__bench?.keystrokes.length ?? 0) >= n, options.warmupText.length, { timeout: 10_000 });
  await page.evaluate(() => {
    window.__bench!.keystrokes = [];
  });
  const before = await threadTime(cdp);
  await press(options.text);
  await page.waitForFunction((n) => (window.__bench?.keystrokes.length ?? 0) >= n, options.text.length, { timeout: 10_000 });
  const cpu = ((await threadTime(cdp)) - before) / options.text.length;
  const value = await input.inputValue();
  if (value !== options.warmupText + options.text) throw new Error(`typed text did not arrive: field holds ${JSON.stringify(value)}`);
  return { samples: await page.evaluate(() => window.__bench!.keystrokes), cpu };
}

export async function loadOnce(browser: Browser, variant: Variant, options: MeasureOptions, withKeys: boolean): Promise<LoadResult> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
  try {
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.stack ?? error.message));
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    const scripts: string[] = [];
    let booting = true;
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (booting && path.endsWith('.js')) scripts.push(path);
    });
    await page.goto(`${options.origin}/${variant}.html?wait`);
    await page.waitForFunction(() => window.__bench?.ready === true, null, { timeout: 60_000, polling: 20 });
    booting = false;
    const { result, cpu } = await render(page, cdp);
    if (pageErrors.length) throw new Error(`${variant} page error: ${pageErrors[0]}`);
    const keys = withKeys ? await typeKeys(page, cdp, options) : { samples: [], cpu: NaN };
    if (pageErrors.length) throw new Error(`${variant} page error while typing: ${pageErrors[0]}`);
    // Every item must get there (a lazily rendered form: as its parts are reached or the page is idle).
    await page.waitForFunction(() => (window.__bench?.complete ?? 0) > 0 || Boolean(window.__bench?.error), null, { timeout: 30_000, polling: 50 });
    const end = (await page.evaluate(() => window.__bench)) as PageResult;
    if (end.error) throw new Error(`${variant} page: ${end.error}`);
    return {
      variant,
      mount: result.mounted - result.renderStart,
      render: result.painted - result.renderStart,
      complete: end.complete - result.renderStart,
      allItems: end.allItems,
      boot: result.readyAt,
      scripts,
      renderCpu: cpu,
      keyCpu: keys.cpu,
      items: result.items,
      oneCommit: result.oneCommit,
      extra: result.extra,
      keystrokes: keys.samples,
    };
  } finally {
    await context.close();
  }
}

/** One discarded warm-up load per variant, then `loads` each, alternating which goes first. */
export async function measure(browser: Browser, options: MeasureOptions, onLoad?: (r: LoadResult, i: number) => void): Promise<LoadResult[]> {
  await loadOnce(browser, 'engine', options, false);
  await loadOnce(browser, 'baseline', options, false);
  const results: LoadResult[] = [];
  for (let i = 0; i < options.loads; i++) {
    const order: Variant[] = i % 2 === 0 ? ['engine', 'baseline'] : ['baseline', 'engine'];
    for (const variant of order) {
      const r = await loadOnce(browser, variant, options, i < options.keystrokeLoads);
      results.push(r);
      onLoad?.(r, i);
    }
  }
  return results;
}
