/**
 * The audit log becomes a hash chain and gains the actor's unit and area: `seq` numbers the rows in
 * the one order they were written (appendAudit assigns it under a lock), `prev_hash` and `hash`
 * link each row to the one before it (services/audit-chain.ts), and `unit_id` / `area_code` say
 * whose action it was, so the authority's audit screen shows the rows of its area. Rows written
 * before are numbered in time order and take their unit and area from their user; they are chained
 * when the server first starts with its chain key (a migration holds no key).
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sys_audit_log ADD COLUMN seq bigint`.execute(db);
  await sql`ALTER TABLE sys_audit_log ADD COLUMN prev_hash varchar(128)`.execute(db);
  await sql`ALTER TABLE sys_audit_log ADD COLUMN hash varchar(128)`.execute(db);
  await sql`ALTER TABLE sys_audit_log ADD COLUMN unit_id varchar(64)`.execute(db);
  await sql`ALTER TABLE sys_audit_log ADD COLUMN area_code varchar(12)`.execute(db);
  await sql`
    UPDATE sys_audit_log a SET seq = n.seq
    FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS seq FROM sys_audit_log) n
    WHERE a.id = n.id`.execute(db);
  await sql`
    UPDATE sys_audit_log a SET unit_id = u.unit_id, area_code = o.areacode
    FROM sys_user u JOIN sys_unit o ON o.id = u.unit_id
    WHERE u.id = a.user_id`.execute(db);
  await sql`ALTER TABLE sys_audit_log ALTER COLUMN seq SET NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX sys_audit_log_seq_idx ON sys_audit_log (seq)`.execute(db);
  await sql`CREATE INDEX sys_audit_log_area_idx ON sys_audit_log (area_code, created_at)`.execute(db);
  await sql`CREATE INDEX sys_audit_log_time_idx ON sys_audit_log (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['sys_audit_log_time_idx', 'sys_audit_log_area_idx', 'sys_audit_log_seq_idx'])
    await sql`DROP INDEX IF EXISTS ${sql.ref(index)}`.execute(db);
  for (const column of ['area_code', 'unit_id', 'hash', 'prev_hash', 'seq'])
    await sql`ALTER TABLE sys_audit_log DROP COLUMN IF EXISTS ${sql.ref(column)}`.execute(db);
}
