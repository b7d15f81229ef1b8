/**
 * The bulk seed of a city (`npm run seed -- --units U --equipment N`, domain/equipment/bulk-city.ts):
 * valid, distinct credit codes of the unit's district; units over several districts with their
 * profiles; every row owned by a generated unit and located in its district, states spread as the
 * demo rows spread them; the same seed gives the same units and rows; 辖区单位 counts them.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CITY_DISTRICTS, cityUnits } from '../../src/server/domain/equipment/bulk-city';
import { bulkEquipment } from '../../src/server/domain/equipment/seed';
import type { Page } from '../../src/shared/contract';
import { isValidUnifiedCreditCode } from '../../validators/identifiers';
import { appSuite, call, dbTargets } from './helpers';

const UNITS = 40;
const ROWS = 600;
const SEED = 5;

describe('generated city units', () => {
  it('are the same for a seed, with valid distinct credit codes of their district, over every district', () => {
    const units = cityUnits(10_000, SEED);
    expect(cityUnits(50, SEED)).toEqual(units.slice(0, 50));
    expect(cityUnits(50, SEED + 1).map((u) => u.orgname)).not.toEqual(units.slice(0, 50).map((u) => u.orgname));
    expect(units.every((u) => isValidUnifiedCreditCode(u.orgcode) && u.orgcode.slice(2, 8) === u.areacode)).toBe(true);
    expect(new Set(units.map((u) => u.orgcode)).size).toBe(units.length);
    expect(new Set(units.map((u) => u.id)).size).toBe(units.length);
    expect(new Set(units.map((u) => u.orgname)).size).toBe(units.length);
    expect(new Set(units.map((u) => u.areacode))).toEqual(new Set(CITY_DISTRICTS.map((d) => d.code)));
  });
});

type Projected = {
  unit_id: string;
  location_area: string;
  area_code: string;
  equclacode: string;
  equipment_name: string;
  use_status: string;
  next: string | null;
};

describe.each(dbTargets())('bulk city seed (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { city: 'jgadmin' } });
  const generated = cityUnits(UNITS, SEED);
  const ids = generated.map((u) => u.id);

  /** The generated units' rows not in `skip`, in the order they were drawn (the sequence in the code). */
  const rowsOf = async (skip: ReadonlySet<string> = new Set()) => {
    const { rows } = await sql<Projected & { id: string }>`
      SELECT id, unit_id, location_area, area_code, equclacode, equipment_name, use_status, to_char(next_inspection_date, 'YYYY-MM-DD') AS next
      FROM equipment WHERE unit_id = ANY(${ids}) ORDER BY right(equcode, 6)::int`.execute(app.db);
    return rows.filter((r) => !skip.has(r.id));
  };

  it('adds the units with profiles and spreads the rows over them, each in its unit district', async () => {
    let added = -1;
    expect(await bulkEquipment(app, ROWS, { units: UNITS, seed: SEED, onUnits: (n) => (added = n) })).toBe(ROWS);
    expect(added).toBe(UNITS);
    const { rows: units } = await sql<{ id: string; areacode: string; orgcode: string; profiles: number }>`
      SELECT u.id, u.areacode, u.orgcode, (SELECT count(*)::int FROM unit_profile p WHERE p.unit_id = u.id AND p.credit_code = u.orgcode) AS profiles
      FROM sys_unit u WHERE u.id = ANY(${ids})`.execute(app.db);
    expect(units.length).toBe(UNITS);
    expect(units.every((u) => u.profiles === 1)).toBe(true);
    const areaOf = new Map(units.map((u) => [u.id.trim(), u.areacode]));

    const rows = await rowsOf();
    expect(rows.length).toBe(ROWS);
    expect(rows.every((r) => r.location_area === areaOf.get(r.unit_id.trim()) && r.area_code === r.location_area)).toBe(true);
    expect(new Set(rows.map((r) => r.unit_id)).size).toBeGreaterThan(UNITS / 2);
    expect(new Set(rows.map((r) => r.location_area)).size).toBeGreaterThanOrEqual(5);
    // States as the demo rows have them: mostly 在用, some 停用/未登记, some overdue.
    const share = (test: (r: Projected) => boolean) => rows.filter(test).length / rows.length;
    expect(share((r) => r.use_status === '1')).toBeGreaterThan(0.8);
    expect(share((r) => r.use_status !== '1')).toBeGreaterThan(0.03);
    const today = new Date().toISOString().slice(0, 10);
    expect(share((r) => r.use_status === '1' && r.next !== null && r.next < today)).toBeGreaterThan(0.03);
  });

  it('gives the same rows for the same seed and adds no unit twice', async () => {
    const first = await rowsOf();
    let added = -1;
    await bulkEquipment(app, ROWS, { units: UNITS, seed: SEED, onUnits: (n) => (added = n) });
    expect(added).toBe(0);
    const second = await rowsOf(new Set(first.map((r) => r.id)));
    const strip = ({ id: _, ...rest }: Projected & { id: string }) => rest;
    expect(second.map(strip)).toEqual(first.map(strip));
  });

  it('shows the units in 辖区单位 with their equipment counts', async () => {
    const { body } = await call<Page<{ id: string; equipmentCount: number; district: string; industry: string | null }>>(
      app,
      session.city,
      'GET',
      '/r/area-unit/list',
      { pageSize: '100', orderBy: 'equipmentCount desc' },
    );
    expect(body.result, body.message).toBe('true');
    const { rows } = await sql<{
      unit_id: string;
      n: number;
    }>`SELECT unit_id, count(*)::int AS n FROM equipment WHERE unit_id = ANY(${ids}) GROUP BY unit_id`.execute(app.db);
    const listed = new Map(body.data!.list.map((u) => [u.id.trim(), u]));
    for (const r of rows) expect(listed.get(r.unit_id.trim())?.equipmentCount).toBe(r.n);
    expect(body.data!.list.filter((u) => ids.includes(u.id.trim())).every((u) => u.industry)).toBe(true);
  });

  it("keeps each unit's equipment count (area_unit_stats) through inserts, moves, edits and deletes; counts overdue exactly", async () => {
    const mismatches = async () =>
      (
        await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM sys_unit u
          LEFT JOIN area_unit_stats s ON s.unit_id = u.id
          LEFT JOIN (SELECT unit_id, count(*)::int AS n FROM equipment GROUP BY unit_id) e ON e.unit_id = u.id
          WHERE coalesce(s.equipment_count, 0) <> coalesce(e.n, 0)`.execute(app.db)
      ).rows[0].n;
    expect(await mismatches()).toBe(0);
    const [a, b] = ids;
    // Moves rows between units, edits others in place, deletes a few: one statement each, many rows.
    await sql`UPDATE equipment SET unit_id = ${b} WHERE id IN (SELECT id FROM equipment WHERE unit_id = ${a} ORDER BY id LIMIT 3)`.execute(app.db);
    await sql`UPDATE equipment SET remarks = 'checked' WHERE unit_id = ANY(${ids})`.execute(app.db);
    await sql`DELETE FROM equipment WHERE id IN (SELECT id FROM equipment WHERE unit_id = ANY(${ids}) ORDER BY id LIMIT 25)`.execute(app.db);
    expect(await mismatches()).toBe(0);

    const { rows: overdue } = await sql<{ id: string; overdue_count: number; has_overdue: boolean; n: number }>`
      SELECT v.id, v.overdue_count, v.has_overdue,
        (SELECT count(*)::int FROM equipment e WHERE e.unit_id = v.id AND e.use_status = '1' AND e.next_inspection_date < (now() AT TIME ZONE 'Asia/Shanghai')::date) AS n
      FROM area_unit_view v WHERE v.id = ANY(${ids})`.execute(app.db);
    expect(overdue.filter((r) => r.overdue_count !== r.n || r.has_overdue !== r.n > 0)).toEqual([]);
    expect(overdue.some((r) => r.n > 0)).toBe(true);
  });
});
