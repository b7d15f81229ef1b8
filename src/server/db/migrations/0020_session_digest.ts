/**
 * Session tokens at rest, and the password policy.
 *
 * - `sys_session.id` and `extend_id` hold the digest of the token the browser holds
 *   (services/crypto-suite.ts tokenDigest: SHA-256, or SM3 with PORTAL_CRYPTO=sm), never the token:
 *   a copy of the table opens no session. Existing rows are rewritten here with the SHA-256 digest
 *   of their id, so sessions open before the upgrade go on working in the standard mode (in the sm
 *   mode they no longer match and simply end, as on any switch of PORTAL_CRYPTO). The columns grow
 *   to 64 characters (a hex digest); no table refers to sys_session.
 * - `sys_session_end`: the digests of sessions ended by a newer login of their account (one session
 *   per account, PORTAL_SINGLE_SESSION), with the reason, so their next request is told why; kept
 *   for one session lifetime (services/sessions.ts purgeExpiredSessions).
 * - `sys_user.password_changed_at` (existing accounts: now) for PORTAL_PASSWORD_MAX_AGE_DAYS, and
 *   `sys_password_history`, the scrypt hashes of an account's earlier passwords (with when each was
 *   set) for PORTAL_PASSWORD_HISTORY. The session lookup reads password_changed_at, so the
 *   session-epoch trigger of sys_user (migrations 0014, 0018) watches it too.
 */
import { sql, type Kysely } from 'kysely';

const USER_WATCHED_BEFORE = 'unit_id, login_name, name, is_user_seed, basic_unit_flag, office_id, status, password_hash, password_must_change';

async function userEpochTrigger(db: Kysely<unknown>, columns: string): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS sys_user_session_epoch ON sys_user`.execute(db);
  await sql
    .raw(
      `CREATE CONSTRAINT TRIGGER sys_user_session_epoch AFTER UPDATE OF ${columns} OR DELETE ON sys_user DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sys_bump_session_epoch()`,
    )
    .execute(db);
}

/** Every process drops the sessions it resolved under the old ids. */
const bumpEpoch = (db: Kysely<unknown>) => sql`UPDATE sys_session_epoch SET version = version + 1 WHERE id = 1`.execute(db);

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sys_session ALTER COLUMN id TYPE varchar(64), ALTER COLUMN extend_id TYPE varchar(64)`.execute(db);
  await sql`UPDATE sys_session SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex'), extend_id = encode(sha256(convert_to(extend_id, 'UTF8')), 'hex')`.execute(
    db,
  );
  await bumpEpoch(db);

  await db.schema
    .createTable('sys_session_end')
    .addColumn('digest', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('reason', 'varchar(20)', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_session_end_at_idx').on('sys_session_end').column('ended_at').execute();

  await sql`ALTER TABLE sys_user ADD COLUMN password_changed_at timestamptz NOT NULL DEFAULT now()`.execute(db);
  await userEpochTrigger(db, `${USER_WATCHED_BEFORE}, password_changed_at`);
  await db.schema
    .createTable('sys_password_history')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'char(32)', (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('password_hash', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('sys_password_history_user_idx').on('sys_password_history').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sys_password_history').ifExists().execute();
  await userEpochTrigger(db, USER_WATCHED_BEFORE);
  await sql`ALTER TABLE sys_user DROP COLUMN IF EXISTS password_changed_at`.execute(db);
  await db.schema.dropTable('sys_session_end').ifExists().execute();
  // A digest cannot be turned back into its token: the open sessions end.
  await sql`DELETE FROM sys_session`.execute(db);
  await sql`ALTER TABLE sys_session ALTER COLUMN id TYPE char(32), ALTER COLUMN extend_id TYPE char(32)`.execute(db);
  await bumpEpoch(db);
}
