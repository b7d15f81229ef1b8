/**
 * Looks at a screen as a user would: logs a demo account in on a running portal, opens a route
 * and saves a Chromium screenshot (1366x768 unless told otherwise).
 *
 *   npx tsx scripts/screenshot.ts http://127.0.0.1:8080 nbadmin /equipment/query-timeout /tmp/timeout.png [width height]
 */
import { launchBrowser } from '../tests/e2e/support/browser';
import { account, logIn } from '../tests/e2e/support/shell';

const [base, who, path, out, width, height] = process.argv.slice(2);
if (!base || !who || !path || !out) {
  console.error('usage: tsx scripts/screenshot.ts <baseURL> <account> <route> <out.png> [width height]');
  process.exit(2);
}
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width: Number(width ?? 1366), height: Number(height ?? 768) }, locale: 'zh-CN' })).newPage();
  page.setDefaultTimeout(30_000);
  await logIn(page, base, account(who));
  await page.waitForURL((url) => !url.pathname.includes('/login'));
  await page.goto(base + path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  await page.screenshot({ path: out });
  console.log(`${out}: ${who} at ${path}`);
} finally {
  await browser.close();
}
