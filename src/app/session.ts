/**
 * The session store (as in the original portal). Tokens, office id, seed-user and simple-password flags, the
 * current role and its menu access live in sessionStorage (they survive a reload, not a new
 * browser session); the user profile and role list are kept in memory and re-fetched after a
 * reload. Components read it with `useSession()`; everything else with `session.get()`.
 */
import { useSyncExternalStore } from 'react';
import type { LoginResult, Role, UserInfo, UserInfoResult } from '../shared/contract';
import { pickRole, type AccessSubject } from './access';
import { readCookie, removeCookie, writeCookieUntil } from './cookies';

export interface CurrentRole {
  id: string;
  name: string;
  roleType: string;
}

export type PasswordChangeReason = NonNullable<UserInfo['passwordChangeReason']>;

export interface SessionState {
  token: string | null;
  extendToken: string | null;
  officeId: string | null;
  isUserSeed: boolean;
  simplePwd: boolean;
  /** The password must change first: the server answers nothing but the change until it is made. */
  passwordMustChange: boolean;
  /** Why: an administrator set it, or it is older than the server's limit (null: not known or not forced). */
  passwordChangeReason: PasswordChangeReason | null;
  role: CurrentRole | null;
  menuIds: ReadonlySet<string>;
  /** Loaded profile; null until user info is fetched (after login or a reload). */
  user: UserInfo | null;
  roleList: readonly Role[];
  ssoUserId: string | null;
}

const KEY = {
  token: 'portal.token',
  extendToken: 'portal.extendToken',
  officeId: 'portal.officeId',
  isUserSeed: 'portal.isUserSeed',
  simplePwd: 'portal.simplePwd',
  passwordMustChange: 'portal.passwordMustChange',
  passwordChangeReason: 'portal.passwordChangeReason',
  role: 'portal.role',
  menuIds: 'portal.menuIds',
} as const;

/** localStorage flag: this browser has logged in at least once (the original portal's SSO entry rule). */
const HAS_LOGGED_IN_KEY = 'portal.hasLoggedIn';

/**
 * The login's cookie: the tokens for the hours the configuration says (appConfig
 * cookieExpiresHours), so a new tab or a browser opened again within them is still signed in.
 * Logout, a password change and an expired session remove it; closing the browser clears it with
 * every other cookie (browserClose.ts).
 */
const LOGIN_COOKIE = 'portal.login';

interface LoginCookie {
  token: string;
  extendToken: string | null;
}

function readLoginCookie(): LoginCookie | null {
  try {
    const raw = readCookie(LOGIN_COOKIE);
    const parsed = raw ? (JSON.parse(raw) as Partial<LoginCookie>) : null;
    return parsed && typeof parsed.token === 'string' && parsed.token
      ? { token: parsed.token, extendToken: typeof parsed.extendToken === 'string' ? parsed.extendToken : null }
      : null;
  } catch {
    return null;
  }
}

function readJson<T>(key: string, fallback: T): T {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: string | null): void {
  if (value === null) sessionStorage.removeItem(key);
  else sessionStorage.setItem(key, value);
}

function readReason(value: unknown): PasswordChangeReason | null {
  return value === 'administrator' || value === 'expired' ? value : null;
}

function load(): SessionState {
  const stored = sessionStorage.getItem(KEY.token);
  const remembered = stored ? null : readLoginCookie();
  return {
    token: stored ?? remembered?.token ?? null,
    extendToken: remembered ? remembered.extendToken : sessionStorage.getItem(KEY.extendToken),
    officeId: sessionStorage.getItem(KEY.officeId),
    isUserSeed: sessionStorage.getItem(KEY.isUserSeed) === '1',
    simplePwd: sessionStorage.getItem(KEY.simplePwd) === '1',
    passwordMustChange: sessionStorage.getItem(KEY.passwordMustChange) === '1',
    passwordChangeReason: readReason(sessionStorage.getItem(KEY.passwordChangeReason)),
    role: readJson<CurrentRole | null>(KEY.role, null),
    menuIds: new Set(readJson<string[]>(KEY.menuIds, [])),
    user: null,
    roleList: [],
    ssoUserId: null,
  };
}

let state: SessionState = load();
const listeners = new Set<() => void>();

function update(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  write(KEY.token, state.token);
  write(KEY.extendToken, state.extendToken);
  write(KEY.officeId, state.officeId);
  write(KEY.isUserSeed, state.isUserSeed ? '1' : null);
  write(KEY.simplePwd, state.simplePwd ? '1' : null);
  write(KEY.passwordMustChange, state.passwordMustChange ? '1' : null);
  write(KEY.passwordChangeReason, state.passwordChangeReason);
  write(KEY.role, state.role ? JSON.stringify(state.role) : null);
  write(KEY.menuIds, state.role ? JSON.stringify([...state.menuIds]) : null);
  listeners.forEach((l) => l());
}

function roleState(role: Role | null): Pick<SessionState, 'role' | 'menuIds'> {
  return {
    role: role ? { id: role.id, name: role.name, roleType: role.roleType } : null,
    menuIds: new Set(role?.menuIdList ?? []),
  };
}

function profileState(user: UserInfo, roleList: Role[]): Partial<SessionState> {
  const role = pickRole(roleList, state.role?.id, user.currentRole?.id);
  return {
    user,
    roleList,
    officeId: user.officeId ?? null,
    isUserSeed: user.isUserSeed === 1,
    simplePwd: state.simplePwd || user.simplePwd,
    passwordMustChange: user.passwordMustChange === true,
    passwordChangeReason: user.passwordMustChange === true ? (readReason(user.passwordChangeReason) ?? 'administrator') : null,
    ssoUserId: user.ssoUserId ?? null,
    ...roleState(role),
  };
}

export const session = {
  get: (): SessionState => state,

  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },

  /** After a successful POST /a/login; the login's cookie lives `cookieHours` (the configuration's cookieExpiresHours). */
  signIn(result: LoginResult, cookieHours: number): void {
    localStorage.setItem(HAS_LOGGED_IN_KEY, '1');
    const token = result.sessionid || result.sessionId;
    if (token && cookieHours > 0) {
      const cookie: LoginCookie = { token, extendToken: result.extendSessionId ?? null };
      writeCookieUntil(LOGIN_COOKIE, JSON.stringify(cookie), new Date(Date.now() + cookieHours * 3_600_000));
    }
    update({
      token: result.sessionid || result.sessionId,
      extendToken: result.extendSessionId,
      role: null,
      simplePwd: result.user.simplePwd,
      passwordMustChange: result.user.passwordMustChange === true,
    });
    update(profileState(result.user, result.roleList));
  },

  /** After GET /a/stone/user/info. */
  setProfile(info: UserInfoResult): void {
    update({ ...profileState(info.user, info.roleList), ssoUserId: info.userSsoInfo?.ssoUserId ?? info.user.ssoUserId ?? null });
  },

  setUser(user: UserInfo): void {
    update({ user });
  },

  setRole(role: CurrentRole, menuIdList: readonly string[]): void {
    update({ role, menuIds: new Set(menuIdList) });
  },

  /** Logout, password change, 401: drop tokens, role, access and profile. */
  clear(): void {
    removeCookie(LOGIN_COOKIE);
    update({
      token: null,
      extendToken: null,
      officeId: null,
      isUserSeed: false,
      simplePwd: false,
      passwordMustChange: false,
      passwordChangeReason: null,
      role: null,
      menuIds: new Set(),
      user: null,
      roleList: [],
      ssoUserId: null,
    });
  },

  hasLoggedInBefore: (): boolean => localStorage.getItem(HAS_LOGGED_IN_KEY) === '1',
};

export function accessSubject(s: SessionState = state): AccessSubject {
  return { menuIds: s.menuIds, isUserSeed: s.isUserSeed };
}

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get);
}
