/** The route entries of schemas/menu.json, computed once for the router and the shell. */
import menuJson from '../../schemas/menu.json';
import { flattenRoutes, type MenuFile, type RouteEntry } from './menu';

export const menuFile = menuJson as unknown as MenuFile;

/** `handle` of every leaf route: its menu entry (title, notCache, ...). */
export interface RouteHandle {
  entry: RouteEntry;
}

/** Routes without login and without the shell (login, SSO entries, error pages, ...). */
export const publicEntries: RouteEntry[] = flattenRoutes(menuFile.public);

/**
 * Routes inside the shell. An external link is a menu item opening a new window, and also a route:
 * opened by its address it shows a page leading to the link (or saying it is not configured).
 */
export const shellEntries: RouteEntry[] = flattenRoutes(menuFile.routes);

export const HOME_PATH = '/home';
export const LOGIN_PATH = '/login';

/**
 * Public routes that sign a user in: with a token they lead home instead (as in the original portal).
 *
 * `ynbsc` is among the route names the original portal opens to visitors, with nothing said about its page.
 * Its name puts it with the regional single-sign-on entry `ynSsologin` (the regional service hall's
 * way in), so schemas/menu.json routes it to the same page (YnSsoLogin): the regional
 * identity provider's `reqInfoBase64Str` + `ynSsoToken` sign the user in, and without them the page
 * says the credentials are missing and offers the password login. A 建设中 placeholder would strand
 * a visitor arriving from the region's portal on a page that can never do anything.
 */
export const SIGN_IN_ROUTES: ReadonlySet<string> = new Set(['login', 'onlyLogin', 'ssologin', 'ynSsologin', 'ynbsc']);

export const homeEntry: RouteEntry = shellEntries.find((e) => e.fullPath === HOME_PATH)!;
