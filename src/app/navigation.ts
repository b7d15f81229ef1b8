/**
 * The router for code outside React components (the api client on a 401, logout) and for checks
 * that must see where the router already is, ahead of what React has rendered. The router
 * registers itself at start-up; until then a full page load is used.
 */
interface BoundRouter {
  navigate: (to: string, options?: { replace?: boolean }) => unknown;
  state: { location: { pathname: string } };
}

let router: BoundRouter | null = null;

export function bindRouter(instance: BoundRouter): void {
  router = instance;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (router) void router.navigate(to, options);
  else if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
}

/** The router's current pathname (may be ahead of the rendered one during a transition). */
export function routerPathname(): string {
  return router?.state.location.pathname ?? window.location.pathname;
}

/** Leaves the app for an external address (SSO pages). */
export function leaveTo(url: string): void {
  window.location.assign(url);
}
