/**
 * Field keyword `owner`: the owning unit's name (or code) read from the unit register, never stored.
 * The model gives it no column, index or input and reads it as a subquery; the list filters it
 * through the unit ids and sorts by the subquery; the lint allows it only readonly on unit-scoped
 * resources, outside search and display, without keywords that store a value.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Resource, SchemaText } from '../../src/schema/types';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import { compileModels } from '../../src/server/resources/model';
import type { Catalog } from '../../src/server/resources/catalog';
import { compileListPlan, filterConditions, orderClause } from '../../src/server/resources/filters';
import { RULE_NAMES } from '../../scripts/rule-names';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');

const piece: Resource = {
  name: 'piece',
  table: 'piece',
  title: '物件',
  scope: 'unit',
  fields: {
    title: { type: 'string', label: '名称', maxLength: 50, index: true },
    unitName: { type: 'string', label: '使用单位', owner: 'name', readonly: true },
    unitCode: { type: 'string', label: '信用代码', owner: 'code', readonly: true },
  },
};
const catalog = (resources: Resource[]): Catalog => ({ resources, dictValues: new Map(), dictLabels: new Map(), dictItems: new Map() });
const compiler = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: {} as never }) });

describe('the owner keyword on the server', () => {
  const [model] = compileModels(catalog([piece]));

  it('has no column, index or input, and is read from sys_unit through the row owner', () => {
    expect(model.columns.map((c) => c.column)).not.toContain('unit_name');
    expect(model.columns.map((c) => c.column)).not.toContain('unit_code');
    expect(model.indexes.flatMap((i) => i.columns)).not.toContain('unit_name');
    expect(model.writable.map((f) => f.name)).toEqual(['title']);
    expect(model.selectSql).toContain('(SELECT o.orgname FROM sys_unit AS o WHERE o.id = "piece".unit_id) AS "unitName"');
    expect(model.maskedSelectSql).toContain('(SELECT o.orgcode FROM sys_unit AS o WHERE o.id = "piece".unit_id) AS "unitCode"');
  });

  it('filters by contains through the unit ids, and sorts by the subquery', () => {
    const plan = compileListPlan(model);
    const [condition] = filterConditions(plan, { unitName: '北仑' });
    const { sql: text, parameters } = sql`SELECT 1 WHERE ${condition}`.compile(compiler);
    expect(text).toContain('unit_id IN (SELECT o.id FROM sys_unit AS o WHERE (o."orgname" || \'\') ILIKE $1)');
    expect(parameters).toEqual(['%北仑%']);
    expect(orderClause(plan, 'unitName desc')).toBe('(SELECT o.orgname FROM sys_unit AS o WHERE o.id = "piece".unit_id) DESC NULLS LAST, "id"');
  });

  it('is refused on a resource without an owning unit', () => {
    expect(() => compileModels(catalog([{ ...piece, scope: 'area' }]))).toThrow(/needs scope "unit"/);
  });
});

describe('the owner keyword in the lint', () => {
  const errors = (resource: Record<string, unknown>) => {
    const texts: SchemaText[] = [{ path: 'resources/piece.json', text: JSON.stringify({ $schema: '../meta/resource.schema.json', ...resource }, null, 2) }];
    return lintFiles(texts, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => `${e.code}: ${e.message}`);
  };

  it('takes a readonly text field of a unit-scoped resource', () => {
    expect(errors(piece as unknown as Record<string, unknown>)).toEqual([]);
  });

  it('refuses it writable, on a resource without units, with storing keywords, in search or display, or on another type', () => {
    expect(errors({ ...piece, fields: { ...piece.fields, unitName: { type: 'string', label: '使用单位', owner: 'name' } } })).toEqual([
      "field-type: 'unitName' is read from the owning unit (owner): make it readonly",
    ]);
    expect(errors({ ...piece, scope: 'area' })).toEqual([
      `field-type: 'unitName' reads the owning unit (owner): the resource needs "scope": "unit"`,
      `field-type: 'unitCode' reads the owning unit (owner): the resource needs "scope": "unit"`,
    ]);
    expect(
      errors({
        ...piece,
        fields: { ...piece.fields, unitName: { type: 'string', label: '使用单位', owner: 'name', readonly: true, index: true, required: true } },
      }),
    ).toEqual([
      "field-type: 'unitName' is read from the owning unit (owner) and has no column: 'index' does not apply",
      "field-type: 'unitName' is read from the owning unit (owner) and has no column: 'required' does not apply",
    ]);
    expect(errors({ ...piece, search: ['title', 'unitName'], display: ['unitName'] })).toEqual([
      "field-type: 'unitName' is read from the owning unit (owner): search covers stored fields only (its list filter matches the unit's name)",
      "field-type: 'unitName' is read from the owning unit (owner): a record's label is made of stored fields",
    ]);
    expect(errors({ ...piece, fields: { ...piece.fields, unitName: { type: 'text', label: '使用单位', owner: 'name', readonly: true } } })[0]).toBe(
      "field-type: 'owner' does not apply to type text (only string)",
    );
  });
});
