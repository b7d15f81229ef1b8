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

/** Opens a screen by its address and waits until it has settled (a list's first page arrived). */
export async function openScreen(page: Page, baseURL: string, fullPath: string): Promise<void> {
  await page.goto(`${baseURL}${fullPath}`);
  await page.waitForLoadState('networkidle');
  await page.locator('.shell__content').waitFor();
  await page
    .locator('.ant-spin-spinning')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}
