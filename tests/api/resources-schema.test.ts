/**
 * The resource engine against fixture schema directories: tables follow the resources across
 * restarts (additive changes applied, destructive ones refused with the migration to write),
 * menu access ids guard a resource, sub-tables are saved and read with their parent, and a
 * resource without workflow has plain save/delete.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/server/db/index';
import { loadCatalog } from '../../src/server/resources/catalog';
import { compileResources } from '../../src/server/resources/compile';
import { DestructiveSchemaChangeError, syncTables } from '../../src/server/resources/ddl';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, unitUser } from './helpers';
import { persistentDb, startOn, type PersistentDb } from './fixtures/persistent-db';

const FIXTURE_SCHEMAS = fileURLToPath(new URL('./fixtures/schemas', import.meta.url));

type Fields = Record<string, Record<string, unknown>>;
const item = (fields: Fields) => ({ $schema: '../meta/resource.schema.json', name: 'fx-item', table: 'fx_item', title: '测试项', fields });
const V1: Fields = { name: { type: 'string', label: '名称', maxLength: 50, required: true } };

describe.each(dbTargets())('resource tables across restarts (%s)', (target) => {
  let db: PersistentDb;
  let schemaDir: string;

  const writeResource = (fields: Fields) => writeFileSync(join(schemaDir, 'resources', 'fx-item.json'), JSON.stringify(item(fields)));
  const start = (): Promise<FastifyInstance> => startOn(db, schemaDir);
  const columns = async (app: FastifyInstance) =>
    (
      await sql<{
        column_name: string;
        data_type: string;
      }>`SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'fx_item' ORDER BY column_name`.execute(app.db)
    ).rows.map((r) => `${r.column_name}:${r.data_type}`);
  const indexes = async (app: FastifyInstance) =>
    (await sql<{ indexname: string }>`SELECT indexname FROM pg_indexes WHERE tablename = 'fx_item'`.execute(app.db)).rows.map((r) => r.indexname);

  beforeEach(async () => {
    db = await persistentDb(target);
    schemaDir = mkdtempSync(join(tmpdir(), 'portal-schemas-'));
    mkdirSync(join(schemaDir, 'resources'));
    writeResource(V1);
    const app = await start();
    await sql`INSERT INTO fx_item (id, name) VALUES (${'a'.repeat(32)}, ${'已有数据'})`.execute(app.db);
    await app.close();
  });
  afterEach(async () => {
    rmSync(schemaDir, { recursive: true, force: true });
    await db.drop();
  });

  it('creates the table with system columns and applies a new field and index on restart, keeping the rows', async () => {
    writeResource({
      ...V1,
      note: { type: 'text', label: '备注', maxLength: 200, index: true },
      amount: { type: 'money', label: '金额' },
      tags: { type: 'attachment', label: '附件' },
    });
    const app = await start();
    try {
      expect(await columns(app)).toEqual([
        'amount:numeric',
        'created_at:timestamp with time zone',
        'created_by:character',
        'id:character',
        'name:character varying',
        'note:character varying',
        'tags:jsonb',
        'updated_at:timestamp with time zone',
        'updated_by:character',
        'version:integer',
      ]);
      expect(await indexes(app)).toContain('fx_item_note_idx');
      const rows = await sql<{ name: string; note: string | null; version: number }>`SELECT name, note, version FROM fx_item`.execute(app.db);
      expect(rows.rows).toEqual([{ name: '已有数据', note: null, version: 1 }]);
    } finally {
      await app.close();
    }
  });

  it('replaces the former list-order index by the one ordered by id too, keeping the rows', async () => {
    // A table made before the index took the id: its (created_at) index, and no (created_at, id) one.
    const app0 = await start();
    await sql`DROP INDEX fx_item_created_at_id_idx`.execute(app0.db);
    await sql`CREATE INDEX fx_item_created_at_idx ON fx_item (created_at)`.execute(app0.db);
    await app0.close();
    const app = await start();
    try {
      const names = await indexes(app);
      expect(names).toContain('fx_item_created_at_id_idx');
      expect(names).not.toContain('fx_item_created_at_idx');
      expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM fx_item`.execute(app.db)).rows[0].n).toBe(1);
    } finally {
      await app.close();
    }
  });

  it.each([
    ['a removed field', { renamed: V1.name }, /DROP COLUMN "name"/],
    ['a changed type', { name: { ...V1.name, type: 'int' } }, /ALTER COLUMN "name" TYPE integer/],
    ['a shorter text', { name: { ...V1.name, maxLength: 20 } }, /ALTER COLUMN "name" TYPE varchar\(20\)/],
  ])('refuses %s, naming the numbered migration to write, and applies nothing', async (_case, fields, statement) => {
    writeResource({ ...fields, added: { type: 'string', label: '新增' } });
    const models = compileResources(loadCatalog(schemaDir)).all.map((r) => r.model);
    const conn = await createDatabase({ databaseUrl: null, dataDir: 'memory://', ...db.options });
    try {
      const failure = await syncTables(conn, models).catch((err: Error) => err);
      expect(failure).toBeInstanceOf(DestructiveSchemaChangeError);
      expect((failure as Error).message).toMatch(/src\/server\/db\/migrations\/\d{4}_alter_fx_item\.ts/);
      expect((failure as Error).message).toMatch(statement);
      const cols = (await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_name = 'fx_item'`.execute(conn)).rows.map(
        (r) => r.column_name,
      );
      expect(cols).toContain('name');
      expect(cols).not.toContain('added');
      expect(cols).not.toContain('renamed');
    } finally {
      await conn.destroy();
    }
  });

  it('lengthens a text column on restart, keeping its values', async () => {
    writeResource({ name: { ...V1.name, maxLength: 80 } });
    const app = await start();
    try {
      const long = '长'.repeat(80);
      await sql`INSERT INTO fx_item (id, name) VALUES (${'b'.repeat(32)}, ${long})`.execute(app.db);
      const rows = await sql<{ name: string }>`SELECT name FROM fx_item ORDER BY id`.execute(app.db);
      expect(rows.rows.map((r) => r.name)).toEqual(['已有数据', long]);
    } finally {
      await app.close();
    }
  });

  it('does not start the server over a destructive change', async () => {
    writeResource({ name: { ...V1.name, maxLength: 20 } });
    await expect(start()).rejects.toThrow(/never applied automatically/);
  });
});

interface Order {
  id: string;
  orderNo: string;
  orderDate: string | null;
  total: number | null;
  version: number;
  lines: { id: string; product: string; quantity: number }[];
}

describe.each(dbTargets())('fixture resources: access ids, sub-tables, plain save/delete (%s)', (target) => {
  const { app, session } = appSuite(target, { build: { schemaDir: FIXTURE_SCHEMAS }, sessions: { authority: 'jgadmin' } });

  it('refuses every route of a resource to a role without one of its access ids', async () => {
    const unit = await unitUser(app, '330212');
    for (const [method, path] of [
      ['GET', '/r/fx-order/list'],
      ['POST', '/r/fx-order/save'],
      ['GET', `/r/fx-order/get/${'a'.repeat(32)}`],
    ] as const) {
      const res = await call(app, unit.sid, method, path, method === 'POST' ? { orderNo: 'X' } : undefined);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    }
    expect((await call(app, session.authority, 'GET', '/r/fx-order/list')).status).toBe(200);
  });

  it('saves a record with its sub-table rows in order and reads them back', async () => {
    const res = await call<Order>(app, session.authority, 'POST', '/r/fx-order/save', {
      orderNo: 'NO-1',
      orderDate: '2026-05-01T08:30:00+08:00',
      total: 12.5,
      lines: [{ product: '甲', quantity: 2 }, { product: '乙' }],
    });
    expect(res.body.data).toMatchObject({
      orderNo: 'NO-1',
      orderDate: '2026-05-01T00:30:00.000Z',
      total: 12.5,
      lines: [
        { product: '甲', quantity: 2 },
        { product: '乙', quantity: 1 },
      ],
    });
    const id = res.body.data!.id;

    const updated = await call<Order>(app, session.authority, 'POST', '/r/fx-order/save', { id, lines: [{ product: '丙', quantity: 3 }] });
    expect(updated.body.data).toMatchObject({ orderNo: 'NO-1', version: 2, lines: [{ product: '丙', quantity: 3 }] });
    expect((await call<Order>(app, session.authority, 'GET', `/r/fx-order/get/${id}`)).body.data!.lines).toHaveLength(1);
  });

  it('validates sub-table rows and unique values', async () => {
    const missing = await call(app, session.authority, 'POST', '/r/fx-order/save', { orderNo: 'NO-2', lines: [{ quantity: 1 }] });
    expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', message: '请填写产品' } });
    const tooFew = await call(app, session.authority, 'POST', '/r/fx-order/save', { orderNo: 'NO-2', lines: [{ product: '甲', quantity: 0 }] });
    expect(tooFew.body.message).toBe('数量不能小于1');

    await call(app, session.authority, 'POST', '/r/fx-order/save', { orderNo: 'NO-3' });
    const duplicate = await call(app, session.authority, 'POST', '/r/fx-order/save', { orderNo: 'NO-3' });
    expect(duplicate.body).toMatchObject({ result: 'false', code: 'DUPLICATE_VALUE' });
  });

  it('deletes a record without workflow together with its sub-table rows', async () => {
    const saved = await call<Order>(app, session.authority, 'POST', '/r/fx-order/save', { orderNo: 'NO-4', lines: [{ product: '甲' }] });
    const id = saved.body.data!.id;
    expect((await call(app, session.authority, 'POST', `/r/fx-order/delete/${id}`)).body).toMatchObject({ result: 'true', data: null });
    expect((await call(app, session.authority, 'GET', `/r/fx-order/get/${id}`)).body.code).toBe('RECORD_NOT_FOUND');
    const lines = await sql<{ n: number }>`SELECT count(*)::int AS n FROM fx_order_line WHERE parent_id = ${id}`.execute(app.db);
    expect(lines.rows[0].n).toBe(0);
    const page = (await call<Page<Order>>(app, session.authority, 'GET', '/r/fx-order/list', { orderNo: 'NO-4' })).body.data!;
    expect(page.count).toBe(0);
  });

  it('serves sub-table resources only through their parent', async () => {
    expect((await call(app, session.authority, 'GET', '/r/fx-order-line/list')).status).toBe(404);
  });
});
