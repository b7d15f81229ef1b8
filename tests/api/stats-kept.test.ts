/**
 * Kept counts (resource `keptCounts`, src/server/resources/kept-counts.ts) on the demo equipment:
 * the statistics screen's requests (设备统计: totals, cards, district × category, categories, the
 * overdue rates) answer exactly what counting the rows answers — for the city authority, a district
 * authority and a using unit — and the kept table equals the table's GROUP BY after inserts, edits
 * that move rows between groups (one row and many in one statement), deletes, through the API and
 * in plain SQL.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CompiledResource } from '../../src/server/resources/records';
import { appSuite, call, dbTargets } from './helpers';

const R = '/r/equipment';
const KEPT = ['unit_id', 'area_code', 'location_area', 'equclacode', 'use_status', 'last_conclusion'].join(', ');

/** The requests of the 设备统计 screen (schemas/screens/area-stats-equipment.json) and a few more. */
const REQUESTS: Record<string, unknown>[] = [
  {},
  { useStatus: '1' },
  { lastConclusion: '3' },
  { useStatus: '1', nextInspectionDate_lte: 'today-1d' },
  { useStatus: '1', nextInspectionDate_gte: 'today', nextInspectionDate_lte: 'today+30d' },
  { groupBy: 'locationArea', stackBy: 'equclacode' },
  { groupBy: 'equclacode' },
  { groupBy: 'locationArea', useStatus: '1' },
  { groupBy: 'locationArea', useStatus: '1', nextInspectionDate_lte: 'today-1d' },
  { groupBy: 'equclacode', useStatus: '1', nextInspectionDate_lte: 'today-1d' },
  { groupBy: 'equclacode', useStatus: ['1', '2'] },
  { groupBy: 'useStatus', locationArea: ['330212', '330203'], equclacode: '3000' },
  { groupBy: 'lastConclusion', stackBy: 'useStatus', locationArea: '330212' },
  { groupBy: 'equclacode', q: '测试' },
];

describe.each(dbTargets())('stats: kept counts (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { authority: 'jgadmin', district: 'yzjg', unit: 'nbadmin', other: 'bladmin' } });
  let equipment: CompiledResource;

  /** Pieces of two units: district, category, use status. */
  const ROWS: Record<'unit' | 'other', [string, string, string][]> = {
    unit: [
      ['330212', '3000', '1'],
      ['330212', '3000', '1'],
      ['330212', '4000', '1'],
      ['330212', '4000', '2'],
      ['330203', '3000', '2'],
      ['330203', '1000', '1'],
      ['330203', '2000', '1'],
    ],
    other: [
      ['330206', '3000', '1'],
      ['330206', '2000', '1'],
      ['330206', '2000', '0'],
      ['330212', '2000', '1'],
      ['330212', '1000', '1'],
    ],
  };

  beforeAll(async () => {
    equipment = app.resources.get('equipment')!;
    for (const who of ['unit', 'other'] as const)
      for (const [locationArea, equclacode, useStatus] of ROWS[who]) await save(session[who], { locationArea, equclacode, useStatus });
    // Some overdue, some due later, some failed at their last inspection (in one statement each).
    await sql`UPDATE equipment SET next_inspection_date = CASE WHEN equclacode IN ('3000', '1000') THEN DATE '2020-01-10' ELSE DATE '2099-01-01' END`.execute(
      app.db,
    );
    await sql`UPDATE equipment SET last_conclusion = CASE WHEN equclacode = '4000' THEN '3' ELSE '1' END WHERE location_area = '330212'`.execute(app.db);
  });

  const save = async (sid: string, fields: Record<string, unknown>) => {
    const res = await call<{ id: string }>(app, sid, 'POST', `${R}/save`, { equipmentName: '统计测试设备', address: '测试路1号', ...fields });
    expect(res.body.result, JSON.stringify(res.body)).toBe('true');
    return res.body.data!.id;
  };

  const stats = async (sid: string, data: Record<string, unknown>) => {
    const res = await call(app, sid, 'POST', `${R}/stats`, data);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

  /** Every request, for every session, answered from the kept counts and by counting the rows: the same. */
  async function sameAnswers(): Promise<void> {
    const kept = equipment.kept;
    for (const sid of Object.values(session)) {
      for (const data of REQUESTS) {
        const answered = await stats(sid, data);
        equipment.kept = undefined;
        try {
          expect(answered, JSON.stringify(data)).toEqual(await stats(sid, data));
        } finally {
          equipment.kept = kept;
        }
      }
    }
  }

  /** The kept table holds, for every combination, the number of rows (zero rows aside). */
  async function keptMatchesRows(): Promise<void> {
    const differ = sql.raw(`
      SELECT count(*)::int AS count FROM (
        (SELECT ${KEPT}, count(*) AS n FROM equipment GROUP BY ${KEPT} EXCEPT SELECT ${KEPT}, n FROM equipment_kept_counts WHERE n <> 0)
        UNION ALL
        (SELECT ${KEPT}, n FROM equipment_kept_counts WHERE n <> 0 EXCEPT SELECT ${KEPT}, count(*) FROM equipment GROUP BY ${KEPT})
      ) AS d`);
    const { rows } = await differ.execute(app.db);
    expect((rows[0] as { count: number }).count).toBe(0);
  }

  it('keeps the counts of the equipment (declared keptCounts)', async () => {
    expect(equipment.kept?.columns).toEqual(KEPT.split(', '));
    expect(((await stats(session.authority, {})) as { total: number }).total).toBeGreaterThan(10);
    await keptMatchesRows();
    await sameAnswers();
  });

  it('stays exact through API saves, edits that move rows, and deletes', async () => {
    const a = await save(session.unit, { locationArea: '330212', equclacode: '3000', useStatus: '1', nextInspectionDate: '2020-01-10' });
    const b = await save(session.unit, { locationArea: '330203', equclacode: '4000', useStatus: '2' });
    await save(session.other, { locationArea: '330206', equclacode: '2000', useStatus: '1', nextInspectionDate: '2020-02-01' });
    await keptMatchesRows();
    await sameAnswers();
    // An edit through the API that moves a row to another district and status.
    const row = await call<Record<string, unknown>>(app, session.unit, 'GET', `${R}/get/${a}`);
    const edit = await call(app, session.unit, 'POST', `${R}/save`, { ...row.body.data, locationArea: '330203', useStatus: '2' });
    expect(edit.body.result, JSON.stringify(edit.body)).toBe('true');
    expect((await call(app, session.unit, 'POST', `${R}/delete/${b}`)).body.result).toBe('true');
    await keptMatchesRows();
    await sameAnswers();
  });

  it('stays exact through multi-row statements in plain SQL', async () => {
    await sql`UPDATE equipment SET use_status = CASE use_status WHEN '1' THEN '2' ELSE '1' END, last_conclusion = '3' WHERE location_area = '330212'`.execute(
      app.db,
    );
    await sql`UPDATE equipment SET equipment_name = equipment_name || '改'`.execute(app.db);
    await keptMatchesRows();
    await sameAnswers();
    await app.db.transaction().execute(async (trx) => {
      await sql`UPDATE equipment SET location_area = '330206' WHERE equclacode = '3000'`.execute(trx);
      await sql`DELETE FROM equipment WHERE equclacode = '2000'`.execute(trx);
    });
    await keptMatchesRows();
    await sameAnswers();
  });

  it('answers the grouped and dictionary-filtered requests from the kept table, date ranges by counting', async () => {
    const before = await stats(session.authority, {});
    const overdue = await stats(session.authority, { useStatus: '1', nextInspectionDate_lte: 'today-1d' });
    // A kept count off by 1000 shows which answers read it (then put back).
    const bump = async (d: number) => {
      const { numAffectedRows } =
        await sql`UPDATE equipment_kept_counts SET n = n + ${d} WHERE ctid = (SELECT ctid FROM equipment_kept_counts WHERE area_code LIKE '3302%' AND n > 0 LIMIT 1)`.execute(
          app.db,
        );
      expect(numAffectedRows).toBe(1n);
    };
    await bump(1000);
    try {
      expect(await stats(session.authority, {})).toEqual({ total: (before as { total: number }).total + 1000 });
      expect(await stats(session.authority, { useStatus: '1', nextInspectionDate_lte: 'today-1d' })).toEqual(overdue);
    } finally {
      await bump(-1000);
    }
  });
});
