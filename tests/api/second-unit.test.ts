/**
 * The second demo using unit (bladmin, 北仑区): seeded with its own equipment, it sees none of the
 * first unit's rows and the first sees none of its rows, in lists, reads and writes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import type { Envelope } from '../../src/shared/contract';
import { api, appSuite, dbTargets, withSession } from './helpers';

type Row = Record<string, unknown>;
type Page = { list: Row[]; count: number };

describe.each(dbTargets())('the second using unit (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { first: 'nbadmin', second: 'bladmin' } });

  const get = async <T>(sid: string, path: string, query: Record<string, string> = {}) =>
    (await withSession(app, sid, { method: 'GET', url: api(path), query })).json<Envelope<T>>();

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 6 });
  });

  it('logs in to its own unit, in another district', async () => {
    const unit = await get<{ id: string; orgname: string; areacode: string }>(session.second, '/a/stone/user/unit');
    expect(unit.data).toMatchObject({ orgname: DEMO_UNITS.second.orgname });
    expect(DEMO_UNITS.second.areacode).not.toBe(DEMO_UNITS.using.areacode);
  });

  it('lists only its own equipment, and the first unit only its own', async () => {
    const mine = await get<Page>(session.second, '/r/equipment/list', { pageSize: '100' });
    const theirs = await get<Page>(session.first, '/r/equipment/list', { pageSize: '100' });
    expect(mine.data!.count).toBe(7); // 6 seeded, plus the piece its approved first registration put in the registry
    expect(theirs.data!.count).toBeGreaterThanOrEqual(12); // plus pieces later seeds add (registration by unit)
    const mineIds = new Set(mine.data!.list.map((r) => r.id));
    expect(theirs.data!.list.some((r) => mineIds.has(r.id))).toBe(false);
  });

  it('cannot read or change a row of the first unit', async () => {
    const theirs = (await get<Page>(session.first, '/r/equipment/list', { pageSize: '1' })).data!.list[0];
    const read = await get<Row>(session.second, `/r/equipment/get/${String(theirs.id)}`);
    expect(read.result).toBe('false');
    const write = await withSession(app, session.second, { method: 'POST', url: api('/r/equipment/save'), payload: { ...theirs, equipmentName: '改名' } });
    expect(write.json<Envelope<unknown>>().result).toBe('false');
    const again = await get<Row>(session.first, `/r/equipment/get/${String(theirs.id)}`);
    expect(again.data!.equipmentName).toBe(theirs.equipmentName);
  });
});
