/**
 * A password someone else set (the operator's `npm run admin`): the account must change it at its
 * next login. `sys_user.password_must_change` is set with such a password and cleared by the
 * user's own change (routes/user.ts updatePwd); while it is set the login answer reports
 * `passwordMustChange` and the server refuses every call but the password change (plugins/rbac.ts).
 * The session lookup reads the column, so the session-epoch trigger of sys_user (migration 0014)
 * watches it too: an operator's reset restricts a live session on its next request.
 */
import { sql, type Kysely } from 'kysely';

const WATCHED_BEFORE = 'unit_id, login_name, name, is_user_seed, basic_unit_flag, office_id, status, password_hash';

async function userEpochTrigger(db: Kysely<unknown>, columns: string): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS sys_user_session_epoch ON sys_user`.execute(db);
  await sql
    .raw(
      `CREATE CONSTRAINT TRIGGER sys_user_session_epoch AFTER UPDATE OF ${columns} OR DELETE ON sys_user DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sys_bump_session_epoch()`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sys_user ADD COLUMN password_must_change boolean NOT NULL DEFAULT false`.execute(db);
  await userEpochTrigger(db, `${WATCHED_BEFORE}, password_must_change`);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await userEpochTrigger(db, WATCHED_BEFORE);
  await sql`ALTER TABLE sys_user DROP COLUMN IF EXISTS password_must_change`.execute(db);
}
