/**
 * Cross-unit sweep: with both demo using units seeded, each unit's main account tries
 * every operation of every unit-owned resource on the other unit's rows — read, flow log, every
 * workflow action, delete, save of the owner's own copy, the list — and reads or changes nothing:
 * each is refused, no list shows the other's rows, and every row of the other unit is the same,
 * column for column, afterwards. Likewise each demo inspection body and maintenance unit on the
 * rows served by the other one and on rows no serving party sees (drafts, a unit's own records);
 * and a maintenance unit reads exactly the equipment of its active contracts, writing none of it.
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
/** The serving parties, two of each kind (inspection bodies, maintenance units): each tries the rows the other serves. */
const PARTIES = [
  { actor: 'nbjy', other: 'zjjy' },
  { actor: 'zjjy', other: 'nbjy' },
  { actor: 'wbadmin', other: 'gcwb' },
  { actor: 'gcwb', other: 'wbadmin' },
] as const;
type Account = (typeof PAIRS)[number]['actor'] | (typeof PARTIES)[number]['actor'];

describe.each(dbTargets())('cross-unit sweep (%s)', (target) => {
  const { app, session } = appSuite(target, {
    sessions: { nbadmin: 'nbadmin', bladmin: 'bladmin', nbjy: 'nbjy', zjjy: 'zjjy', wbadmin: 'wbadmin', gcwb: 'gcwb' },
  });
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
    for (const { actor, other } of PARTIES) {
      const otherUnit = await unitOf(other);
      for (const { model } of served) {
        const column = model.party!.column!;
        const states = model.party!.states ?? statesOfRole(model.workflow, model.party!.roleType);
        // Rows the other party serves, and rows no party may see (drafts, rows naming no party).
        const theirs = (await sql<Row>`SELECT * FROM ${sql.table(model.table)} WHERE ${sql.ref(column)} = ${otherUnit} ORDER BY id LIMIT 3`.execute(app.db))
          .rows;
        const unseen = (
          await sql<Row>`SELECT * FROM ${sql.table(model.table)} WHERE status NOT IN (${sql.join(states)}) OR ${sql.ref(column)} IS NULL ORDER BY id LIMIT 3`.execute(
            app.db,
          )
        ).rows;
        for (const rows of [theirs, unseen]) {
          if (rows.length === 0) continue;
          covered++;
          const ownerSid = session[rows[0].unit_id === secondUnit ? 'bladmin' : 'nbadmin'];
          await tryEverything(actor, ownerSid, model, rows, ops);
        }
      }
    }
    // Online inspection applications, report re-issues, maintenance contracts and records: rows of the other party and drafts.
    expect(covered).toBeGreaterThanOrEqual(12);
    expect(tally.sample()).toEqual([]);
  });

  it('a maintenance unit reads exactly the equipment of its active contracts and writes none of it', async () => {
    const equipment = (app.resources as Map<string, CompiledResource>).get('equipment')!.model;
    let seen = 0;
    for (const actor of ['wbadmin', 'gcwb'] as const) {
      const unit = await unitOf(actor);
      const { rows: listed } = await sql<{ id: string }>`
        SELECT DISTINCT i.equipment AS id FROM maintenance_contract_item i JOIN maintenance_contract c ON c.id = i.parent_id
        WHERE c.maintenance_account_id = ${unit} AND c.status = 'active'`.execute(app.db);
      const mine = new Set(listed.map((r) => r.id));
      expect(mine.size).toBeGreaterThan(0);
      seen += mine.size;
      const list = await call(session[actor], 'GET', api('/r/equipment/list'), undefined);
      const page = list.json?.data as { list: Row[]; count: number } | undefined;
      tally.check(page?.count === mine.size, () => `${actor} lists ${page?.count} pieces of equipment, its active contracts hold ${mine.size}`);
      tally.check(!!page && page.list.every((r) => mine.has(String(r.id))), () => `${actor} lists equipment outside its contracts`);
      // The listed pieces: readable, never written.
      const [one] = listed;
      const before = (await sql<Row>`SELECT * FROM equipment WHERE id = ${one.id}`.execute(app.db)).rows;
      const got = await call(session[actor], 'GET', api(`/r/equipment/get/${one.id}`));
      tally.check(got.json?.result === 'true', () => `${actor} cannot read equipment of its own contract`);
      const saved = await call(session[actor], 'POST', api('/r/equipment/save'), { ...(got.json?.data as object), equipmentName: '维保单位改名' });
      tally.check(saved.json?.result === 'false', () => `${actor} saved equipment of its contract`);
      const removed = await call(session[actor], 'POST', api(`/r/equipment/delete/${one.id}`), {});
      tally.check(removed.json?.result === 'false', () => `${actor} deleted equipment of its contract`);
      tally.check(
        JSON.stringify((await sql<Row>`SELECT * FROM equipment WHERE id = ${one.id}`.execute(app.db)).rows) === JSON.stringify(before),
        () => `${actor} changed equipment of its contract`,
      );
      // Every other piece of both using units does not exist for it.
      const others = (
        await sql<Row>`SELECT * FROM equipment WHERE id NOT IN (${sql.join([...mine])}) AND unit_id IN (${await unitOf('nbadmin')}, ${await unitOf('bladmin')}) ORDER BY id LIMIT 3`.execute(
          app.db,
        )
      ).rows;
      const ops = await documentedOperations(app);
      await tryEverything(actor, session[others[0].unit_id === (await unitOf('bladmin')) ? 'bladmin' : 'nbadmin'], equipment, others, ops);
    }
    expect(seen).toBeGreaterThan(1);
    expect(tally.sample()).toEqual([]);
  });
});
