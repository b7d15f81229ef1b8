/**
 * Cross-unit sweep: with both demo using units seeded, each unit's main account tries
 * every operation of every unit-owned resource on the other unit's rows — read, flow log, every
 * workflow action, delete, save of the owner's own copy, the list — and reads or changes nothing:
 * each is refused, no list shows the other's rows, and every row of the other unit is the same,
 * column for column, afterwards. Likewise each demo inspection body on the rows routed to the
 * other body and on rows no serving party sees (drafts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statesOfRole } from '../../src/schema/workflow-rules';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import type { CompiledResource } from '../../src/server/resources/records';
import { api, appSuite, dbTargets } from '../api/helpers';
import { documentedOperations, fillPath, Tally } from './support';

type Row = Record<string, unknown>;
const PAIRS = [
  { actor: 'nbadmin', owner: 'bladmin' },
  { actor: 'bladmin', owner: 'nbadmin' },
] as const;
/** The two demo inspection bodies: each tries the rows routed to the other. */
type Account = (typeof PAIRS)[number]['actor'] | 'nbjy' | 'zjjy';
const BODIES = [
  { actor: 'nbjy', other: 'zjjy' },
  { actor: 'zjjy', other: 'nbjy' },
] as const;

describe.each(dbTargets())('cross-unit sweep (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { nbadmin: 'nbadmin', bladmin: 'bladmin', nbjy: 'nbjy', zjjy: 'zjjy' } });
  const tally = new Tally(`cross-unit (${target})`);
  afterAll(() => console.log(tally.line()));

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 8, secondEquipment: 6 });
  });

  const unitOf = async (loginName: string) =>
    (await sql<{ unit_id: string }>`SELECT u.unit_id FROM sys_user u WHERE u.login_name = ${loginName}`.execute(app.db)).rows[0].unit_id;
  const rowsOf = async (table: string, unitId: string) =>
    (await sql<Row>`SELECT * FROM ${sql.table(table)} WHERE unit_id = ${unitId} ORDER BY id`.execute(app.db)).rows;
  const call = async (sid: string, method: 'GET' | 'POST', url: string, payload?: object) => {
    tally.requests++;
    const res = await app.inject({ method, url, query: { __sid: sid }, ...(payload ? { payload } : {}) });
    const json = String(res.headers['content-type'] ?? '').includes('json') ? res.json<{ result?: string; data?: unknown }>() : null;
    return { status: res.statusCode, json, body: res.body };
  };

  /**
   * Tries every by-id operation of `model` on `rows` (none of them the actor's), a save of the owner's
   * own copy and the list, as `actor`; every one must be refused and no row may change.
   */
  async function tryEverything(
    actor: Account,
    ownerSid: string,
    model: CompiledResource['model'],
    rows: Row[],
    ops: Awaited<ReturnType<typeof documentedOperations>>,
  ) {
    const sid = session[actor];
    const byId = ops.filter((op) => op.path.startsWith(api(`/r/${model.name}/`)) && op.path.endsWith('/{id}'));
    const snapshot = async () =>
      (await sql<Row>`SELECT * FROM ${sql.table(model.table)} WHERE id IN (${sql.join(rows.map((r) => String(r.id)))}) ORDER BY id`.execute(app.db)).rows;
    const before = await snapshot();
    for (const row of rows.slice(0, 3)) {
      const id = String(row.id);
      for (const op of byId) {
        const res = await call(
          sid,
          op.method === 'GET' ? 'GET' : 'POST',
          fillPath(op.path, id),
          op.method === 'GET' ? undefined : { version: row.version, opinion: '跨单位' },
        );
        tally.check(res.json?.result === 'false', () => `${actor} ${op.method} ${fillPath(op.path, id)}: answered ${res.status} ${res.body.slice(0, 80)}`);
        tally.check(!res.body.includes(id) || res.json?.result === 'false', () => `${actor} read ${model.name} ${id}`);
      }
      // The owner's own copy, saved by the actor, must not overwrite the row.
      const own = await call(ownerSid, 'GET', api(`/r/${model.name}/get/${id}`));
      if (own.json?.result === 'true' && own.json.data && typeof own.json.data === 'object') {
        const res = await call(sid, 'POST', api(`/r/${model.name}/save`), own.json.data);
        tally.check(res.json?.result === 'false', () => `${actor} saved ${model.name} ${id}: ${res.status} ${res.body.slice(0, 80)}`);
      }
    }
    const list = await call(sid, 'GET', api(`/r/${model.name}/list`), undefined);
    const listed = JSON.stringify(list.json?.data ?? '');
    tally.check(!rows.some((r) => listed.includes(String(r.id))), () => `${actor} lists rows of ${model.name} that are not its own`);
    tally.check(JSON.stringify(await snapshot()) === JSON.stringify(before), () => `${model.name} rows changed by ${actor}`);
  }

  it('no unit reads or changes a row of the other, through any operation', async () => {
    const resources = [...(app.resources as Map<string, CompiledResource>).values()].filter((r) => r.model.ownerColumn === 'unit_id');
    const ops = await documentedOperations(app);
    let covered = 0;
    for (const { actor, owner } of PAIRS) {
      const ownerUnit = await unitOf(owner);
      for (const { model } of resources) {
        const theirs = await rowsOf(model.table, ownerUnit);
        if (theirs.length === 0) continue;
        covered++;
        await tryEverything(actor, session[owner], model, theirs, ops);
      }
    }
    // Both units have rows in most unit-owned resources (the demo seeds both).
    expect(covered).toBeGreaterThanOrEqual(20);
    expect(tally.sample()).toEqual([]);
  });

  it('no serving party reads or changes a row served by another party, or a draft', async () => {
    const served = [...(app.resources as Map<string, CompiledResource>).values()].filter((r) => r.model.party?.column);
    const ops = await documentedOperations(app);
    let covered = 0;
    const secondUnit = await unitOf('bladmin');
    for (const { actor, other } of BODIES) {
      const otherUnit = await unitOf(other);
      for (const { model } of served) {
        const column = model.party!.column!;
        const states = model.party!.states ?? statesOfRole(model.workflow, model.party!.roleType);
        // Rows the other party serves, and rows no party may see yet (drafts and the like).
        const theirs = (await sql<Row>`SELECT * FROM ${sql.table(model.table)} WHERE ${sql.ref(column)} = ${otherUnit} ORDER BY id LIMIT 3`.execute(app.db))
          .rows;
        const unseen = (await sql<Row>`SELECT * FROM ${sql.table(model.table)} WHERE status NOT IN (${sql.join(states)}) ORDER BY id LIMIT 3`.execute(app.db))
          .rows;
        for (const rows of [theirs, unseen]) {
          if (rows.length === 0) continue;
          covered++;
          const ownerSid = session[rows[0].unit_id === secondUnit ? 'bladmin' : 'nbadmin'];
          await tryEverything(actor, ownerSid, model, rows, ops);
        }
      }
    }
    // Online inspection applications and report re-issues, each with rows of the other body and drafts.
    expect(covered).toBeGreaterThanOrEqual(4);
    expect(tally.sample()).toEqual([]);
  });
});
