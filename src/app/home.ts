/** The side menu and the home route of a session (as in the original portal). */
import { AUTHORITY_ROLE_TYPE } from './access';
import { buildMenu, firstMenuPath, type MenuItem } from './menu';
import { HOME_PATH, menuFile } from './routes';
import { accessSubject, type SessionState } from './session';

const isAuthority = (s: SessionState) => s.role?.roleType === AUTHORITY_ROLE_TYPE;

/**
 * The side menu. Every role has the work desktop first (for the authority it holds its audit
 * queues, GET /desk), so the authority's first menu entry is the desktop too.
 */
export function menuFor(s: SessionState): MenuItem[] {
  return buildMenu(menuFile.routes, accessSubject(s));
}

/** The work desktop, or for the authority role type the first menu entry (as in the original portal). */
export function homePathFor(s: SessionState, menu: readonly MenuItem[] = menuFor(s)): string {
  return (isAuthority(s) && firstMenuPath(menu)) || HOME_PATH;
}
