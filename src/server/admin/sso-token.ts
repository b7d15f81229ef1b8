/**
 * `npm run admin -- sso-token`: a short-lived single sign-on token for an existing, enabled account,
 * signed with the server's SSO secret (services/sso.ts) as an identity provider would sign it. A
 * script logs in with it (POST /a/login, field `ssotoken`) without the captcha; whoever runs the
 * tool already holds the database, so the token gives nothing it could not take.
 */
import type { Config } from '../config';
import type { Db } from '../db/index';
import { loadServerKeys } from '../services/server-keys';
import { signSsoToken } from '../services/sso';
import { AdminError } from './errors';

export async function issueSsoToken(db: Db, config: Pick<Config, 'crypto' | 'masterKey'>, loginName: string, minutes: number): Promise<string> {
  const user = await db.selectFrom('sys_user').select(['id', 'status']).where('login_name', '=', loginName).executeTakeFirst();
  if (!user) throw new AdminError(`没有登录账号 ${loginName}`, `No account ${loginName}`);
  // status '0' is enabled, '2' disabled (accounts.ts).
  if (user.status !== '0') throw new AdminError(`账号 ${loginName} 已停用，不能签发令牌`, `${loginName} is disabled: no token`);
  const keys = await loadServerKeys(db, config);
  return signSsoToken(keys.ssoSecret, loginName, minutes * 60);
}
