/**
 * Durability (issue 17): the real server (the README's start path) takes 1,000 concurrent workflow
 * commits and is killed with SIGKILL part-way, then started again on the same data — the embedded
 * PGlite directory, and PostgreSQL when DATABASE_URL is set. Every commit the server acknowledged
 * is there; no record is half-moved: its state, its flow log entry and its audit log entry are all
 * present or all absent; the data directory opens again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AuditEntry, Envelope, FlowLogEntry } from '../../src/shared/contract';
import { dbTargets, freshPostgresDatabase, logInOver } from '../api/helpers';
import { startServer, type StartedServer } from '../support/server';
import { Tally } from './support';

const RECORDS = 1000;
const KILL_AFTER = 300;
const CONCURRENCY = 40;

type Row = { id: string; version: number; status: string; title: string };

/** Runs `work` over `items` with at most `limit` at once; stops taking new items once `stop()` says so. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length && !stop()) await work(items[next++]);
    }),
  );
}

describe.each(dbTargets())('durability under SIGKILL (%s)', (target) => {
  const tally = new Tally(`durability (${target})`);
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-durable-'));
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> | null = null;
  let server: StartedServer | null = null;
  afterAll(async () => {
    console.log(tally.line());
    await server?.stop();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async () => {
    database ??= target === 'pg' ? await freshPostgresDatabase() : null;
    server = await startServer({ dataDir, env: database ? { DATABASE_URL: database.url } : {} });
    const { reply } = await logInOver(server.baseURL, 'nbadmin');
    expect(reply.result).toBe('true');
    return reply.data!.sessionid;
  };
  const call = async <T,>(sid: string, method: 'GET' | 'POST', path: string, body?: object): Promise<Envelope<T>> => {
    tally.requests++;
    const res = await fetch(`${server!.baseURL}/espServer${path}?__sid=${sid}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as Envelope<T>;
  };

  it('keeps every acknowledged commit, and no record half-moved, across a kill and a restart', { timeout: 600_000 }, async () => {
    let sid = await start();
    const drafts: Row[] = [];
    await pool(Array.from({ length: RECORDS }, (_, i) => i), CONCURRENCY, async (i) => {
      const saved = await call<Row>(sid, 'POST', '/r/demo-notice/save', { title: `耐久测试 ${target} ${i}`, content: '正文' });
      expect(saved.result).toBe('true');
      drafts.push(saved.data!);
    });

    const acknowledged = new Set<string>();
    let killed = false;
    const killing = (async () => {
      while (acknowledged.size < KILL_AFTER) await new Promise((r) => setTimeout(r, 5));
      killed = true;
      await server!.kill();
    })();
    await pool(drafts, CONCURRENCY, async (row) => {
      try {
        const reply = await call<Row>(sid, 'POST', `/r/demo-notice/commit/${row.id}`, { version: row.version });
        if (reply.result === 'true') acknowledged.add(row.id);
      } catch {
        // The connection died with the server: not acknowledged, may or may not have been applied.
      }
    }, () => killed);
    await killing;
    expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(acknowledged.size).toBeLessThan(RECORDS);

    // The same data directory (or database) opens again.
    sid = await start();
    const states = new Map<string, string>();
    for (let pageNo = 1; ; pageNo++) {
      const page = await call<{ list: Row[] }>(sid, 'POST', '/r/demo-notice/list', { pageNo, pageSize: 200 });
      expect(page.result).toBe('true');
      if (page.data!.list.length === 0) break;
      for (const row of page.data!.list) if (row.title.startsWith(`耐久测试 ${target} `)) states.set(row.id, row.status);
    }
    tally.check(states.size === RECORDS, () => `${states.size} of ${RECORDS} drafts found after the restart`);
    for (const id of acknowledged) tally.check(states.get(id) === 'submitted', () => `acknowledged commit of ${id} lost (state ${states.get(id)})`);
    await pool([...states.keys()], 10, async (id) => {
      const flow = await call<FlowLogEntry[]>(sid, 'GET', `/r/demo-notice/flowLog/${id}`);
      const audit = await call<AuditEntry[]>(sid, 'GET', `/r/demo-notice/auditLog/${id}`);
      const committed = states.get(id) === 'submitted';
      const logged = flow.data!.some((e) => e.action === 'commit');
      const audited = audit.data!.some((e) => e.operation === 'commit');
      tally.check(committed === logged && logged === audited, () => `${id} half-moved: state ${states.get(id)}, flow log ${logged}, audit ${audited}`);
    });
    console.log(`durability (${target}): ${acknowledged.size} commits acknowledged before the kill, ${[...states.values()].filter((s) => s === 'submitted').length} committed after the restart`);
    expect(tally.sample()).toEqual([]);
  });
});
