/**
 * Pictures of screens as the demo roles see them: a real server on a fresh data directory with the
 * demo data (tests/support/server.ts, as the tests start it), each demo role signed in once through
 * the login page, each route it may open shot full-page at 1366×768 in headless Chromium.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { canAccess, type AccessSubject } from '../../src/app/access';
import { DEMO_ACCOUNTS, type DemoAccount } from '../../src/server/db/seed';
import { API, type Envelope, type Role } from '../../src/shared/contract';
import { apiCall, loginOverHttp } from '../../tests/e2e/support/api';
import { launchBrowser } from '../../tests/e2e/support/browser';
import { openScreen } from '../../tests/e2e/support/screens';
import { logIn } from '../../tests/e2e/support/shell';
import type { StartedServer } from '../../tests/support/server';
import type { AffectedScreen, ScreenRoute } from './affected';

/** A demo role: the first demo account that has it, and what it may open. */
export interface DemoRole {
  account: DemoAccount;
  roleName: string;
  subject: AccessSubject;
}

export interface Shot {
  screen: string;
  route: string;
  /** The address opened (the route with a record id where the screen needs one). */
  address: string;
  /** The demo role, or null for a public route (no login). */
  role: DemoRole | null;
  /** The PNG, relative to the output directory; undefined when the shot failed. */
  png?: string;
  /** What went wrong or what to know (no record to show, a timeout). */
  note?: string;
}

/** What a screen shows once it has settled: list rows or the empty state, form fields, a detail's items, charts. */
const SETTLED = '.ant-table-row, .ant-empty, .ant-form-item, .ant-descriptions, .ant-card, .ant-result';

/**
 * The demo roles, one account each (the first in the demo list), with the menu ids of the role it signs in with.
 * An account that cannot sign in with its demo password (someone on this server changed it, as the weak-password
 * account is made to) is skipped with a line in the log: its role is still shot as another account that has it.
 */
export async function demoRoles(baseURL: string, log: (line: string) => void = () => undefined): Promise<DemoRole[]> {
  const api = `${baseURL}/espServer`;
  const roles = new Map<string, DemoRole>();
  for (const account of DEMO_ACCOUNTS) {
    let sid: string;
    try {
      sid = await loginOverHttp(api, account);
    } catch (err) {
      log(`  skipped ${account.loginName}: ${(err as Error).message}`);
      continue;
    }
    const reply = (await (await fetch(`${api}${API.userInfo}?__sid=${encodeURIComponent(sid)}`)).json()) as Envelope<{
      user: { isUserSeed: number; currentRole: { id: string } | null };
      roleList: Role[];
    }>;
    const info = reply.data;
    if (!info) throw new Error(`user info of ${account.loginName}: ${reply.message}`);
    const role = info.roleList.find((r) => r.id === info.user.currentRole?.id) ?? info.roleList[0];
    if (!role) continue;
    const key = `${role.id}:${info.user.isUserSeed}`;
    if (!roles.has(key))
      roles.set(key, { account, roleName: role.name, subject: { menuIds: new Set(role.menuIdList), isUserSeed: info.user.isUserSeed === 1 } });
  }
  return [...roles.values()];
}

export interface ScreenFacts {
  resource?: string;
  modes?: readonly string[];
  single?: boolean;
}

/** Whether the screen needs a record to show: a detail (unless single), a document, a form that cannot add. */
function needsRecord(kind: AffectedScreen['kind'], { modes, single }: ScreenFacts): boolean {
  if (kind === 'detail') return !single;
  if (kind === 'document') return true;
  if (kind === 'form' || kind === 'wizard') return modes !== undefined && !modes.includes('add');
  return false;
}

/** The first record of `resource` the signed-in page's user can list, or undefined. */
async function firstRecord(page: Page, resource: string): Promise<string | undefined> {
  const data = await apiCall<{ list?: { id: string }[] }>(page, `/r/${resource}/list`, { pageNo: 1, pageSize: 1 }).catch(() => undefined);
  return data?.list?.[0]?.id;
}

async function shoot(page: Page, baseURL: string, address: string, out: string, signedIn: boolean): Promise<string | undefined> {
  if (signedIn) {
    // Each picture with only its own tab: forget the tabs of the pictures before (the shell keeps them in localStorage).
    await page.evaluate(() => localStorage.removeItem('portal.tabs'));
    await openScreen(page, baseURL, address);
  } else {
    await page.goto(`${baseURL}${address}`);
    await page.waitForLoadState('networkidle');
  }
  const settled = await page
    .locator(SETTLED)
    .first()
    .waitFor({ timeout: 30_000 })
    .then(
      () => undefined,
      () => 'the screen showed no rows, empty state or fields within 30 s',
    );
  // Let antd's entrance animations finish.
  await page.waitForTimeout(500);
  // The shell scrolls its content in a box of the window's height, so a full-page shot alone stops at
  // 768 px: make the window as tall as the longest scrolling box needs, shoot, and give the height back.
  const viewport = page.viewportSize() ?? { width: 1366, height: 768 };
  const height = await page.evaluate(() => {
    let needed = document.documentElement.scrollHeight;
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (el.scrollHeight > el.clientHeight + 1 && /auto|scroll/.test(getComputedStyle(el).overflowY))
        needed = Math.max(needed, window.innerHeight + el.scrollHeight - el.clientHeight);
    }
    return needed;
  });
  if (height > viewport.height) {
    await page.setViewportSize({ width: viewport.width, height: Math.min(height, 12_000) });
    await page.waitForTimeout(300);
  }
  await page.screenshot({ path: out, fullPage: true });
  if (height > viewport.height) await page.setViewportSize(viewport);
  return settled;
}

const fileName = (screen: string, who: string) => `${screen}--${who}.png`.replace(/[^\w.-]+/g, '_');

/**
 * Shoots every route of every screen as every demo role that may open it (public routes once,
 * signed out) into `outDir`. `facts` gives each screen's resource and modes (for a record id).
 */
export async function renderScreens(
  server: Pick<StartedServer, 'baseURL'>,
  screens: readonly AffectedScreen[],
  facts: ReadonlyMap<string, ScreenFacts>,
  outDir: string,
  log: (line: string) => void,
): Promise<Shot[]> {
  const { baseURL } = server;
  const roles = await demoRoles(baseURL, log);
  const shots: Shot[] = [];
  const browser: Browser = await launchBrowser();
  try {
    const newPage = async () => {
      const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 }, locale: 'zh-CN' })).newPage();
      page.setDefaultTimeout(45_000);
      page.on('dialog', (dialog) => void dialog.accept());
      return page;
    };
    const take = async (page: Page, screen: AffectedScreen, route: ScreenRoute, role: DemoRole | null) => {
      const fact = facts.get(screen.id) ?? {};
      let address = route.fullPath;
      let note: string | undefined;
      if (needsRecord(screen.kind, fact)) {
        const id = fact.resource ? await firstRecord(page, fact.resource) : undefined;
        if (id) {
          const mode = screen.kind === 'form' || screen.kind === 'wizard' ? (fact.modes?.includes('view') ? 'view' : 'edit') : undefined;
          const query = new URLSearchParams(mode ? { mode } : {});
          // A detail's `:id` is its own record's; a form's (a prefill from another resource) is left for the note below.
          if (address.includes(':id') && screen.kind !== 'form' && screen.kind !== 'wizard') address = address.replace(':id', encodeURIComponent(id));
          else query.set('id', id);
          address = `${address}${query.size ? `?${query}` : ''}`;
        } else note = `no record of ${fact.resource ?? 'its resource'} to show`;
      }
      if (address.includes('/:')) {
        shots.push({ screen: screen.id, route: route.fullPath, address, role, note: 'the route takes a parameter the tool cannot fill' });
        return;
      }
      const png = fileName(screen.id, role?.account.loginName ?? 'public');
      const started = Date.now();
      try {
        const problem = await shoot(page, baseURL, address, join(outDir, png), role !== null);
        shots.push({ screen: screen.id, route: route.fullPath, address, role, png, note: [note, problem].filter(Boolean).join('; ') || undefined });
      } catch (err) {
        shots.push({ screen: screen.id, route: route.fullPath, address, role, note: `failed: ${(err as Error).message.split('\n')[0]}` });
      }
      log(`  ${screen.id} as ${role ? role.account.loginName : 'a visitor'} at ${address} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    };

    for (const role of roles) {
      const targets = screens.flatMap((screen) => screen.routes.filter((r) => !r.isPublic && canAccess(r, role.subject)).map((route) => ({ screen, route })));
      if (targets.length === 0) continue;
      const page = await newPage();
      await logIn(page, baseURL, role.account);
      await page.waitForURL((url) => !url.pathname.startsWith('/login'));
      for (const { screen, route } of targets) await take(page, screen, route, role);
      await page.context().close();
    }
    const visitor = screens.flatMap((screen) => screen.routes.filter((r) => r.isPublic).map((route) => ({ screen, route })));
    if (visitor.length > 0) {
      const page = await newPage();
      for (const { screen, route } of visitor) await take(page, screen, route, null);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
  return shots;
}
