/**
 * The audit log's hash chain: every row is linked to the one before with the configured suite's
 * HMAC (HMAC-SM3 under PORTAL_CRYPTO=sm), so `npm run audit:verify` finds the first row whose text
 * was altered and the place a row was deleted; retention pruning leaves a signed anchor that
 * verification starts from. On both databases, in both crypto modes (the sm one with a master key,
 * the standard one with the key kept in the database).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runAuditVerify } from '../../src/server/admin/audit-verify';
import { createDatabase } from '../../src/server/db/index';
import { runHousekeeping } from '../../src/server/services/housekeeping';
import { keyedDigest } from '../../src/server/services/crypto-suite';
import { ANCHOR_SETTING, auditChainOf, type Anchor, canonicalJson, pruneAuditLog, verifyAuditChain } from '../../src/server/services/audit-chain';
import { appSuite, call, dbTargets } from './helpers';
import { match } from '../support/match';

type Saved = { id: string; version: number };
const MASTER = 'a'.repeat(64);

async function cli(env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const [stdout, stderr] = [new PassThrough(), new PassThrough()];
  let out = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (out += d));
  const code = await runAuditVerify({ stdout, stderr, env: { ...env, PORTAL_LOG_LEVEL: 'silent' } });
  return { code, out };
}

const cases = dbTargets().flatMap((target) => (['standard', 'sm'] as const).map((mode) => [target, mode] as const));

describe.each(cases)('audit chain (%s, %s)', (target, mode) => {
  const dir = target === 'pglite' ? mkdtempSync(join(tmpdir(), 'audit-chain-')) : null;
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));
  const masterKey = mode === 'sm' ? Buffer.from(MASTER, 'hex') : null;
  const env = (): NodeJS.ProcessEnv => ({
    PORTAL_CRYPTO: mode,
    ...(masterKey ? { PORTAL_MASTER_KEY: MASTER } : {}),
    ...(target === 'pg' ? { DATABASE_URL: app.config.databaseUrl! } : { PORTAL_DATA_DIR: dir!, DATABASE_URL: '' }),
  });
  const { app, session } = appSuite(target, { build: { crypto: mode, masterKey, ...(dir ? { dataDir: dir } : {}) }, sessions: { unit: 'nbadmin' } });
  const verify = () => verifyAuditChain(app.db, auditChainOf(app.db)!);
  const rows = async () =>
    (
      await sql<{
        id: string;
        seq: string;
        changes: unknown;
        created_at: Date;
      }>`SELECT id, seq::text AS seq, changes, created_at FROM sys_audit_log ORDER BY sys_audit_log.seq`.execute(app.db)
    ).rows;

  it('chains every row written, with the configured HMAC', async () => {
    for (let i = 0; i < 4; i++) {
      const saved = (await call<Saved>(app, session.unit, 'POST', '/r/demo-notice/save', { title: `链式审计 ${i}`, category: '1', content: '正文' })).body
        .data!;
      await call(app, session.unit, 'POST', '/r/demo-notice/save', {
        id: saved.id,
        version: saved.version,
        title: `链式审计 ${i}（改）`,
        category: '2',
        content: '正文',
      });
    }
    // Concurrent writers (a pool of connections on PostgreSQL) still make one chain.
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => call(app, session.unit, 'POST', '/r/demo-notice/save', { title: `并发审计 ${i}`, category: '1', content: '正文' })),
    );
    const result = await verify();
    expect(result.problem).toBeNull();
    expect(result.rows).toBeGreaterThanOrEqual(14);
    // The hash is the suite's HMAC: recomputed by hand for the last row.
    const last = (await sql<Record<string, unknown>>`SELECT * FROM sys_audit_log ORDER BY seq DESC LIMIT 1`.execute(app.db)).rows[0];
    const fields = [
      String(last.seq),
      last.id,
      new Date(last.created_at as Date).toISOString(),
      last.user_id,
      last.user_name,
      last.unit_id,
      last.area_code,
      last.resource,
      last.record_id,
      last.operation,
      last.changes,
      last.prev_hash,
    ];
    expect(last.hash).toBe(keyedDigest(mode, auditChainOf(app.db)!.key, canonicalJson(fields)));
    expect(last.area_code).toMatch(/^3302/);
    if (target === 'pg') expect(await cli(env())).toMatchObject({ code: 0, out: match.stringContaining('审计日志完整') });
  });

  it('reports the row whose changes were altered, and the place a row was deleted', async () => {
    const all = await rows();
    const victim = all[2];
    await sql`UPDATE sys_audit_log SET changes = '[{"field":"title","label":"标题","from":"","to":"篡改"}]'::jsonb WHERE id = ${victim.id}`.execute(app.db);
    const tampered = await verify();
    expect(tampered.problem).toMatchObject({ id: victim.id, seq: Number(victim.seq), zh: match.stringContaining('内容与哈希不符') });
    if (target === 'pg') expect(await cli(env())).toMatchObject({ code: 3, out: match.stringContaining(`第 ${victim.seq} 条（id ${victim.id}`) });
    await sql`UPDATE sys_audit_log SET changes = ${JSON.stringify(victim.changes)}::jsonb WHERE id = ${victim.id}`.execute(app.db);
    expect((await verify()).problem).toBeNull();

    const middle = all[3];
    const saved = (await sql<Record<string, unknown>>`SELECT * FROM sys_audit_log WHERE id = ${middle.id}`.execute(app.db)).rows[0];
    await sql`DELETE FROM sys_audit_log WHERE id = ${middle.id}`.execute(app.db);
    const gap = await verify();
    expect(gap.problem).toMatchObject({ seq: Number(middle.seq) + 1, zh: match.stringContaining(`第 ${middle.seq} 条缺失`) });
    if (target === 'pg') expect(await cli(env())).toMatchObject({ code: 3, out: match.stringContaining('缺失') });
    // Put back as it was: intact again.
    const columns = Object.keys(saved);
    await sql`INSERT INTO sys_audit_log (${sql.join(columns.map((c) => sql.ref(c)))}) VALUES (${sql.join(columns.map((c) => (c === 'changes' ? JSON.stringify(saved[c]) : saved[c])))})`.execute(
      app.db,
    );
    expect((await verify()).problem).toBeNull();
  });

  it('prunes rows past retention behind a signed anchor verification starts from', async () => {
    const all = await rows();
    const cut = all[2];
    // The first three rows are 400 days old (their hashes no longer match: they go).
    await sql`UPDATE sys_audit_log SET created_at = now() - interval '400 days' WHERE seq <= ${Number(cut.seq)}`.execute(app.db);
    // The housekeeping job prunes them (PORTAL_AUDIT_RETENTION_DAYS, 180 by default).
    expect((await runHousekeeping(app.db, app.config)).auditLogs).toBe(3);
    expect(await pruneAuditLog(app.db, 180)).toBe(0);
    const result = await verify();
    expect(result.problem).toBeNull();
    expect(result.anchor?.seq).toBe(Number(cut.seq));
    expect(result.rows).toBe(all.length - 3);
    // New rows keep chaining after pruning.
    await call(app, session.unit, 'POST', '/r/demo-notice/save', { title: '剪枝之后', category: '1', content: '正文' });
    expect((await verify()).problem).toBeNull();

    // An anchor moved forward (rows deleted as if pruned) does not match its signature.
    const anchor = JSON.parse(
      (await sql<{ value: string }>`SELECT value FROM sys_config WHERE key = ${ANCHOR_SETTING}`.execute(app.db)).rows[0].value,
    ) as Anchor;
    const next = all[3];
    const nextHash = (await sql<{ hash: string }>`SELECT hash FROM sys_audit_log WHERE id = ${next.id}`.execute(app.db)).rows[0].hash;
    await sql`UPDATE sys_config SET value = ${JSON.stringify({ ...anchor, seq: Number(next.seq), hash: nextHash })} WHERE key = ${ANCHOR_SETTING}`.execute(
      app.db,
    );
    expect((await verify()).problem).toMatchObject({ zh: match.stringContaining('锚点') });
    await sql`UPDATE sys_config SET value = ${JSON.stringify(anchor)} WHERE key = ${ANCHOR_SETTING}`.execute(app.db);
  });

  if (target === 'pglite') {
    it('npm run audit:verify over the embedded database: 0 when intact, 3 at a broken row', async () => {
      await app.close();
      expect(await cli(env())).toMatchObject({ code: 0, out: match.stringMatching(/^审计日志完整：\d+ 条.*audit log intact/) });
      const db = await createDatabase({ databaseUrl: null, dataDir: dir!, cacheDir: null });
      const victim = (
        await sql<{ id: string; seq: string }>`SELECT id, seq::text AS seq FROM sys_audit_log ORDER BY sys_audit_log.seq DESC LIMIT 1`.execute(db)
      ).rows[0];
      await sql`UPDATE sys_audit_log SET user_name = '某人' WHERE id = ${victim.id}`.execute(db);
      await db.destroy();
      const broken = await cli(env());
      expect(broken).toMatchObject({ code: 3, out: match.stringContaining(`审计日志链断裂：第 ${victim.seq} 条（id ${victim.id}`) });
    });
  }
});
