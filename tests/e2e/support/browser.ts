/** Launches Debian's Chromium through playwright-core (Playwright's own browser download does not work here). */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser with one desktop-sized zh-CN page, as the journeys use it. */
export async function openPage(): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' })).newPage();
  // Generous: a wait ends as soon as its condition holds; only a real failure takes this long, and a
  // busy 2-core CI machine has been seen needing more than 15–20 s for one list refresh.
  page.setDefaultTimeout(45_000);
  // A form with unsaved input asks before the page unloads; the journeys answer "leave", as a
  // person who meant to navigate would (a test can add its own listener to look at the question).
  page.on('dialog', (dialog) => {
    if (dialog.type() === 'beforeunload') void dialog.accept();
  });
  return { browser, page };
}
