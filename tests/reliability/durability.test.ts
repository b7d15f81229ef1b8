/**
 * Durability: the real server (the README's start path) takes concurrent workflow steps
 * and is killed with SIGKILL part-way, then started again on the same data — the embedded PGlite
 * directory, and PostgreSQL when DATABASE_URL is set. Two runs: 1,000 commits of a plain record, and
 * 300 approvals whose effect writes another record (a use registration's approval issues a
 * certificate number and puts its equipment in use). Every step the server acknowledged is there; no
 * record is half-moved: its state, its flow log entry, its audit log entry and the effect on the other
 * record are all present or all absent; no certificate number is issued twice; the data directory
 * opens again.
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
const APPROVALS = 300;
const APPROVALS_KILL_AFTER = 100;

type Row = { id: string; version: number; status: string } & Record<string, unknown>;

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

  /** Starts the server on the suite's data (unless it runs) and signs `loginName` in. */
  const start = async (loginName = 'nbadmin') => {
    database ??= target === 'pg' ? await freshPostgresDatabase() : null;
    server ??= await startServer({ dataDir, env: database ? { DATABASE_URL: database.url } : {} });
    const { reply } = await logInOver(server.baseURL, loginName);
    expect(reply.result).toBe('true');
    return reply.data!.sessionid;
  };
  const call = async <T>(sid: string, method: 'GET' | 'POST', path: string, body?: object): Promise<Envelope<T>> => {
    tally.requests++;
    const res = await fetch(`${server!.baseURL}/espServer${path}?__sid=${sid}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as Envelope<T>;
  };
  const ok = async <T>(sid: string, path: string, body: object = {}): Promise<T> => {
    const reply = await call<T>(sid, 'POST', path, body);
    if (reply.result !== 'true') throw new Error(`${path}: ${reply.message}`);
    return reply.data!;
  };

  /**
   * Runs `step` over `rows` (at most CONCURRENCY at once) and kills the server with SIGKILL once
   * `killAfter` steps were acknowledged. Returns the acknowledged ids; `start()` opens the same data again.
   */
  const killDuring = async (rows: readonly Row[], killAfter: number, step: (row: Row) => Promise<Envelope<Row>>): Promise<Set<string>> => {
    const acknowledged = new Set<string>();
    let killed = false;
    const killing = (async () => {
      while (acknowledged.size < killAfter) await new Promise((r) => setTimeout(r, 5));
      killed = true;
      await server!.kill();
      server = null;
    })();
    await pool(
      rows,
      CONCURRENCY,
      async (row) => {
        try {
          if ((await step(row)).result === 'true') acknowledged.add(row.id);
        } catch {
          // The connection died with the server: not acknowledged, may or may not have been applied.
        }
      },
      () => killed,
    );
    await killing;
    expect(acknowledged.size).toBeGreaterThanOrEqual(killAfter);
    expect(acknowledged.size).toBeLessThan(rows.length);
    return acknowledged;
  };

  /** Every row of `resource` whose `field` starts with `prefix`, read page by page. */
  const rowsOf = async (sid: string, resource: string, field: string, prefix: string): Promise<Map<string, Row>> => {
    const rows = new Map<string, Row>();
    for (let pageNo = 1; ; pageNo++) {
      const page = await call<{ list: Row[] }>(sid, 'POST', `/r/${resource}/list`, { pageNo, pageSize: 200 });
      expect(page.result).toBe('true');
      if (page.data!.list.length === 0) return rows;
      for (const row of page.data!.list) if (String(row[field] ?? '').startsWith(prefix)) rows.set(row.id, row);
    }
  };

  /** Whether `id` of `resource` has the flow log and audit entries of `action`. */
  const logged = async (sid: string, resource: string, id: string, action: string) => {
    const flow = await call<FlowLogEntry[]>(sid, 'GET', `/r/${resource}/flowLog/${id}`);
    const audit = await call<AuditEntry[]>(sid, 'GET', `/r/${resource}/auditLog/${id}`);
    return { flow: flow.data!.some((e) => e.action === action), audit: audit.data!.some((e) => e.operation === action) };
  };

  it('keeps every acknowledged commit, and no record half-moved, across a kill and a restart', { timeout: 600_000 }, async () => {
    let sid = await start();
    const prefix = `耐久测试 ${target} `;
    const drafts: Row[] = [];
    await pool(
      Array.from({ length: RECORDS }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        drafts.push(await ok<Row>(sid, '/r/demo-notice/save', { title: `${prefix}${i}`, content: '正文' }));
      },
    );

    const acknowledged = await killDuring(drafts, KILL_AFTER, (row) => call<Row>(sid, 'POST', `/r/demo-notice/commit/${row.id}`, { version: row.version }));

    // The same data directory (or database) opens again.
    sid = await start();
    const rows = await rowsOf(sid, 'demo-notice', 'title', prefix);
    tally.check(rows.size === RECORDS, () => `${rows.size} of ${RECORDS} drafts found after the restart`);
    for (const id of acknowledged) tally.check(rows.get(id)?.status === 'submitted', () => `acknowledged commit of ${id} lost (state ${rows.get(id)?.status})`);
    await pool([...rows.keys()], 10, async (id) => {
      const committed = rows.get(id)!.status === 'submitted';
      const { flow, audit } = await logged(sid, 'demo-notice', id, 'commit');
      tally.check(committed === flow && flow === audit, () => `${id} half-moved: state ${rows.get(id)!.status}, flow log ${flow}, audit ${audit}`);
    });
    console.log(
      `durability (${target}): ${acknowledged.size} commits acknowledged before the kill, ${[...rows.values()].filter((r) => r.status === 'submitted').length} committed after the restart`,
    );
    expect(tally.sample()).toEqual([]);
  });

  it('keeps every acknowledged approval and its effect on the equipment together, across a kill and a restart', { timeout: 600_000 }, async () => {
    const from = tally.failures.length;
    let unit = await start('nbadmin');
    let authority = await start('jgadmin');
    const prefix = `耐久设备 ${target} `;
    const accepted: Row[] = [];
    await pool(
      Array.from({ length: APPROVALS }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const equipment = await ok<Row>(unit, '/r/equipment/save', {
          equipmentName: `${prefix}${i}`,
          equclacode: '3000',
          subCategory: '3100',
          useStatus: '0',
          locationArea: '330212',
          address: '宁波市鄞州区耐久路1号',
        });
        const application = await ok<Row>(unit, '/r/use-regist-apply/save', {
          registMode: 'regBySets',
          useUnitName: '耐久测试单位',
          contactPerson: '张三',
          contactMobile: '13805741234',
          useStartDate: '2026-11-01',
          locationArea: '330212',
          applyForm: [{ name: '使用登记表.pdf', url: '/files/x' }],
          isCommit: true,
          items: [{ equipment: equipment.id, equclacode: '3000', subCategory: '3100', equipmentName: `${prefix}${i}` }],
        });
        accepted.push({ ...(await ok<Row>(authority, `/r/use-regist-apply/accept/${application.id}`)), equipmentId: equipment.id });
      },
    );

    const acknowledged = await killDuring(accepted, APPROVALS_KILL_AFTER, (row) =>
      call<Row>(authority, 'POST', `/r/use-regist-apply/audit-agree/${row.id}`, { version: row.version, opinion: '同意' }),
    );

    unit = await start('nbadmin');
    authority = await start('jgadmin');
    const equipment = await rowsOf(unit, 'equipment', 'equipmentName', prefix);
    tally.check(equipment.size === APPROVALS, () => `${equipment.size} of ${APPROVALS} pieces of equipment found after the restart`);
    const issued = new Map<string, string>();
    let approved = 0;
    await pool(accepted, 10, async ({ id, equipmentId }) => {
      const application = await ok<Row>(authority, `/r/use-regist-apply/get/${id}`);
      const target = equipment.get(String(equipmentId));
      const isApproved = application.status === 'approved';
      if (isApproved) approved++;
      if (acknowledged.has(id)) tally.check(isApproved, () => `acknowledged approval of ${id} lost (state ${application.status})`);
      const { flow, audit } = await logged(authority, 'use-regist-apply', id, 'audit-agree');
      const inUse = target?.useStatus === '1' && target.useCertNo === application.certNo && Boolean(application.certNo);
      const untouched = target?.useStatus === '0' && !target.useCertNo && !application.certNo;
      tally.check(
        isApproved ? flow && audit && inUse : !flow && !audit && untouched,
        () =>
          `${id} half-moved: state ${application.status}, flow log ${flow}, audit ${audit}, certificate ${String(application.certNo)}, equipment ${String(target?.useStatus)}/${String(target?.useCertNo)}`,
      );
      if (application.certNo) {
        const twice = issued.get(String(application.certNo));
        tally.check(twice === undefined, () => `certificate ${String(application.certNo)} issued to ${twice} and ${id}`);
        issued.set(String(application.certNo), id);
      }
    });
    console.log(`durability (${target}): ${acknowledged.size} approvals acknowledged before the kill, ${approved} approved after the restart`);
    expect(tally.sample(from)).toEqual([]);
  });
});
