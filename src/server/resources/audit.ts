/**
 * The audit log: each save, workflow action and delete of a record writes who did it, when, the
 * operation, and each declared field whose text changed (labels and dictionary labels, as the
 * history of a change application reads: changes.ts), in the same transaction as the change. A
 * sub-table reads as its row count; an attachment field as its file names. Read per record by the
 * `auditLog` operation, with the record's own visibility.
 */
import { sql } from 'kysely';
import type { AuditEntry } from '../../shared/contract';
import { newId } from '../db/ids';
import { inTransaction } from '../db/index';
import { AUDIT_LOCK, auditChainOf, auditDb, chainHead, rowHash } from '../services/audit-chain';
import { valueText, type FieldChange } from './changes';
import { shownText } from './mask-patterns';
import type { HookRuntime } from './hooks';
import type { FieldModel, ResourceModel } from './model';
import type { AnyDb, Row } from './repository';
import type { Actor } from './scope';

/** `insert` and `update` are saves; any other operation is the workflow action's name (delete included). */
export type AuditOperation = 'insert' | 'update' | (string & {});

function fileNames(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((f) => (f && typeof f === 'object' && 'name' in f ? String((f as { name: unknown }).name) : String(f))).join('、');
}

function childText(model: ResourceModel, rows: unknown, dicts: HookRuntime['dicts']): string[] {
  if (!Array.isArray(rows)) return [];
  return rows.map((row: Row) =>
    model.fields
      .filter((f) => f.declared && f.type !== 'children')
      .map((f) => text(f, row[f.name], dicts))
      .join('，'),
  );
}

function text(f: FieldModel, value: unknown, dicts: HookRuntime['dicts']): string {
  return f.type === 'attachment' ? fileNames(value) : valueText(f.field, value, dicts);
}

/** The declared fields whose text differs between `before` and `after` (either may be empty). */
export function auditChanges(model: ResourceModel, before: Row, after: Row, dicts: HookRuntime['dicts']): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const f of model.fields) {
    // A field read from elsewhere (owner) is not the record's to change.
    if (!f.declared || f.read) continue;
    let from: string;
    let to: string;
    if (f.type === 'children') {
      const link = model.children.find((c) => c.name === f.name);
      if (!link) continue;
      const [a, b] = [childText(link.model, before[f.name], dicts), childText(link.model, after[f.name], dicts)];
      if (a.join('\n') === b.join('\n')) continue;
      from = a.length ? `${a.length} 行` : '';
      to = b.length ? `${b.length} 行${a.length === b.length ? '（内容有修改）' : ''}` : '';
    } else {
      from = text(f, before[f.name], dicts);
      to = text(f, after[f.name], dicts);
      if (from === to) continue;
    }
    // Personal data (field `mask`) is compared whole and recorded masked.
    changes.push({ field: f.name, label: f.label, from: shownText(f.field, from), to: shownText(f.field, to) });
  }
  return changes;
}

/** One audit row as its writers describe it; appendAudit adds the id, time and chain. */
export interface AuditAppend {
  /** Who acted (null for a visitor or the system). */
  userId: string | null;
  userName: string | null;
  /** The actor's unit and area: what the authority's audit screen is scoped by. */
  unitId?: string | null;
  areaCode?: string | null;
  /** The resource name, or a system area such as `auth` for sign-in events. */
  resource: string;
  /** The record acted on (for sign-in events: the account's id or login name). */
  recordId: string;
  /** `insert`, `update`, a workflow action's name, or an event such as `login`. */
  operation: AuditOperation;
  /** The changed fields (label: from → to); an event without fields records []. */
  changes: FieldChange[];
}

/**
 * The one way a row enters sys_audit_log: every writer (saves, workflow actions, deletes, security
 * events, unmasked reads) calls this, inside its own transaction when it has one (else it opens
 * one). The row is numbered and chained to the one before (services/audit-chain.ts) under a
 * transaction-scoped lock held until commit: call it as the last write of the transaction, so that
 * no transaction waits for a row lock while it holds the audit lock.
 */
export async function appendAudit(db: AnyDb, entry: AuditAppend): Promise<void> {
  if (!db.isTransaction) return inTransaction(db, (trx) => appendAudit(trx, entry));
  await sql`SELECT ${AUDIT_LOCK}`.execute(db);
  const chain = auditChainOf(db);
  const head = await chainHead(db);
  // Milliseconds: the time a hash covers must read back the same. clock_timestamp, not now(): a
  // save and its commit in one transaction keep their order.
  const { rows } = await sql<{ now: Date }>`SELECT date_trunc('milliseconds', clock_timestamp()) AS now`.execute(db);
  const row = {
    id: newId(),
    seq: head.seq + 1,
    created_at: new Date(rows[0].now),
    user_id: entry.userId || null,
    user_name: entry.userName || null,
    unit_id: entry.unitId || null,
    area_code: entry.areaCode || null,
    resource: entry.resource,
    record_id: entry.recordId,
    operation: entry.operation,
    changes: entry.changes,
    prev_hash: chain ? (head.hash ?? '') : null,
  };
  const hash = chain ? rowHash(chain, row, row.prev_hash!) : null;
  await auditDb(db)
    .insertInto('sys_audit_log')
    .values({ ...row, changes: JSON.stringify(entry.changes), hash })
    .execute();
}

/** The row one operation on a record writes; null for an update that changed no field. */
export function auditEntry(
  actor: Actor,
  model: ResourceModel,
  runtime: HookRuntime,
  operation: AuditOperation,
  recordId: string,
  before: Row | undefined,
  after: Row | undefined,
): AuditAppend | null {
  const changes = auditChanges(model, before ?? {}, after ?? {}, runtime.dicts);
  if (operation === 'update' && changes.length === 0) return null;
  return { userId: actor.userId, userName: actor.userName, unitId: actor.unitId, areaCode: actor.areaCode, resource: model.name, recordId, operation, changes };
}

/** Records one operation on a record; an update that changed no field is not recorded. */
export async function writeAudit(
  trx: AnyDb,
  actor: Actor,
  model: ResourceModel,
  runtime: HookRuntime,
  operation: AuditOperation,
  recordId: string,
  before: Row | undefined,
  after: Row | undefined,
): Promise<void> {
  const entry = auditEntry(actor, model, runtime, operation, recordId, before, after);
  if (entry) await appendAudit(trx, entry);
}

/** The audit log of one record, newest first. */
export async function readAudit(db: AnyDb, resource: string, recordId: string): Promise<AuditEntry[]> {
  const rows = await auditDb(db)
    .selectFrom('sys_audit_log')
    .selectAll()
    .where('resource', '=', resource)
    .where('record_id', '=', recordId)
    .orderBy('seq', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    operation: r.operation,
    userId: r.user_id,
    userName: r.user_name,
    createDate: new Date(r.created_at).toISOString(),
    changes: (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as FieldChange[],
  }));
}
