/**
 * A ref field's `copy`: a list of same-named fields, or a map {field here: field of the chosen
 * record} for a snapshot whose name differs from the referenced resource's (an equipment's
 * maintenance-unit name from the unit's `unitName`). The pairs the picker and the server copy, and
 * the lint's checks of both sides.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/schema/diagnostics';
import { lintFiles } from '../../src/schema/lint';
import { copyPairs } from '../../src/schema/model';
import { readMetaSchemas } from '../../src/schema/node';
import type { SchemaText } from '../../src/schema/types';
import { RULE_NAMES } from '../../scripts/rule-names';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');

describe('copyPairs', () => {
  it('pairs a list with itself and a map key with its value', () => {
    expect(copyPairs({})).toEqual([]);
    expect(copyPairs({ copy: ['code', 'name'] })).toEqual([
      ['code', 'code'],
      ['name', 'name'],
    ]);
    expect(copyPairs({ copy: { partnerName: 'name', partnerCode: 'code' } })).toEqual([
      ['partnerName', 'name'],
      ['partnerCode', 'code'],
    ]);
  });
});

describe('lint of copy', () => {
  const partner = {
    $schema: '../meta/resource.schema.json',
    name: 'partner',
    table: 'partner',
    title: '合作方',
    fields: { name: { type: 'string', label: '名称' }, code: { type: 'string', label: '代码' } },
  };
  const order = (copy: unknown) => ({
    $schema: '../meta/resource.schema.json',
    name: 'order',
    table: 'order_t',
    title: '订单',
    fields: {
      partner: { type: 'ref', label: '合作方', ref: 'partner', copy },
      partnerName: { type: 'string', label: '合作方名称' },
      code: { type: 'string', label: '代码' },
    },
  });
  const lint = (copy: unknown) => {
    const texts: SchemaText[] = [
      { path: 'resources/partner.json', text: JSON.stringify(partner, null, 2) },
      { path: 'resources/order.json', text: JSON.stringify(order(copy), null, 2) },
    ];
    return lintFiles(texts, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => formatDiagnostic(e));
  };

  it('accepts a list and a map whose fields exist on both sides', () => {
    expect(lint(['code'])).toEqual([]);
    expect(lint({ partnerName: 'name', code: 'code' })).toEqual([]);
  });

  it('reports a map key that is no field here, and a value that is no field of the referenced resource', () => {
    const errors = lint({ partnerNmae: 'name', partnerName: 'title' });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^resources\/order\.json:\d+:\d+: no field 'partnerNmae' beside this reference to copy into \[unknown-field\]$/);
    expect(errors[1]).toMatch(/^resources\/order\.json:\d+:\d+: resource 'partner' has no field 'title' to copy \[unknown-field\]$/);
  });

  it('refuses an empty map and a value that is not a field name', () => {
    expect(lint({}).join('\n')).toContain('[meta-schema]');
    expect(lint({ partnerName: 'not a name' }).join('\n')).toContain('[meta-schema]');
  });
});
