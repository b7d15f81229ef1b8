/**
 * The embedded database's reads run as named prepared statements (src/server/db/pglite-reads.ts
 * PreparedReads): the same answers as PGlite's own `query`, parameters of every kind, a statement
 * kept across a change of its table's shape, more statements than are kept, and a failed read
 * leaving the connection usable.
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteDialect } from '../../src/server/db/pglite';

describe('prepared reads on the embedded database', () => {
  const pg = new PGlite('memory://');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a throw-away schema
  const db = new Kysely<any>({ dialect: new PgliteDialect(pg, { keepOpen: true }) });

  beforeAll(async () => {
    await sql`CREATE TABLE t (id int PRIMARY KEY, name text, tags text[], born date, at timestamptz, price numeric, ok boolean, doc jsonb)`.execute(db);
    await sql`INSERT INTO t VALUES (1, 'a', '{x,y}', '2024-01-02', '2024-01-02T03:04:05Z', 12.5, true, '{"k":1}'), (2, 'b', '{z}', NULL, NULL, NULL, false, NULL)`.execute(
      db,
    );
  });
  afterAll(async () => {
    await db.destroy();
    await pg.close();
  });

  it('answers as PGlite’s own query does, for parameters and results of every kind', async () => {
    const text = 'SELECT * FROM t WHERE id = ANY($1::int[]) AND (name = $2 OR $2 IS NULL) AND born IS DISTINCT FROM $3 AND ok = $4 ORDER BY id';
    for (const params of [
      [[1, 2], null, null, true],
      [[1, 2], 'b', '2024-01-02', false],
      [[3], 'a', null, true],
    ]) {
      const direct = await pg.query(text, params);
      const viaDriver = await db.executeQuery({ sql: text, parameters: params, query: { kind: 'RawNode' } as never, queryId: { queryId: 'x' } });
      expect(viaDriver.rows).toEqual(direct.rows);
    }
    // Twice more: the kept statement answers the same.
    const again = await sql<{ name: string }>`SELECT name FROM t WHERE id = ${2}`.execute(db);
    expect((await sql<{ name: string }>`SELECT name FROM t WHERE id = ${2}`.execute(db)).rows).toEqual(again.rows);
    // Prepared once each, by name, in the database's own list.
    const kept = await pg.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'read\\_%'`);
    expect(kept.rows.filter((r) => r.statement.startsWith('SELECT name FROM t WHERE id = $1'))).toHaveLength(1);
  });

  it('keeps answering after its table changed shape', async () => {
    const read = () => sql<Record<string, unknown>>`SELECT * FROM t WHERE id = ${1}`.execute(db);
    expect(Object.keys((await read()).rows[0])).not.toContain('extra');
    await sql`ALTER TABLE t ADD COLUMN extra text DEFAULT 'e'`.execute(db);
    expect((await read()).rows[0].extra).toBe('e');
  });

  it('serves more statements than it keeps, and stays usable after a failed read', async () => {
    for (let i = 0; i < 260; i++) expect((await sql<{ v: number }>`SELECT ${i}::int + ${sql.raw(String(i))} AS v`.execute(db)).rows[0].v).toBe(2 * i);
    const kept = await pg.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_prepared_statements`);
    expect(kept.rows[0].n).toBeLessThanOrEqual(200);
    await expect(sql`SELECT no_such_column FROM t`.execute(db)).rejects.toThrow(/no_such_column/);
    await expect(sql`SELECT 1 / ${0}::int AS v`.execute(db)).rejects.toThrow(/division by zero/);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM t`.execute(db)).rows[0].n).toBe(2);
  });

  it('reads inside a transaction what the transaction wrote, and nothing of it after a rollback', async () => {
    const names = async (d: typeof db) => (await sql<{ name: string }>`SELECT name FROM t ORDER BY id`.execute(d)).rows.map((r) => r.name);
    await db
      .transaction()
      .execute(async (trx) => {
        await sql`INSERT INTO t (id, name) VALUES (3, 'c')`.execute(trx);
        expect(await names(trx)).toEqual(['a', 'b', 'c']);
        await sql`SELECT 1 / 0`.execute(trx).catch(() => undefined);
        await expect(names(trx)).rejects.toThrow(/aborted/);
      })
      .catch(() => undefined);
    expect(await names(db)).toEqual(['a', 'b']);
  });
});
