/**
 * `sys_audit_log_view`: the audit log as the authority's audit screen reads it (the resource
 * `audit-log`, a read-only resource over a system table): each row with its unit's name and its
 * changes as one text, a line per field — `标题：旧 → 新`, or `标题：新` for a value set from
 * nothing (`（空）` for a value cleared). A join makes the view not updatable, so nothing can be
 * written through it; the table, its numbering and its hash chain stay with appendAudit alone.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE VIEW sys_audit_log_view AS
    SELECT a.id, a.seq, a.created_at, a.user_id, a.user_name, a.unit_id, u.orgname AS unit_name,
      a.area_code, a.resource, a.record_id, a.operation,
      coalesce((
        SELECT string_agg(
          coalesce(c.item->>'label', c.item->>'field', '') || '：' ||
          CASE WHEN coalesce(c.item->>'from', '') <> ''
            THEN (c.item->>'from') || ' → ' || coalesce(nullif(c.item->>'to', ''), '（空）')
            ELSE coalesce(c.item->>'to', '') END,
          E'\n' ORDER BY c.n)
        FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a.changes) = 'array' THEN a.changes ELSE '[]'::jsonb END) WITH ORDINALITY AS c(item, n)
      ), '') AS changes
    FROM sys_audit_log a
    LEFT JOIN sys_unit u ON u.id = a.unit_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP VIEW IF EXISTS sys_audit_log_view`.execute(db);
}
