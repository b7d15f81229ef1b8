/**
 * ID card and mobile columns encrypted at rest under PORTAL_CRYPTO=sm with a master key
 * (src/server/resources/sealed-fields.ts): the table holds `sealed:sm:` ciphertexts and a blind
 * index, never the number; lists and exports show the mask, the owner's detail the whole value;
 * an exact filter finds the record through the blind index; the demo data is sealed; a restart
 * converts plain values in place once, and a start in the standard mode with the master key turns
 * them back into plain text.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idCardCheckChar } from '../../validators/identifiers';
import { StartupError } from '../../src/server/config';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { loadCatalog } from '../../src/server/resources/catalog';
import { planSchema } from '../../src/server/resources/ddl';
import { compileModels } from '../../src/server/resources/model';
import { indexColumnOf, sealable } from '../../src/server/resources/sealed-columns';
import { convertSealedFields, SEALED_FIELDS_SETTING } from '../../src/server/resources/sealed-fields';
import type { Page } from '../../src/shared/contract';
import { workbookText } from '../support/workbook';
import { api, appSuite, call, dbTargets, freshPostgresDatabase, makeApp, resourceCalls, sessionOf, withSession, type DbTarget } from './helpers';

const MASTER_KEY = randomBytes(32);

/** A valid 18-character ID card number with the given sequence digits. */
const idCard = (sequence: string) => {
  const first17 = `33020319900101${sequence}`;
  return `${first17}${idCardCheckChar(first17)}`;
};
const masked = (card: string) => `${card.slice(0, 6)}********${card.slice(-4)}`;

type Row = Record<string, unknown> & { id: string };

/** Every stored value of every sealable column, by table (raw SQL: what a copy of the database shows). */
async function storedValues(app: FastifyInstance): Promise<{ table: string; column: string; value: string; index: string | null }[]> {
  const out: { table: string; column: string; value: string; index: string | null }[] = [];
  for (const { model } of app.resources.values()) {
    if (model.systemTable) continue;
    for (const f of model.fields.filter(sealable)) {
      const { rows } = await sql<{
        v: string;
        i: string | null;
      }>`SELECT ${sql.ref(f.column)} AS v, ${sql.ref(indexColumnOf(f.column))} AS i FROM ${sql.table(model.table)} WHERE ${sql.ref(f.column)} <> ''`.execute(
        app.db,
      );
      for (const r of rows) out.push({ table: model.table, column: f.column, value: r.v, index: r.i });
    }
  }
  return out;
}

describe.each(dbTargets())('ID card and mobile columns encrypted at rest, PORTAL_CRYPTO=sm (%s)', (target) => {
  const { app, session } = appSuite(target, { build: { crypto: 'sm', masterKey: MASTER_KEY }, sessions: { using: 'nbadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  beforeAll(async () => {
    await seedDemoRecords(app);
    // The test app writes the demo accounts after its start, plainly: the next start's conversion seals them (at-rest-accounts.test.ts).
    await convertSealedFields(app.db, [], app.config, { info() {}, warn() {} });
  });
  const card = idCard('731');
  const mobile = '13905747310';

  it('stores a saved ID card and mobile sealed; lists and exports them masked, the owner sees them whole', async () => {
    const saved = await ok(session.using, '/r/operator/save', { name: '加密测试', idCard: card, mobile });
    const raw = (await sql<Row>`SELECT * FROM operator WHERE id = ${saved.id}`.execute(app.db)).rows[0];
    expect(JSON.stringify(raw)).not.toContain(card);
    expect(JSON.stringify(raw)).not.toContain(mobile);
    expect(raw.id_card).toMatch(/^sealed:sm:[A-Za-z0-9+/=]+$/);
    expect(raw.mobile).toMatch(/^sealed:sm:/);
    expect(raw.id_card__bidx).toMatch(/^[0-9a-f]{64}$/);

    const list = (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', { name: '加密测试' })).body.data!.list;
    expect(list.map((r) => [r.idCard, r.mobile])).toEqual([[masked(card), '139****7310']]);
    const detail = await ok(session.using, `/r/operator/get/${saved.id}`);
    expect([detail.idCard, detail.mobile]).toEqual([card, mobile]);

    const file = await withSession(app, session.using, { method: 'GET', url: api('/r/operator/export') });
    expect(file.statusCode).toBe(200);
    const text = await workbookText(file.rawPayload);
    expect(text).toContain(masked(card));
    expect(text).not.toContain(card);
    expect(text).not.toContain('sealed:');

    // The same ID card twice in one unit: the blind index keeps the field unique.
    const twice = await post(session.using, '/r/operator/save', { name: '加密测试二', idCard: card, mobile });
    expect(twice.body.code).toBe('DUPLICATE_VALUE');
  });

  it('filters by the whole value through the blind index; a sort by it is ignored', async () => {
    const find = async (query: Record<string, string>) => (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', query)).body;
    expect((await find({ idCard: card })).data!.list.map((r) => r.name)).toEqual(['加密测试']);
    expect((await find({ idCard: card.toLowerCase() })).data!.list).toHaveLength(1);
    expect((await find({ q: mobile })).data!.list.map((r) => r.name)).toEqual(['加密测试']);
    expect((await find({ idCard: idCard('732') })).data!.list).toEqual([]);
    // Part of the number finds nothing: only whole values are indexed.
    expect((await find({ idCard: card.slice(0, 10) })).data!.list).toEqual([]);
    const sorted = await find({ orderBy: 'idCard desc', pageSize: '5' });
    expect(sorted.result).toBe('true');
    expect(sorted.data!.list.length).toBeGreaterThan(0);
  });

  it('seals the demo data: no sealable column holds plain text, and a second conversion changes nothing', async () => {
    const values = await storedValues(app);
    expect(values.length).toBeGreaterThan(20);
    for (const v of values) {
      expect(v.value, `${v.table}.${v.column}`).toMatch(/^sealed:sm:/);
      expect(v.index, `${v.table}.${v.column}`).toMatch(/^[0-9a-f]{64}$/);
    }
    const models = [...app.resources.values()].map((r) => r.model);
    expect(await convertSealedFields(app.db, models, app.config, { info() {}, warn() {} })).toBe(0);
    // Demo lists still show masks (the detail of every masked field is opened, not the ciphertext).
    const operators = (await call<Page<Row>>(app, session.using, 'GET', '/r/operator/list', { pageSize: '100' })).body.data!.list;
    expect(operators.length).toBeGreaterThan(1);
    for (const r of operators) expect(r.idCard).toMatch(/^\d{6}\*{8}[\dX]{4}$/);
  });
});

describe('the columns of a database made before encryption', () => {
  it('widens varchar(18) and varchar(11) to text and adds the blind-index columns, as additive changes', () => {
    const model = compileModels(loadCatalog()).find((m) => m.name === 'operator')!;
    const existing = {
      columns: model.columns
        .filter((c) => !c.column.endsWith('__bidx'))
        .map((c) => ({
          table: model.table,
          column: c.column,
          sqlType: c.column === 'id_card' ? 'varchar(18)' : c.column === 'mobile' ? 'varchar(11)' : c.sqlType,
        })),
      indexes: model.indexes.map((i) => ({ table: model.table, name: i.name })),
    };
    const plan = planSchema([model], existing);
    expect(plan.destructive).toEqual([]);
    expect(plan.statements).toEqual([
      'ALTER TABLE "operator" ALTER COLUMN "id_card" TYPE text',
      'ALTER TABLE "operator" ALTER COLUMN "mobile" TYPE text',
      'ALTER TABLE "operator" ADD COLUMN "id_card__bidx" text',
      'ALTER TABLE "operator" ADD COLUMN "mobile__bidx" text',
    ]);
  });
});

describe.each(dbTargets())('converting ID card and mobile columns across restarts (%s)', (target: DbTarget) => {
  const scratch = mkdtempSync(join(tmpdir(), 'portal-sealed-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await dropDatabase?.();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('standard keeps plain text; sm seals it in place once; standard with the master key unseals it', { timeout: 240_000 }, async () => {
    const where =
      target === 'pglite' ? { dataDir: join(scratch, 'pgdata') } : await freshPostgresDatabase().then((d) => ((dropDatabase = d.drop), { databaseUrl: d.url }));
    const start = (crypto: 'standard' | 'sm', masterKey: Buffer | null) => makeApp('pglite', { ...where, crypto, masterKey });
    const card = idCard('741');
    const stored = async (app: FastifyInstance, id: string) =>
      (await sql<{ id_card: string; id_card__bidx: string | null }>`SELECT id_card, id_card__bidx FROM operator WHERE id = ${id}`.execute(app.db)).rows[0];
    const flag = async (app: FastifyInstance) =>
      (await app.db.selectFrom('sys_config').select('value').where('key', '=', SEALED_FIELDS_SETTING).execute()).length;

    // The standard mode: the column holds the number, as it always did.
    const first = await start('standard', null);
    const sid = await sessionOf(first.app, 'nbadmin');
    const saved = (await call<Row>(first.app, sid, 'POST', '/r/operator/save', { name: '转换测试', idCard: card, mobile: '13905747410' })).body.data!;
    expect(await stored(first.app, saved.id)).toEqual({ id_card: card, id_card__bidx: null });
    await first.close();

    // sm with the master key: sealed in place at start, read back whole.
    const second = await start('sm', MASTER_KEY);
    const sealed = await stored(second.app, saved.id);
    expect(sealed.id_card).toMatch(/^sealed:sm:/);
    expect(await flag(second.app)).toBe(1);
    const sid2 = await sessionOf(second.app, 'nbadmin');
    expect((await call<Row>(second.app, sid2, 'GET', `/r/operator/get/${saved.id}`)).body.data!.idCard).toBe(card);
    expect((await call<Page<Row>>(second.app, sid2, 'GET', '/r/operator/list', { idCard: card })).body.data!.list.map((r) => r.id)).toEqual([saved.id]);
    await second.close();

    // Again: nothing rewritten.
    const third = await start('sm', MASTER_KEY);
    expect(await stored(third.app, saved.id)).toEqual(sealed);
    await third.close();

    // Sealed values without their key: refused, naming PORTAL_MASTER_KEY.
    for (const [crypto, masterKey, words] of [
      ['sm', null, 'is not set'],
      ['standard', null, 'is not set'],
      ['sm', randomBytes(32), 'is not the key'],
    ] as const) {
      const failure = await start(crypto, masterKey).then(
        (t) => t.close().then(() => null),
        (err: unknown) => err,
      );
      expect(failure, `${crypto} ${masterKey ? 'another key' : 'no key'}`).toBeInstanceOf(StartupError);
      expect((failure as StartupError).line()).toContain('PORTAL_MASTER_KEY');
      expect((failure as StartupError).line()).toContain(words);
    }

    // Back to the standard mode with the master key: plain text again, blind index cleared.
    const fourth = await start('standard', MASTER_KEY);
    expect(await stored(fourth.app, saved.id)).toEqual({ id_card: card, id_card__bidx: null });
    expect(await flag(fourth.app)).toBe(0);
    await fourth.close();
  });
});
