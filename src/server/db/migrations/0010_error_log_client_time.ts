/**
 * The browser's time of an error report (the original data model: an error log entry carries type, code, mes,
 * url plus time, token, userId, userName). `time` stays the server's receipt time, which the
 * housekeeping job ages reports by; the browser's clock may be wrong, so it gets its own column.
 * Token and user keep coming from the session (a fingerprint of the token, never the token).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_error_log').addColumn('client_time', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_error_log').dropColumn('client_time').execute();
}
