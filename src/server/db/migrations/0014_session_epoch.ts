/**
 * The session epoch: one counter that every change able to alter or end a resolved
 * session moves — a session deleted (logout, expiry, password change) or given another role, a
 * user disabled or changed, a role granted or revoked, a role's menus, a unit's area. Each server
 * process caches resolved sessions under the epoch it read (services/sessions.ts) and reads the
 * counter, one primary-key row, on every request: a change made by any process, or by hand in SQL,
 * is seen by all processes on their next request.
 * The triggers are deferred to commit, so the counter's row is locked last and briefly (no lock
 * order against the data a transaction changes), and readers never see a new epoch before the
 * data that moved it. Only the columns the session lookup reads fire them (a login's failure count
 * does not); a session's `last_seen_at` only when it moves back (set by hand: the sliding window
 * only moves it forward, every 30 s of use, which must not empty every process's cache).
 */
import { sql, type Kysely } from 'kysely';

/** Table → the trigger's events (the columns are the ones resolveSession reads). */
const WATCHED: Record<string, string> = {
  sys_session: 'UPDATE OF user_id, role_id, simple_pwd OR DELETE',
  sys_user: 'UPDATE OF unit_id, login_name, name, is_user_seed, basic_unit_flag, office_id, status, password_hash OR DELETE',
  sys_user_role: 'INSERT OR UPDATE OR DELETE',
  sys_role: 'UPDATE OF name, role_type, menu_ids OR DELETE',
  sys_unit: 'UPDATE OF areacode OR DELETE',
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE sys_session_epoch (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO sys_session_epoch (id, version) VALUES (1, 0)`.execute(db);
  await sql`
    CREATE FUNCTION sys_bump_session_epoch() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE sys_session_epoch SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END $$`.execute(db);
  for (const [table, events] of Object.entries(WATCHED)) {
    await sql
      .raw(
        `CREATE CONSTRAINT TRIGGER ${table}_session_epoch AFTER ${events} ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION sys_bump_session_epoch()`,
      )
      .execute(db);
  }
  // The session's inactivity window set back by hand (tests, an operator ending sessions early).
  await sql
    .raw(
      'CREATE CONSTRAINT TRIGGER sys_session_seen_session_epoch AFTER UPDATE OF last_seen_at ON sys_session DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.last_seen_at < OLD.last_seen_at) EXECUTE FUNCTION sys_bump_session_epoch()',
    )
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS sys_session_seen_session_epoch ON sys_session`.execute(db);
  for (const table of Object.keys(WATCHED)) await sql.raw(`DROP TRIGGER IF EXISTS ${table}_session_epoch ON ${table}`).execute(db);
  await sql`DROP FUNCTION IF EXISTS sys_bump_session_epoch()`.execute(db);
  await sql`DROP TABLE IF EXISTS sys_session_epoch`.execute(db);
}
