/**
 * The original portal's "browser close" rule: a reload fires beforeunload and unload far apart, closing the window
 * fires them back to back. An unload within 5 ms of beforeunload is taken as a close and clears
 * all cookies.
 */
import { clearAllCookies } from './cookies';

export const BROWSER_CLOSE_THRESHOLD_MS = 5;

export function installBrowserCloseRule(): void {
  let beforeUnloadAt = 0;
  window.addEventListener('beforeunload', () => {
    beforeUnloadAt = Date.now();
  });
  window.addEventListener('unload', () => {
    if (Date.now() - beforeUnloadAt <= BROWSER_CLOSE_THRESHOLD_MS) clearAllCookies();
  });
}
