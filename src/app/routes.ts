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

/** Routes inside the shell, external links excluded (they are menu items, not routes). */
export const shellEntries: RouteEntry[] = flattenRoutes(menuFile.routes).filter((e) => !e.href);

export const HOME_PATH = '/home';
export const LOGIN_PATH = '/login';

/** Public routes that sign a user in: with a token they lead home instead (SPEC.md §2). */
export const SIGN_IN_ROUTES: ReadonlySet<string> = new Set(['login', 'onlyLogin', 'ssologin', 'ynSsologin']);

export const homeEntry: RouteEntry = shellEntries.find((e) => e.fullPath === HOME_PATH)!;
