/**
 * The password policy (migration 0020): every password set for an existing account — the user's
 * own change, an operator's reset (`npm run admin`), an approved reset application — goes through
 * storePassword, which keeps the outgoing hash in sys_password_history and stamps
 * password_changed_at. A new account's row starts with password_changed_at = now (the column's
 * default) and no history.
 *
 * - PORTAL_PASSWORD_HISTORY (N): the user's own change may not pick any of the last N passwords,
 *   the current one included (recentPasswordMatch);
 * - PORTAL_PASSWORD_MAX_AGE_DAYS: a password older than that must be changed before anything else,
 *   as one an administrator set (passwordChangeReason; plugins/rbac.ts refuses the other calls).
 */
import type { Db } from '../db/index';
import { AppError } from '../errors';
import { passwordHasher } from './password';

/** Why an account must change its password before anything else. */
export type PasswordChangeReason = 'administrator' | 'expired';

const DAY_MS = 86_400_000;

export function passwordChangeReason(
  user: { password_must_change: boolean; password_changed_at: Date },
  maxAgeDays: number,
  now = new Date(),
): PasswordChangeReason | null {
  if (user.password_must_change) return 'administrator';
  if (maxAgeDays > 0 && now.getTime() - user.password_changed_at.getTime() > maxAgeDays * DAY_MS) return 'expired';
  return null;
}

/** The refusal of every call but the password change, naming the reason. */
export function passwordChangeRequired(reason: PasswordChangeReason, maxAgeDays: number): AppError {
  return reason === 'expired'
    ? new AppError('PASSWORD_EXPIRED', `密码已超过 ${maxAgeDays} 天未修改，请修改密码后继续使用`, { days: maxAgeDays })
    : new AppError('PASSWORD_MUST_CHANGE');
}

/**
 * Refuses `password` when it is the current one or one of the `count - 1` before it (PASSWORD_REUSED,
 * naming `count`). No check when `count` is 0.
 */
export async function refuseRecentPassword(db: Db, userId: string, password: string, count: number): Promise<void> {
  if (count <= 0) return;
  const current = await db.selectFrom('sys_user').select('password_hash').where('id', '=', userId).executeTakeFirstOrThrow();
  const earlier =
    count > 1
      ? await db
          .selectFrom('sys_password_history')
          .select('password_hash')
          .where('user_id', '=', userId)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(count - 1)
          .execute()
      : [];
  const hashes = [current.password_hash, ...earlier.map((r) => r.password_hash)];
  const matches = await Promise.all(hashes.map((hash) => passwordHasher.verify(password, hash)));
  if (matches.some(Boolean)) throw new AppError('PASSWORD_REUSED', `新密码不能与最近 ${count} 次使用过的密码相同`, { count });
}

export interface StoredPassword {
  /** Sets password_must_change (true: someone else chose it); undefined leaves it as it is. */
  mustChange?: boolean;
  /** Earlier passwords kept (PORTAL_PASSWORD_HISTORY − 1); undefined keeps them all until the owner's next change. */
  keepEarlier?: number;
  now?: Date;
}

/**
 * Makes `passwordHash` the account's password: the outgoing hash goes to the history (dated when it
 * was set), password_changed_at becomes now. Run it in the transaction that ends the account's
 * sessions. The caller resets failure counts and ends sessions as its case needs.
 */
export async function storePassword(db: Db, userId: string, passwordHash: string, options: StoredPassword = {}): Promise<void> {
  const now = options.now ?? new Date();
  await db
    .insertInto('sys_password_history')
    .columns(['user_id', 'password_hash', 'created_at'])
    .expression((eb) => eb.selectFrom('sys_user').select(['id', 'password_hash', 'password_changed_at']).where('id', '=', userId))
    .execute();
  await db
    .updateTable('sys_user')
    .set({
      password_hash: passwordHash,
      password_changed_at: now,
      updated_at: now,
      ...(options.mustChange === undefined ? {} : { password_must_change: options.mustChange }),
    })
    .where('id', '=', userId)
    .execute();
  if (options.keepEarlier !== undefined) {
    const kept = db
      .selectFrom('sys_password_history')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(Math.max(0, options.keepEarlier));
    await db.deleteFrom('sys_password_history').where('user_id', '=', userId).where('id', 'not in', kept).execute();
  }
}
