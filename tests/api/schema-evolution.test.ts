/**
 * Declared evolution of a resource that holds data, across restarts of the server on the same
 * database: a renamed field keeps its values, a text field converted to a number or a date has its
 * values converted (a value that does not convert refuses the start, naming the row, and nothing of
 * that start is applied), a dict field's codes are remapped once, a retired field keeps its data but
 * leaves every answer and takes no writes, a declared drop drops the column, an undeclared removal
 * still refuses the start. Each step is recorded once in sys_schema_evolution.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedDemoData } from '../../src/server/db/seed';
import type { Page } from '../../src/shared/contract';
import { call, dbTargets, unitUser } from './helpers';
import { persistentDb, startOn, type PersistentDb } from './fixtures/persistent-db';

type Fields = Record<string, Record<string, unknown>>;
const V1: Fields = {
  title: { type: 'string', label: '名称', maxLength: 50 },
  oldCode: { type: 'string', label: '编码', maxLength: 20 },
  amount: { type: 'string', label: '数量', maxLength: 20 },
  since: { type: 'string', label: '日期', maxLength: 20 },
  level: { type: 'dict', label: '等级', dict: 'fx-level' },
  note: { type: 'string', label: '备注', maxLength: 50 },
};
const ids = ['1'.repeat(32), '2'.repeat(32), '3'.repeat(32)];

describe.each(dbTargets())('schema evolution across restarts (%s)', (target) => {
  let db: PersistentDb;
  let schemaDir: string;

  const writeResource = (fields: Fields, extra: Record<string, unknown> = {}) =>
    writeFileSync(
      join(schemaDir, 'resources', 'fx-evolve.json'),
      JSON.stringify({ $schema: '../meta/resource.schema.json', name: 'fx-evolve', table: 'fx_evolve', title: '演进', fields, ...extra }),
    );
  const start = (): Promise<FastifyInstance> => startOn(db, schemaDir);
  /** Starts, runs `body`, closes. */
  const run = async <T>(body: (app: FastifyInstance) => Promise<T>): Promise<T> => {
    const app = await start();
    try {
      return await body(app);
    } finally {
      await app.close();
    }
  };
  const columns = async (app: FastifyInstance) =>
    Object.fromEntries(
      (
        await sql<{ column_name: string; data_type: string }>`
          SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'fx_evolve'`.execute(app.db)
      ).rows.map((r) => [r.column_name, r.data_type]),
    );
  const rows = async (app: FastifyInstance, list: string) =>
    (await sql.raw<Record<string, unknown>>(`SELECT ${list} FROM fx_evolve ORDER BY id`).execute(app.db)).rows;
  const history = async (app: FastifyInstance) =>
    (await sql<{ step: string }>`SELECT step FROM sys_schema_evolution WHERE resource = 'fx-evolve' ORDER BY step`.execute(app.db)).rows.map((r) => r.step);

  beforeEach(async () => {
    db = await persistentDb(target);
    schemaDir = mkdtempSync(join(tmpdir(), 'portal-evolve-'));
    mkdirSync(join(schemaDir, 'resources'));
    mkdirSync(join(schemaDir, 'dicts'));
    writeFileSync(
      join(schemaDir, 'dicts', 'fx-level.json'),
      JSON.stringify({
        name: 'fx-level',
        title: '等级',
        items: [
          { value: 'a', label: '甲' },
          { value: 'b', label: '乙' },
          { value: 'x', label: '新甲' },
        ],
      }),
    );
    writeResource(V1);
    await run(async (app) => {
      // The roles the test's own users take.
      await seedDemoData(app.db);
      await sql`INSERT INTO fx_evolve (id, title, old_code, amount, since, level, note) VALUES
        (${ids[0]}, '一', 'C-1', '12', '2024/5/1', 'a', '留着'),
        (${ids[1]}, '二', 'C-2', ' 7 ', '20240102', 'b', NULL),
        (${ids[2]}, '三', NULL, '', '2024.12.31', 'a', '也留着')`.execute(app.db);
    });
  });
  afterEach(async () => {
    rmSync(schemaDir, { recursive: true, force: true });
    await db.drop();
  });

  it('renames a column with its values, once', async () => {
    const { oldCode, ...rest } = V1;
    writeResource({ ...rest, code: { ...oldCode, renamedFrom: 'oldCode' } });
    await run(async (app) => {
      expect(await columns(app)).not.toHaveProperty('old_code');
      expect(await rows(app, 'code')).toEqual([{ code: 'C-1' }, { code: 'C-2' }, { code: null }]);
      const user = await unitUser(app, '330212');
      const page = await call<Page<Record<string, unknown>>>(app, user.sid, 'GET', '/r/fx-evolve/list', { pageSize: '10' });
      expect(page.body.data!.list.map((r) => r.code).sort()).toEqual(['C-1', 'C-2', null].sort());
      expect(await history(app)).toEqual(['rename old_code -> code']);
    });
    // Idempotent: the next start has nothing to do.
    await run(async (app) => {
      expect(await rows(app, 'code')).toEqual([{ code: 'C-1' }, { code: 'C-2' }, { code: null }]);
      expect(await history(app)).toEqual(['rename old_code -> code']);
    });
  });

  it('converts text to a number and to a date, and remaps dictionary codes once', async () => {
    writeResource({
      ...V1,
      amount: { type: 'int', label: '数量', convert: { from: 'string' } },
      since: { type: 'date', label: '日期', convert: { from: 'string' } },
      level: { ...V1.level, convert: { map: { a: 'x' } } },
    });
    await run(async (app) => {
      expect(await columns(app)).toMatchObject({ amount: 'integer', since: 'date' });
      expect(await rows(app, `amount, to_char(since, 'YYYY-MM-DD') AS since, level`)).toEqual([
        { amount: 12, since: '2024-05-01', level: 'x' },
        { amount: 7, since: '2024-01-02', level: 'b' },
        { amount: null, since: '2024-12-31', level: 'x' },
      ]);
      const user = await unitUser(app, '330212');
      const got = await call<Record<string, unknown>>(app, user.sid, 'GET', `/r/fx-evolve/get/${ids[0]}`);
      expect(got.body.data).toMatchObject({ amount: 12, since: '2024-05-01', level: 'x' });
      // A code written after the map is not mapped again on the next start.
      await sql`UPDATE fx_evolve SET level = 'a' WHERE id = ${ids[1]}`.execute(app.db);
    });
    await run(async (app) => {
      expect(await rows(app, 'level')).toEqual([{ level: 'x' }, { level: 'a' }, { level: 'x' }]);
      expect(await history(app)).toHaveLength(3);
    });
  });

  it('refuses the start over a value that does not convert, naming the row, and applies nothing of it', async () => {
    await run(async (app) => {
      await sql`UPDATE fx_evolve SET amount = '十二' WHERE id = ${ids[1]}`.execute(app.db);
    });
    const { oldCode, ...rest } = V1;
    writeResource({ ...rest, code: { ...oldCode, renamedFrom: 'oldCode' }, amount: { type: 'int', label: '数量', convert: { from: 'string' } } });
    const failure = await start().catch((err: Error) => err);
    expect(failure).toBeInstanceOf(Error);
    const message = (failure as Error).message;
    expect(message).toContain(`resource 'fx-evolve', field 'amount'`);
    expect(message).toContain('fx_evolve');
    expect(message).toContain(ids[1]);
    expect(message).toContain('"十二"');
    expect(message).not.toContain(ids[0]);

    writeResource(V1);
    await run(async (app) => {
      expect(await columns(app)).toMatchObject({ amount: 'character varying', old_code: 'character varying' });
      expect(await columns(app)).not.toHaveProperty('code');
      expect(await rows(app, 'amount')).toEqual([{ amount: '12' }, { amount: '十二' }, { amount: '' }]);
      expect(await history(app)).toEqual([]);
    });
  });

  it('keeps a retired field and its data, leaves it out of the answers and ignores writes to it', async () => {
    writeResource({ ...V1, note: { ...V1.note, retired: true } });
    await run(async (app) => {
      expect(await columns(app)).toHaveProperty('note');
      const user = await unitUser(app, '330212');
      const page = await call<Page<Record<string, unknown>>>(app, user.sid, 'GET', '/r/fx-evolve/list', { pageSize: '10' });
      expect(page.body.data!.list).toHaveLength(3);
      for (const row of page.body.data!.list) expect(row).not.toHaveProperty('note');
      const got = await call<Record<string, unknown>>(app, user.sid, 'GET', `/r/fx-evolve/get/${ids[0]}`);
      expect(got.body.data).toMatchObject({ title: '一' });
      expect(got.body.data).not.toHaveProperty('note');
      const saved = await call<Record<string, unknown>>(app, user.sid, 'POST', '/r/fx-evolve/save', { id: ids[0], title: '一改', note: '覆盖', version: 1 });
      expect(saved.body.result, saved.body.message).toBe('true');
      const created = await call<Record<string, unknown>>(app, user.sid, 'POST', '/r/fx-evolve/save', { title: '四', note: '新值' });
      expect(created.body.result, created.body.message).toBe('true');
      const stored = await sql<{
        title: string;
        note: string | null;
      }>`SELECT title, note FROM fx_evolve WHERE id IN (${ids[0]}, ${String(created.body.data!.id)}) ORDER BY title`.execute(app.db);
      expect(stored.rows).toEqual([
        { title: '一改', note: '留着' },
        { title: '四', note: null },
      ]);
    });
  });

  it('drops a column listed in evolution.drop, and still refuses a field removed without it', async () => {
    const { note: _note, ...rest } = V1;
    writeResource(rest);
    await expect(start()).rejects.toThrow(/no longer in the resource/);
    writeResource(rest, { evolution: { drop: ['note'] } });
    await run(async (app) => {
      expect(await columns(app)).not.toHaveProperty('note');
      expect(await rows(app, 'title')).toHaveLength(3);
      expect(await history(app)).toEqual(['drop note']);
    });
  });
});
