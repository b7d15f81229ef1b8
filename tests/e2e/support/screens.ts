/** The menu screens a signed-in page's user can open: what the screen audit and the accessibility audit walk. */
import type { Page } from 'playwright-core';
import menuJson from '../../../schemas/menu.json';
import { canAccess } from '../../../src/app/access';
import { flattenRoutes, type MenuNode, type RouteEntry } from '../../../src/app/menu';

/**
 * Every menu entry the signed-in user sees, by the menu ids of the session: no hidden entries, no
 * routes with parameters, and not the screen playground (/dev/, the analysts' tool with its own e2e).
 */
export async function menuScreens(page: Page): Promise<RouteEntry[]> {
  const subject = await page.evaluate(() => ({
    menuIds: JSON.parse(sessionStorage.getItem('portal.menuIds') ?? '[]') as string[],
    isUserSeed: sessionStorage.getItem('portal.isUserSeed') === '1',
  }));
  const access = { menuIds: new Set(subject.menuIds), isUserSeed: subject.isUserSeed };
  return flattenRoutes(menuJson.routes as unknown as MenuNode[]).filter(
    (r) => !r.hideInMenu && !r.fullPath.includes(':') && !r.fullPath.startsWith('/dev/') && canAccess(r, access),
  );
}

/**
 * Starts listening for the page's requests; `settled()` resolves once none has been in flight for
 * `quietMs` and the page's main thread has had an idle moment with no new request after it.
 * Playwright's 'networkidle' asks for 500 ms of quiet, which the screen audit paid on each of its
 * ~400 screens. A screen asks for its data as soon as its code has run, so the idle moment (the
 * code has run) plus a short quiet spell says the same, also when a busy machine delays the code.
 */
function networkWatch(page: Page, quietMs = 100): { settled(): Promise<void> } {
  const inFlight = new Set<unknown>();
  let changed = Date.now();
  const start = (request: unknown) => {
    inFlight.add(request);
    changed = Date.now();
  };
  const end = (request: unknown) => {
    inFlight.delete(request);
    changed = Date.now();
  };
  page.on('request', start);
  page.on('requestfinished', end);
  page.on('requestfailed', end);
  return {
    async settled() {
      try {
        for (;;) {
          while (inFlight.size > 0 || Date.now() - changed < quietMs) await page.waitForTimeout(25);
          const mark = changed;
          await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve(), { timeout: 2_000 })));
          if (changed === mark && inFlight.size === 0) return;
        }
      } finally {
        page.off('request', start);
        page.off('requestfinished', end);
        page.off('requestfailed', end);
      }
    },
  };
}

/** Opens a screen by its address and waits until it has settled (a list's first page arrived). */
export async function openScreen(page: Page, baseURL: string, fullPath: string): Promise<void> {
  const network = networkWatch(page);
  await page.goto(`${baseURL}${fullPath}`);
  await page.locator('.shell__content').waitFor();
  await network.settled();
  await page
    .locator('.ant-spin-spinning')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}
