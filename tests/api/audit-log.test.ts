/**
 * The audit log: every save, workflow action and delete writes who changed what — each
 * field's text before and after, dictionary codes as their labels — in the same transaction; the
 * record's auditLog operation shows it, newest first, to whoever may see the record (the authority
 * that audits it included) and to no other unit. A refused change writes nothing.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';

type Saved = { id: string; version: number };

describe.each(dbTargets())('audit log (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const auditLog = async (sid: string, id: string) => call<AuditEntry[]>(app, sid, 'GET', `/r/demo-notice/auditLog/${id}`);
  const count = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM sys_audit_log`.execute(app.db)).rows[0].n;

  it('records who changed which fields, from what to what, through save, commit and the audit', async () => {
    const created = (await call<Saved>(app, session.unit, 'POST', '/r/demo-notice/save', { title: '审计通知', category: '1', content: '正文' })).body.data!;
    const updated = (
      await call<Saved>(app, session.unit, 'POST', '/r/demo-notice/save', {
        id: created.id,
        version: created.version,
        title: '审计通知（修订）',
        category: '2',
        content: '正文',
      })
    ).body.data!;
    // Saving the same values again records nothing.
    const again = (
      await call<Saved>(app, session.unit, 'POST', '/r/demo-notice/save', {
        id: updated.id,
        version: updated.version,
        title: '审计通知（修订）',
        category: '2',
        content: '正文',
      })
    ).body.data!;
    const committed = (await call<Saved>(app, session.unit, 'POST', `/r/demo-notice/commit/${created.id}`, { version: again.version })).body.data!;
    expect(
      (await call(app, session.authority, 'POST', `/r/demo-notice/audit-agree/${created.id}`, { version: committed.version, opinion: '同意' })).body.result,
    ).toBe('true');

    const { body } = await auditLog(session.unit, created.id);
    expect(body.result).toBe('true');
    const entries = body.data!;
    expect(entries.map((e) => [e.operation, e.userName])).toEqual([
      ['audit-agree', expect.any(String)],
      ['commit', expect.any(String)],
      ['update', expect.any(String)],
      ['insert', expect.any(String)],
    ]);
    expect(entries[3].userName).toBe(entries[2].userName);
    expect(entries[0].userName).not.toBe(entries[3].userName);
    expect(entries[2].changes).toEqual([
      { field: 'title', label: '标题', from: '审计通知', to: '审计通知（修订）' },
      { field: 'category', label: '类别', from: '通知', to: '公告' },
    ]);
    expect(entries[3].changes).toEqual(expect.arrayContaining([{ field: 'title', label: '标题', from: '', to: '审计通知' }]));
    expect(new Date(entries[0].createDate).getTime()).toBeGreaterThanOrEqual(new Date(entries[3].createDate).getTime());

    // The authority that audited it reads the same log; another unit cannot even find the record.
    expect((await auditLog(session.authority, created.id)).body.data).toHaveLength(4);
    const other = await auditLog(session.other, created.id);
    expect(other.body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
  });

  it('writes nothing for a refused change', async () => {
    const created = (await call<Saved>(app, session.unit, 'POST', '/r/demo-notice/save', { title: '拒绝测试', content: '正文' })).body.data!;
    const before = await count();
    // Another unit's save of the row, a stale version, a wrong state: all refused, none recorded.
    expect(
      (await call(app, session.other, 'POST', '/r/demo-notice/save', { id: created.id, version: created.version, title: '越权', content: '正文' })).body.result,
    ).toBe('false');
    expect(
      (await call(app, session.unit, 'POST', '/r/demo-notice/save', { id: created.id, version: created.version + 5, title: '过期', content: '正文' })).body
        .result,
    ).toBe('false');
    expect((await call(app, session.unit, 'POST', `/r/demo-notice/revoke/${created.id}`, { version: created.version })).body.result).toBe('false');
    expect(await count()).toBe(before);
  });
});
