/** The side menu and the home route of a session (SPEC.md §2, §6). */
import { AUTHORITY_ROLE_TYPE } from './access';
import { buildMenu, firstMenuPath, type MenuItem } from './menu';
import { HOME_PATH, menuFile } from './routes';
import { accessSubject, type SessionState } from './session';

const isAuthority = (s: SessionState) => s.role?.roleType === AUTHORITY_ROLE_TYPE;

/** The side menu; the authority role works without the unit's work desktop. */
export function menuFor(s: SessionState): MenuItem[] {
  const menu = buildMenu(menuFile.routes, accessSubject(s));
  return isAuthority(s) ? menu.filter((item) => item.key !== HOME_PATH) : menu;
}

/** The work desktop, or for the authority role type the first menu entry. */
export function homePathFor(s: SessionState, menu: readonly MenuItem[] = menuFor(s)): string {
  return (isAuthority(s) && firstMenuPath(menu)) || HOME_PATH;
}
