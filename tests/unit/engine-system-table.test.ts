/**
 * Read-only resources over the server's own tables (resource `systemTable`) and the oversight
 * row scope (`oversightOnly`), as the engine compiles them: the declared columns and no others, no
 * indexes, list and get as the only routes, every repository write refused before any SQL, the
 * oversight roles limited to their area and every other role refused; and the audit log's
 * dictionaries name every resource and every workflow action.
 */
import { Kysely, PostgresDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadCatalog, type Catalog } from '../../src/server/resources/catalog';
import { compileResources } from '../../src/server/resources/compile';
import { compileModels } from '../../src/server/resources/model';
import { operationsOf } from '../../src/server/resources/operations';
import { deleteRow, insertRow, updateRow } from '../../src/server/resources/repository';
import { assertResourceAccess, visibleByOwnerOnly, visibleRows, type Actor } from '../../src/server/resources/scope';
import { STANDARD_ACTIONS } from '../../src/schema/model';
import type { Resource } from '../../src/schema/types';

const trail: Resource = {
  name: 'trail',
  table: 'sys_trail',
  title: '痕迹',
  fields: {
    time: { type: 'datetime', label: '时间', column: 'created_at' },
    userName: { type: 'string', label: '操作人' },
    note: { type: 'text', label: '内容' },
  },
  scope: 'area',
  readOnly: true,
  systemTable: true,
  oversightOnly: true,
  access: ['log:trail'],
};
const catalog: Catalog = { resources: [trail], dictValues: new Map(), dictLabels: new Map(), dictItems: new Map() };

const actor = (oversees: boolean): Actor => ({
  userId: 'u',
  userName: '甲',
  unitId: 'x',
  areaCode: '330200',
  roleType: oversees ? 'authority' : 'unitAdmin',
  menuIds: ['log:trail'],
  oversees,
});
// Compiles statements without a connection: the pool is never asked for one.
const compiler = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: {} as never }) });

describe('system-table resources', () => {
  const [model] = compileModels(catalog);

  it('read the declared columns (named by `column`) plus id and the owner column, and make no index', () => {
    expect(model.fields.map((f) => [f.name, f.column])).toEqual([
      ['time', 'created_at'],
      ['userName', 'user_name'],
      ['note', 'note'],
      ['id', 'id'],
      ['areaCode', 'area_code'],
    ]);
    expect(model.indexes).toEqual([]);
    expect(model.writable).toEqual([]);
    expect(model).toMatchObject({ readOnly: true, systemTable: true, ownerColumn: 'area_code' });
    expect(model.selectSql).toContain('"created_at" AT TIME ZONE');
  });

  it('offer list and get only', () => {
    const [compiled] = compileResources(catalog).routed;
    expect(operationsOf(compiled).map((op) => op.name)).toEqual(['list', 'get']);
  });

  it('refuse every write before any SQL runs', async () => {
    const db = new Proxy(
      {},
      {
        get: () => {
          throw new Error('no statement may run');
        },
      },
    ) as never;
    await expect(insertRow(db, model, { id: 'a' })).rejects.toThrow(/never writes/);
    await expect(updateRow(db, model, 'a', { note: 'b' })).rejects.toThrow(/never writes/);
    await expect(deleteRow(db, model, 'a')).rejects.toThrow(/never writes/);
  });

  it('show an oversight role the rows of its whole area and refuse any other role', () => {
    const condition = visibleRows(model, actor(true))!.compile(compiler);
    expect(condition.sql).toBe('area_code LIKE $1');
    expect(condition.parameters).toEqual(['3302%']);
    expect(visibleByOwnerOnly(model, actor(true))).toBe(false);
    expect(() => visibleRows(model, actor(false))).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => assertResourceAccess(model, actor(false))).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => assertResourceAccess(model, actor(true))).not.toThrow();
  });
});

describe('the audit log dictionaries', () => {
  const real = loadCatalog();
  it('name every resource by its title', () => {
    const labels = real.dictLabels.get('audit-resource')!;
    for (const r of real.resources.filter((r) => r.name !== 'audit-log'))
      expect(labels.get(r.name), `schemas/dicts/audit-resource.json: add { "value": "${r.name}", "label": "${r.title}" }`).toBe(r.title);
  });
  it('name every workflow action', () => {
    const labels = real.dictLabels.get('audit-operation')!;
    for (const name of Object.keys(STANDARD_ACTIONS)) expect(labels.get(name)).toBe(STANDARD_ACTIONS[name]);
    for (const r of real.resources) {
      for (const name of Object.keys(r.workflow?.actions ?? {}))
        expect(labels.has(name), `schemas/dicts/audit-operation.json: add the action '${name}' of ${r.name}`).toBe(true);
    }
  });
});
