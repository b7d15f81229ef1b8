/** Minimal document.cookie helpers (remembered account, the login's cookie, browser-close clearing). */

export function readCookie(name: string): string | null {
  const prefix = `${encodeURIComponent(name)}=`;
  const found = document.cookie.split('; ').find((c) => c.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : null;
}

export function writeCookie(name: string, value: string, days: number): void {
  writeCookieUntil(name, value, new Date(Date.now() + days * 86_400_000));
}

/** A cookie that ends at `expires` (Secure on an https page). */
export function writeCookieUntil(name: string, value: string, expires: Date): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value)}; expires=${expires.toUTCString()}; path=/; SameSite=Lax${secure}`;
}

export function removeCookie(name: string): void {
  document.cookie = `${encodeURIComponent(name)}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
}

/** Expires every cookie script can see, on this path and on the paths above it. */
export function clearAllCookies(): void {
  const segments = window.location.pathname.split('/').filter(Boolean);
  const paths = ['/', ...segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`), __API_BASE__];
  for (const cookie of document.cookie.split('; ')) {
    const name = cookie.split('=')[0];
    if (!name) continue;
    for (const path of paths) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=${path}`;
  }
}
