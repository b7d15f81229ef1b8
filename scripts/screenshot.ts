/**
 * Looks at a screen as a user would: logs a demo account in on a running portal, opens a route
 * and saves a Chromium screenshot (1366x768 unless told otherwise).
 *
 *   npx tsx scripts/screenshot.ts http://127.0.0.1:8080 nbadmin /equipment/query-timeout /tmp/timeout.png [--width W --height H]
 */
import { parseCommandLine } from '../src/server/command-line.mjs';

const { values, positionals } = parseCommandLine({
  name: 'npx tsx scripts/screenshot.ts',
  summary: ['Logs a demo account in on a running portal, opens a route and saves a Chromium screenshot.'],
  options: {
    width: { type: 'string', value: 'px', number: 'positive', description: 'viewport width (default 1366)' },
    height: { type: 'string', value: 'px', number: 'positive', description: 'viewport height (default 768)' },
  },
  positionals: [
    { name: 'baseURL', description: 'the running portal, e.g. http://127.0.0.1:8080', required: true },
    { name: 'account', description: "a demo account's login name (nbadmin, …)", required: true },
    { name: 'route', description: 'the route to open, e.g. /equipment/query', required: true },
    { name: 'out.png', description: 'the screenshot file', required: true },
  ],
  examples: ['npx tsx scripts/screenshot.ts http://127.0.0.1:8080 nbadmin /equipment/query-timeout /tmp/timeout.png --width 1920'],
});
const [base, who, path, out] = positionals;
const [width, height] = [values.width, values.height].map((v) => (typeof v === 'string' ? Number(v) : undefined));
// Playwright and the e2e helpers load once the command line is understood.
const [{ launchBrowser }, { account, logIn }] = await Promise.all([import('../tests/e2e/support/browser'), import('../tests/e2e/support/shell')]);
const browser = await launchBrowser();
try {
  const page = await (await browser.newContext({ viewport: { width: width ?? 1366, height: height ?? 768 }, locale: 'zh-CN' })).newPage();
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
