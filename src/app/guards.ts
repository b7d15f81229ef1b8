/**
 * Navigation rules of the original portal, as route loaders (they run before a route renders):
 * sign-in routes with a token go home; shell routes need a token (else login, or the SSO entry
 * for a browser that never logged in), a loaded profile (else clear + login) and access (else 401).
 */
import { redirect, type LoaderFunctionArgs } from 'react-router-dom';
import { canAccess } from './access';
import { ensureProfile } from './auth';
import { loadAppConfig } from './config';
import { homePathFor } from './home';
import type { RouteEntry } from './menu';
import { HOME_PATH, LOGIN_PATH, SIGN_IN_ROUTES } from './routes';
import { accessSubject, session } from './session';

/** Where the login page returns to after success (only same-app paths). */
export function safeRedirectTarget(value: string | null): string | null {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : null;
}

function loginRedirect(request: Request): Response {
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  return redirect(back === HOME_PATH || back === '/' ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(back)}`);
}

export function publicLoader(entry: RouteEntry) {
  return () => {
    if (SIGN_IN_ROUTES.has(entry.name) && session.get().token) return redirect(HOME_PATH);
    return null;
  };
}

export function shellLoader(entry: RouteEntry) {
  return async ({ request }: LoaderFunctionArgs) => {
    if (!session.get().token) {
      const { ssoEntryUrl } = await loadAppConfig();
      if (ssoEntryUrl && !session.hasLoggedInBefore()) return redirect(ssoEntryUrl);
      return loginRedirect(request);
    }
    try {
      await ensureProfile();
    } catch {
      session.clear();
      return loginRedirect(request);
    }
    if (!canAccess(entry, accessSubject())) return redirect('/401');
    // The authority role's home is its first menu entry, not the work desktop.
    if (entry.fullPath === HOME_PATH) {
      const home = homePathFor(session.get());
      if (home !== HOME_PATH) return redirect(home);
    }
    return null;
  };
}
