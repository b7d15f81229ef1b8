/**
 * The top progress bar of a navigation (nprogress): it runs from the moment a route is asked for
 * until its code has arrived and its first data have loaded. What keeps it running is counted:
 * the router's loaders (RootLayout), a page's code still downloading (PageHost's fallback), and
 * the reads that go out while the new page settles (the api client, SWR: App.tsx). It ends once nothing is
 * pending for a moment; requests made later (a save, a search) leave it alone.
 */
type NProgress = typeof import('nprogress');

/** How long nothing may be pending before the bar ends: a page's next read starts in an effect after it has rendered the last one. */
const SETTLE_MS = 300;

/** The bar's code, loaded by the first navigation: a page that is only shown (login) does not download it. */
let bar: Promise<NProgress> | null = null;
const loadBar = (): Promise<NProgress> =>
  (bar ??= import('nprogress').then(({ default: nprogress }) => {
    // nprogress's own template gives the bar role="bar", which is no ARIA role: the bar is decoration,
    // found by its class instead (barSelector must follow the template, or nprogress finds no bar).
    nprogress.configure({ showSpinner: false, barSelector: '.bar', template: '<div class="bar" aria-hidden="true"><div class="peg"></div></div>' });
    return nprogress;
  }));

let pending = 0;
/** A navigation is settling: requests count until the bar ends. */
let settling = false;
let settleTimer: ReturnType<typeof setTimeout> | undefined;

function finish(): void {
  settleTimer = undefined;
  if (pending > 0) return;
  settling = false;
  // Callbacks on one promise run in order: a start is never overtaken by the done after it.
  if (bar) void bar.then((nprogress) => nprogress.done());
}

/** Something the new page waits for has started; returns its end (call once). */
export function hold(): () => void {
  if (settleTimer !== undefined) clearTimeout(settleTimer);
  settleTimer = undefined;
  if (!settling) {
    settling = true;
    void loadBar().then((nprogress) => nprogress.start());
  }
  pending += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    pending -= 1;
    if (pending === 0) settleTimer = setTimeout(finish, SETTLE_MS);
  };
}

/** A request of the client: it holds the bar while a navigation settles, else it is not shown. */
export function trackRequest<T>(request: Promise<T>): Promise<T> {
  if (!settling) return request;
  const release = hold();
  return request.finally(release);
}

/** A route was asked for (a new address): the bar starts and waits for what the page loads first. */
export function navigationStarted(): void {
  hold()();
}
