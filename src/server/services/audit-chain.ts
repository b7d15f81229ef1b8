/**
 * The audit log's hash chain. Every row of sys_audit_log carries `seq` (1, 2, 3 … in the one order
 * rows were written, across processes), `prev_hash` (the hash of the row before, or of the anchor
 * left by pruning, or '' for the first row) and `hash` = HMAC(key, canonical row + prev_hash) with
 * the configured suite (HMAC-SHA-256, or HMAC-SM3 under PORTAL_CRYPTO=sm). Changing a row's text
 * changes its hash; deleting or inserting a row breaks the next row's prev_hash or the numbering.
 *
 * The key is derived from PORTAL_MASTER_KEY (`audit-chain`), which lives outside the database;
 * without one it is a random key kept in sys_config, which detects careless edits but not someone
 * who can write the database (they can read the key and re-chain).
 *
 * Writers: appendAudit (resources/audit.ts) takes a transaction-scoped advisory lock just before
 * its insert, reads the last row and inserts the next one; the lock is released at commit, so rows
 * chain in commit order and a rolled-back row leaves no gap. A database handle knows its chain once
 * the app started on it (useAuditChain); a handle without one (the demo template is written before
 * any server key exists) writes rows without a hash, and the first start seals that leading run of
 * rows (sealAuditChain), once: rows without a hash after it are reported as broken.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Db } from '../db/index';
import type { AnyDb } from '../resources/repository';
import { deriveKey, keyedDigest, type CryptoMode } from './crypto-suite';
import { getOrCreateSetting } from './settings-store';

export interface AuditChain {
  mode: CryptoMode;
  key: Buffer;
}

/** The stored columns of one audit row. */
export interface AuditRow {
  id: string;
  seq: string | number | bigint;
  created_at: Date | string;
  user_id: string | null;
  user_name: string | null;
  unit_id: string | null;
  area_code: string | null;
  resource: string;
  record_id: string;
  operation: string;
  /** jsonb: parsed by the driver, or its text. */
  changes: unknown;
  prev_hash: string | null;
  hash: string | null;
}

export interface AuditTables {
  sys_audit_log: AuditRow;
  sys_config: { key: string; value: string };
}

export const auditDb = (db: AnyDb) => db as unknown as Kysely<AuditTables>;

/** The lock every chained insert takes (pg_advisory_xact_lock), one key for the whole log. */
export const AUDIT_LOCK = sql`pg_advisory_xact_lock(hashtext('portal:audit-chain'))`;

const KEY_SETTING = 'audit.chainKey';
/** `{"seq": N, "hash": "..."}`: the last row pruned by retention; the chain continues from it. */
export const ANCHOR_SETTING = 'audit.chainAnchor';
/** Set once the leading rows written without a key were sealed (sealAuditChain). */
const SEALED_SETTING = 'audit.chainSealed';

/** The chain of the configured suite: the master key's derived key, else the stored random one. */
export async function loadAuditChain(db: Db, config: { crypto: CryptoMode; masterKey: Buffer | null }): Promise<AuditChain> {
  const derived = deriveKey(config.masterKey, 'audit-chain');
  const key = derived ?? Buffer.from(await getOrCreateSetting(db, KEY_SETTING, () => randomBytes(32).toString('base64')), 'base64');
  return { mode: config.crypto, key };
}

// A transaction shares its database's dialect adapter (Kysely hands it to every executor it
// derives), so registering the root handle covers every transaction opened on it.
const chains = new WeakMap<object, AuditChain>();
const handleOf = (db: AnyDb): object => db.getExecutor().adapter;

export function useAuditChain(db: AnyDb, chain: AuditChain): void {
  chains.set(handleOf(db), chain);
}

export function auditChainOf(db: AnyDb): AuditChain | undefined {
  return chains.get(handleOf(db));
}

/** JSON with object keys sorted at every level: jsonb reorders keys, the hash must not care. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const parsed = (changes: unknown): unknown => (typeof changes === 'string' ? JSON.parse(changes) : changes);

/** The hash of one row given the hash before it (the time at millisecond precision, as written). */
export function rowHash(chain: AuditChain, row: Omit<AuditRow, 'hash'>, prevHash: string): string {
  const fields = [
    String(row.seq),
    row.id,
    new Date(row.created_at).toISOString(),
    row.user_id,
    row.user_name,
    row.unit_id,
    row.area_code,
    row.resource,
    row.record_id,
    row.operation,
    parsed(row.changes),
    prevHash,
  ];
  return keyedDigest(chain.mode, chain.key, canonicalJson(fields));
}

export interface Anchor {
  seq: number;
  hash: string;
  /** HMAC of seq and hash: an anchor moved forward (rows deleted as if pruned) shows. */
  mac: string;
}

const anchorMac = (chain: AuditChain, seq: number, hash: string) => keyedDigest(chain.mode, chain.key, `anchor:${seq}:${hash}`);

export async function readAnchor(db: AnyDb): Promise<Anchor | null> {
  const row = await auditDb(db).selectFrom('sys_config').select('value').where('key', '=', ANCHOR_SETTING).executeTakeFirst();
  return row ? (JSON.parse(row.value) as Anchor) : null;
}

/** The last row's number and hash (the anchor's when the log was pruned empty), for the next insert; call under AUDIT_LOCK. */
export async function chainHead(db: AnyDb): Promise<{ seq: number; hash: string | null }> {
  const last = await auditDb(db).selectFrom('sys_audit_log').select(['seq', 'hash']).orderBy('seq', 'desc').limit(1).executeTakeFirst();
  if (last) return { seq: Number(last.seq), hash: last.hash };
  const anchor = await readAnchor(db);
  return anchor ?? { seq: 0, hash: '' };
}

/**
 * Hashes the leading rows that have none (written by the migration's predecessors or into the demo
 * template before any key existed), in order, once per database; later rows are left to verify.
 * Returns how many were sealed.
 */
export async function sealAuditChain(db: Db, chain: AuditChain): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const t = auditDb(trx);
    await sql`SELECT ${AUDIT_LOCK}`.execute(trx);
    if (await t.selectFrom('sys_config').select('key').where('key', '=', SEALED_SETTING).executeTakeFirst()) return 0;
    const firstSealed = await t.selectFrom('sys_audit_log').select('seq').where('hash', 'is not', null).orderBy('seq').limit(1).executeTakeFirst();
    let query = t.selectFrom('sys_audit_log').selectAll().where('hash', 'is', null).orderBy('seq');
    if (firstSealed) query = query.where('seq', '<', firstSealed.seq);
    const rows = await query.execute();
    let prev = (await readAnchor(trx))?.hash ?? '';
    const updates: { id: string; prev: string; hash: string }[] = [];
    for (const row of rows) {
      const hash = rowHash(chain, row, prev);
      updates.push({ id: row.id, prev, hash });
      prev = hash;
    }
    for (let i = 0; i < updates.length; i += 500) {
      const values = sql.join(updates.slice(i, i + 500).map((u) => sql`(${u.id}, ${u.prev}, ${u.hash})`));
      await sql`UPDATE sys_audit_log a SET prev_hash = v.prev, hash = v.hash FROM (VALUES ${values}) AS v(id, prev, hash) WHERE a.id = v.id`.execute(trx);
    }
    await t
      .insertInto('sys_config')
      .values({ key: SEALED_SETTING, value: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return rows.length;
  });
}

/** At start: the chain key, the leading unsealed rows sealed, the handle registered for appendAudit. */
export async function startAuditChain(db: Db, config: { crypto: CryptoMode; masterKey: Buffer | null }): Promise<AuditChain> {
  const chain = await loadAuditChain(db, config);
  await sealAuditChain(db, chain);
  useAuditChain(db, chain);
  return chain;
}

export interface VerifyProblem {
  id: string | null;
  seq: number;
  createdAt: string | null;
  /** What differs, in Chinese. */
  zh: string;
  en: string;
}

export interface VerifyResult {
  rows: number;
  anchor: Anchor | null;
  first: { seq: number; createdAt: string } | null;
  last: { seq: number; createdAt: string } | null;
  problem: VerifyProblem | null;
}

/** Walks the chain from the anchor (or the first row) in pages; stops at the first broken link. */
export async function verifyAuditChain(db: AnyDb, chain: AuditChain, pageSize = 2000): Promise<VerifyResult> {
  const anchor = await readAnchor(db);
  if (anchor && anchor.mac !== anchorMac(chain, anchor.seq, anchor.hash)) {
    return {
      rows: 0,
      anchor,
      first: null,
      last: null,
      problem: {
        id: null,
        seq: anchor.seq,
        createdAt: null,
        zh: `保留锚点（第 ${anchor.seq} 条）的签名不符：锚点被改动`,
        en: `the retention anchor (row ${anchor.seq}) does not match its signature: it was altered`,
      },
    };
  }
  let expectedSeq = (anchor?.seq ?? 0) + 1;
  let prev = anchor?.hash ?? '';
  let rows = 0;
  let first: VerifyResult['first'] = null;
  let last: VerifyResult['last'] = null;
  const t = auditDb(db);
  for (let after = anchor?.seq ?? Number.MIN_SAFE_INTEGER; ;) {
    const page = await t
      .selectFrom('sys_audit_log')
      .selectAll()
      .where('seq', '>', after as never)
      .orderBy('seq')
      .limit(pageSize)
      .execute();
    if (page.length === 0) break;
    for (const row of page) {
      const seq = Number(row.seq);
      const at = new Date(row.created_at).toISOString();
      const problem = (zh: string, en: string): VerifyResult => ({ rows, anchor, first, last, problem: { id: row.id, seq, createdAt: at, zh, en } });
      if (seq !== expectedSeq) {
        return seq > expectedSeq
          ? problem(
              `第 ${expectedSeq}${seq - expectedSeq > 1 ? `–${seq - 1}` : ''} 条缺失（被删除）`,
              `row(s) ${expectedSeq}${seq - expectedSeq > 1 ? `-${seq - 1}` : ''} missing (deleted)`,
            )
          : problem(
              `序号 ${seq} 早于预期的 ${expectedSeq}（保留锚点之前的行）`,
              `sequence ${seq} precedes the expected ${expectedSeq} (a row before the retention anchor)`,
            );
      }
      if (row.hash === null) return problem('该行没有哈希（未经链式写入）', 'the row has no hash (not written through the chain)');
      if (row.prev_hash !== prev)
        return problem(
          '前一条的哈希与记录的不符：前一条被修改、删除或插入',
          "the previous row's hash differs: a row before it was changed, removed or inserted",
        );
      if (rowHash(chain, row, prev) !== row.hash)
        return problem('内容与哈希不符：该行被修改（或密钥不同）', 'the contents do not match the hash: the row was altered (or the key differs)');
      if (!first) first = { seq, createdAt: at };
      last = { seq, createdAt: at };
      prev = row.hash;
      expectedSeq++;
      rows++;
    }
    after = Number(page[page.length - 1].seq);
  }
  return { rows, anchor, first, last, problem: null };
}

/**
 * Retention: deletes the rows older than `days` (a leading run in chain order: only rows before the
 * first one still kept) and records the last deleted row as the anchor verification starts from
 * (signed with the chain key), in one transaction under the chain lock. Returns how many rows went.
 */
export async function pruneAuditLog(db: Db, days: number, now = new Date()): Promise<number> {
  // Without the chain's key no anchor can be signed: nothing is pruned.
  const chain = auditChainOf(db);
  if (!chain) return 0;
  const cutoff = new Date(now.getTime() - days * 86_400_000);
  return db.transaction().execute(async (trx) => {
    const t = auditDb(trx);
    const old = await t.selectFrom('sys_audit_log').select('seq').where('created_at', '<', cutoff).orderBy('seq', 'desc').limit(1).executeTakeFirst();
    if (!old) return 0;
    await sql`SELECT ${AUDIT_LOCK}`.execute(trx);
    // Everything up to the first row kept: a row written later with an earlier time stays.
    const kept = await t
      .selectFrom('sys_audit_log')
      .select('seq')
      .where('created_at', '>=', cutoff)
      .where('seq', '<', old.seq)
      .orderBy('seq')
      .limit(1)
      .executeTakeFirst();
    const upTo = kept ? Number(kept.seq) - 1 : Number(old.seq);
    const lastPruned = await t
      .selectFrom('sys_audit_log')
      .select(['seq', 'hash'])
      .where('seq', '<=', upTo as never)
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!lastPruned) return 0;
    const [seq, hash] = [Number(lastPruned.seq), lastPruned.hash ?? ''];
    const anchor = JSON.stringify({ seq, hash, mac: anchorMac(chain, seq, hash) });
    await t
      .insertInto('sys_config')
      .values({ key: ANCHOR_SETTING, value: anchor })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: anchor }))
      .execute();
    const deleted = await t
      .deleteFrom('sys_audit_log')
      .where('seq', '<=', upTo as never)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}
