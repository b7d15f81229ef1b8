/**
 * Transferred bytes of a first visit, as Chromium receives them (compressed bodies, no cache): the
 * login page, then the first shell page a demo account lands on after signing in. Used by the
 * first-load budget test (tests/e2e/first-load.test.ts) and by `npm run bench:first-load`.
 */
import type { Page, Request } from 'playwright-core';
import { openPage } from './browser';
import { account, logIn } from './shell';

/** The first-load goals, in transferred bytes of JavaScript. */
export const FIRST_LOAD_BUDGET = { login: 250_000, loginAndShell: 700_000 };

export interface Transfer {
  /** Bytes of JavaScript bodies as transferred (after content encoding). */
  js: number;
  /** Bytes of CSS bodies as transferred. */
  css: number;
  /** All response bodies as transferred (HTML, JS, CSS, API, images). */
  all: number;
  /** Each script: path, transferred bytes, content encoding. */
  scripts: { path: string; bytes: number; encoding: string }[];
}

export interface FirstLoad {
  login: Transfer;
  /** What the sign-in and the first shell page added after the login page. */
  shell: Transfer;
}

const empty = (): Transfer => ({ js: 0, css: 0, all: 0, scripts: [] });

/**
 * Records every finished request of `page` into the transfer that `current()` names at the time.
 * `settled` waits for the measurements so far; after `stop` (before the browser closes) late
 * requests of a page still loading are neither measured nor reported as errors.
 */
function recorder(page: Page, current: () => Transfer): { settled: () => Promise<void>; stop: () => void } {
  const pending: Promise<void>[] = [];
  let stopped = false;
  const measure = async (request: Request, into: Transfer) => {
    const response = await request.response();
    if (!response) return;
    const sizes = await request.sizes();
    const headers = await response.allHeaders();
    const type = headers['content-type'] ?? '';
    const bytes = sizes.responseBodySize;
    into.all += bytes;
    if (/javascript/.test(type)) {
      into.js += bytes;
      into.scripts.push({ path: new URL(request.url()).pathname, bytes, encoding: headers['content-encoding'] ?? 'identity' });
    } else if (/text\/css/.test(type)) into.css += bytes;
  };
  const onFinished = (request: Request) => {
    if (stopped) return;
    pending.push(
      measure(request, current()).catch((err: unknown) => {
        if (!stopped) throw err;
      }),
    );
  };
  page.on('requestfinished', onFinished);
  return {
    settled: async () => {
      await Promise.all(pending);
    },
    stop: () => {
      stopped = true;
      page.off('requestfinished', onFinished);
    },
  };
}

/** Opens /login in a fresh browser, then signs `loginName` in and waits for the shell's home page. */
export async function measureFirstLoad(baseURL: string, loginName = 'nbadmin'): Promise<FirstLoad> {
  const { browser, page } = await openPage();
  const result: FirstLoad = { login: empty(), shell: empty() };
  let phase: Transfer = result.login;
  const { settled, stop } = recorder(page, () => phase);
  try {
    await page.goto(`${baseURL}/login`, { waitUntil: 'networkidle' });
    await page.getByPlaceholder('账号').waitFor();
    phase = result.shell;
    await logIn(page, baseURL, account(loginName));
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.locator('.shell-menu').waitFor();
    await page.waitForLoadState('networkidle');
    await settled();
    return result;
  } finally {
    stop();
    await browser.close();
  }
}
