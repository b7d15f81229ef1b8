/**
 * Cross-unit sweep: with both demo using units seeded, each unit's main account tries
 * every operation of every unit-owned resource on the other unit's rows — read, flow log, every
 * workflow action, delete, save of the owner's own copy, the list — and reads or changes nothing:
 * each is refused, no list shows the other's rows, and every row of the other unit is the same,
 * column for column, afterwards.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import type { CompiledResource } from '../../src/server/resources/records';
import { api, appSuite, dbTargets } from '../api/helpers';
import { documentedOperations, fillPath, Tally } from './support';

type Row = Record<string, unknown>;
const PAIRS = [
  { actor: 'nbadmin', owner: 'bladmin' },
  { actor: 'bladmin', owner: 'nbadmin' },
] as const;

describe.each(dbTargets())('cross-unit sweep (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { nbadmin: 'nbadmin', bladmin: 'bladmin' } });
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

  it('no unit reads or changes a row of the other, through any operation', async () => {
    const resources = [...(app.resources as Map<string, CompiledResource>).values()].filter((r) => r.model.ownerColumn === 'unit_id');
    const ops = await documentedOperations(app);
    let covered = 0;
    for (const { actor, owner } of PAIRS) {
      const ownerUnit = await unitOf(owner);
      const sid = session[actor];
      for (const { model } of resources) {
        const before = await rowsOf(model.table, ownerUnit);
        if (before.length === 0) continue;
        covered++;
        const theirs = before.slice(0, 3);
        const byId = ops.filter((op) => op.path.startsWith(api(`/r/${model.name}/`)) && op.path.endsWith('/{id}'));
        for (const row of theirs) {
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
          // The owner's own copy, saved by the other unit, must not overwrite the row.
          const own = await call(session[owner], 'GET', api(`/r/${model.name}/get/${id}`));
          if (own.json?.result === 'true' && own.json.data && typeof own.json.data === 'object') {
            const res = await call(sid, 'POST', api(`/r/${model.name}/save`), own.json.data);
            tally.check(res.json?.result === 'false', () => `${actor} saved ${model.name} ${id}: ${res.status} ${res.body.slice(0, 80)}`);
          }
        }
        const list = await call(sid, 'GET', api(`/r/${model.name}/list`), undefined);
        const listed = JSON.stringify(list.json?.data ?? '');
        tally.check(!before.some((r) => listed.includes(String(r.id))), () => `${actor} lists rows of ${owner}'s ${model.name}`);
        const after = await rowsOf(model.table, ownerUnit);
        tally.check(JSON.stringify(after) === JSON.stringify(before), () => `${owner}'s ${model.name} rows changed by ${actor}`);
      }
    }
    // Both units have rows in most unit-owned resources (the demo seeds both).
    expect(covered).toBeGreaterThanOrEqual(20);
    expect(tally.sample()).toEqual([]);
  });
});
