/**
 * Session actions over the api module: login (password and SSO variants), profile load, role
 * switch, profile and password updates, logout. Components call these; they update the store.
 */
import { API, type ChangeRoleResult, type LoginResult, type PublicKeyInfo, type UnitInfo, type UserInfo, type UserInfoResult } from '../shared/contract';
import { get, post, postForm } from './api';
import { loadAppConfig } from './config';
import { fieldEncrypter } from './crypto';
import { session } from './session';

/** Stores a login: the session, and its cookie for the configured hours. */
async function signIn(result: LoginResult): Promise<LoginResult> {
  const { cookieExpiresHours } = await loadAppConfig();
  session.signIn(result, cookieExpiresHours);
  return result;
}

export interface PasswordLogin {
  username: string;
  password: string;
  orgCode: string;
  validateCode?: string;
}

/** Encrypts the three fields separately and posts the login form (errors are left to the form). */
export async function loginWithPassword(form: PasswordLogin): Promise<LoginResult> {
  const encrypt = await fieldEncrypter(await get<PublicKeyInfo>(API.publicKey, { silent: true }));
  const [username, password, orgCode] = await Promise.all([form.username.trim(), form.password, form.orgCode.trim()].map(encrypt));
  const result = await postForm<LoginResult>(
    API.login,
    { username, password, orgCode, validateCode: form.validateCode ?? '', ynUserSeedLogin: '0', __ajax: 'true' },
    { silent: true },
  );
  return signIn(result);
}

/** /ssologin and /onlyLogin: the `ssotoken` handed over by the identity provider. */
export async function loginWithSsoToken(ssotoken: string): Promise<LoginResult> {
  const result = await postForm<LoginResult>(API.login, { ssotoken, validateCode: '', __ajax: 'true' }, { silent: true });
  return signIn(result);
}

/** /ynSsologin and /ynbsc: the regional identity provider's request info and token. */
export async function loginWithRegionalSso(reqInfoBase64Str: string, ynSsoToken: string): Promise<LoginResult> {
  const result = await postForm<LoginResult>(API.login, { reqInfoBase64Str, ynSsoToken, loginType: 'PC', __ajax: 'true' }, { silent: true });
  return signIn(result);
}

let profileRequest: Promise<void> | null = null;

/** Loads user info once per page life (guards call it before the first shell route). */
export function ensureProfile(): Promise<void> {
  if (session.get().user) return Promise.resolve();
  profileRequest ??= get<UserInfoResult>(API.userInfo, { silent: true })
    .then(async (info) => {
      session.setProfile(info);
      const { role } = session.get();
      // Keep the server's session role in step with the stored one (e.g. after a reload).
      if (role && role.id !== info.user.currentRole?.id) await changeRole(role.id, { silent: true });
    })
    .finally(() => (profileRequest = null));
  return profileRequest;
}

export async function changeRole(id: string, options?: { silent?: boolean }): Promise<ChangeRoleResult> {
  const result = await post<ChangeRoleResult>(API.changeRole, { id }, options);
  session.setRole(result.currentRole, result.menuIdList);
  return result;
}

export interface ProfileForm {
  name: string;
  identityCard?: string;
  phone?: string;
  mobile?: string;
}

export async function updateProfile(form: ProfileForm): Promise<UserInfo> {
  const user = await post<UserInfo>(API.updateInfo, form);
  session.setUser({ ...user, simplePwd: session.get().simplePwd });
  return user;
}

/** The server ends every session of the user on success; the caller sends them to login. */
export async function updatePassword(oldPassword: string, newPassword: string): Promise<void> {
  await post<null>(API.updatePwd, { oldPassword, newPassword });
  session.clear();
}

/** Company info (for ssoUserId), then the logout call; the session is cleared either way. */
export async function logout(): Promise<{ ssoUserId: string | null }> {
  const company = await get<UnitInfo & { ssoUserId?: string | null }>(API.companyInfo, { silent: true }).catch(() => null);
  await get<null>(API.logout, { silent: true }).catch(() => undefined);
  const ssoUserId = company?.ssoUserId ?? session.get().ssoUserId;
  session.clear();
  return { ssoUserId };
}
