/**
 * Bulk loads: COPY (db/copy.ts) writes every kind of value as a parameterised INSERT
 * would, and the bulk equipment seed by COPY gives the same records as the former multi-row
 * INSERT path — listed by the API, counted, with derived deadlines, owner and audit columns, and
 * the table's indexes built again after a load that deferred them.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { copyRows } from '../../src/server/db/copy';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { bulkEquipment } from '../../src/server/domain/equipment/seed';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';

interface Listed {
  id: string;
  equcode: string;
  unitId: string;
  nextInspectionDate: string | null;
}

/** Columns that depend on the row's number or the moment it was written, not on how it was written. */
const PER_ROW = ['id', 'equcode', 'registration_code', 'internal_no', 'use_cert_no', 'created_at', 'updated_at'];

describe.each(dbTargets())('bulk loads (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin' } });
  const list = async (query: Record<string, string> = {}) => {
    const { body } = await call<Page<Listed>>(app, session.unit, 'GET', '/r/equipment/list', { pageSize: '20', ...query });
    expect(body.result, body.message).toBe('true');
    return body.data!;
  };

  it('copies text with separators, arrays, JSON, booleans, dates, numbers and nulls unchanged, in chunks', async () => {
    await sql`CREATE TABLE copy_probe (n integer, t text, a text[], j jsonb, b boolean, d date, x numeric)`.execute(app.db);
    const rows = [
      [1, 'tab\there, line\nbreak, cr\rand back\\slash', ['a', 'b,c', 'd"e', 'f\\g', null, '中文'], [{ name: '附件.pdf', url: '' }], true, '2026-02-28', 12.5],
      [2, '\\N is text, not null', [], { nested: { list: [1, 'two'] } }, false, '1999-12-31', -0.001],
      [3, null, null, null, null, null, null],
      [4, '', ['{braces}', ' spaced '], [], true, '2026-01-01', 0],
      [5, '单位名称（宁波）', ['x'], 'a JSON string', false, '2030-06-15', 1e6],
    ];
    // Batches of 3 and 2 rows, copied in chunks of 2: chunks cross batches.
    const count = await copyRows(app.db, 'copy_probe', ['n', 't', 'a', 'j', 'b', 'd', 'x'], [rows.slice(0, 3), rows.slice(3)], {
      jsonColumns: new Set(['j']),
      chunkRows: 2,
    });
    expect(count).toBe(rows.length);
    const { rows: stored } = await sql<
      Record<string, unknown>
    >`SELECT n, t, a, j, b, to_char(d, 'YYYY-MM-DD') AS d, x::float8 AS x FROM copy_probe ORDER BY n`.execute(app.db);
    expect(stored.map((r) => [r.n, r.t, r.a, r.j, r.b, r.d, r.x])).toEqual(rows);
  });

  it('seeds equipment by COPY as the multi-row INSERT path does: listed, counted, same prepared values, indexes rebuilt', async () => {
    const before = Number((await list()).count);
    const indexes = async () =>
      (await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'equipment' ORDER BY 1`.execute(app.db)).rows.map((r) => r.name);
    const indexesBefore = await indexes();
    const size = 300;
    expect(await bulkEquipment(app, size, { seed: 7, method: 'insert' })).toBe(size);
    // As many rows as the table has: this load defers the indexes (drops and builds them again).
    expect(await bulkEquipment(app, before + size, { seed: 7 })).toBe(before + size);
    expect(await indexes()).toEqual(indexesBefore);

    const page = await list();
    expect(page.count).toBe(2 * (before + size));
    expect(page.list.every((r) => r.unitId === DEMO_UNITS.using.id)).toBe(true);
    // A copied row is found through the rebuilt trigram index of the search fields.
    const { rows: copied } = await sql<{ id: string; equcode: string }>`SELECT id, equcode FROM equipment ORDER BY right(equcode, 6) DESC LIMIT 1`.execute(
      app.db,
    );
    const found = await list({ q: copied[0].equcode });
    expect(found.list.map((r) => r.id)).toContain(copied[0].id);

    // Row i of each load comes from the same generated body (same PRNG seed): all but the per-row columns agree.
    const { rows: all } = await sql<Record<string, unknown>>`SELECT * FROM equipment ORDER BY right(equcode, 6)::int`.execute(app.db);
    const comparable = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !PER_ROW.includes(k)));
    const inserted = all.slice(before, before + size);
    const viaCopy = all.slice(before + size, before + 2 * size);
    expect(viaCopy.map(comparable)).toEqual(inserted.map(comparable));
    expect(viaCopy.filter((r) => r.next_inspection_date !== null).length).toBeGreaterThan(size / 2);
    expect(
      viaCopy.every((r) => r.created_by && r.updated_by === r.created_by && r.created_at && r.version === 1 && r.area_code === DEMO_UNITS.using.areacode),
    ).toBe(true);
    expect(new Set(viaCopy.map((r) => r.id)).size).toBe(size);
  });
});
