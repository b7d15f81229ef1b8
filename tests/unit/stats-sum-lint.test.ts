/**
 * The lint of a stats chart's `resource`, `sum` and `rateSum` (src/schema/checks/screens.ts
 * summedLine): a line per month of a date field of the resource it reads, summing integer fields of
 * it, without the keys that filter or link the screen's own rows.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../scripts/rule-names';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { SchemaText } from '../../src/schema/types';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');

const resource = (name: string, fields: Record<string, unknown>): SchemaText => ({
  path: `resources/${name}.json`,
  text: JSON.stringify({ $schema: '../meta/resource.schema.json', name, table: name, title: name, fields }, null, 2),
});

const FILES = [
  resource('piece', { name: { type: 'string', label: '名称' }, made: { type: 'date', label: '日期' } }),
  resource('tally', {
    month: { type: 'date', label: '月份' },
    whole: { type: 'int', label: '总数' },
    part: { type: 'int', label: '部分' },
    note: { type: 'string', label: '备注' },
  }),
];

const errors = (chart: Record<string, unknown>): string[] => {
  const screen: SchemaText = {
    path: 'screens/piece-stats.json',
    text: JSON.stringify(
      {
        $schema: '../meta/screen.schema.json',
        id: 'piece-stats',
        kind: 'stats',
        resource: 'piece',
        title: '统计',
        charts: [{ title: '趋势', type: 'line', ...chart }],
      },
      null,
      2,
    ),
  };
  return lintFiles([...FILES, screen], { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => `${e.code}: ${e.message}`);
};

describe('a stats line of sums over another resource', () => {
  it('takes a date groupBy and integer sums of the resource it reads', () => {
    expect(errors({ resource: 'tally', groupBy: 'month', sum: 'whole', rateSum: 'part', label: '比率' })).toEqual([]);
    expect(errors({ resource: 'tally', groupBy: 'month', sum: 'whole' })).toEqual([]);
  });

  it("reads the fields of that resource, not the screen's", () => {
    expect(errors({ resource: 'tally', groupBy: 'made', sum: 'whole' })).toEqual(["unknown-field: resource 'tally' has no field 'made'"]);
    expect(errors({ resource: 'nope', groupBy: 'month', sum: 'whole' })).toEqual(["unknown-resource: no resource 'nope' (schemas/resources/nope.json)"]);
  });

  it('refuses sums of a field that is not an integer, and a month of a field that is not a date', () => {
    expect(errors({ resource: 'tally', groupBy: 'month', sum: 'note' })).toEqual(["field-type: 'sum' sums an integer field; 'note' is string"]);
    expect(errors({ resource: 'tally', groupBy: 'whole', sum: 'part' })).toEqual(["field-type: a line chart counts per month of a date field; 'whole' is int"]);
  });

  it('needs sum beside rateSum, a line chart, and no filter or link of its own', () => {
    expect(errors({ resource: 'tally', groupBy: 'month', rateSum: 'part' })).toEqual([
      "field-type: 'rateSum' is a share of the 'sum' field's sum: name 'sum' too",
    ]);
    expect(errors({ resource: 'tally', groupBy: 'month', sum: 'whole', type: 'bar' })).toEqual([
      "field-type: 'resource', 'sum' and 'rateSum' draw a line per month, not a bar chart",
    ]);
    expect(errors({ resource: 'tally', groupBy: 'month', sum: 'whole', link: '/x' })).toContain(
      "field-type: 'link' does not go with 'resource', 'sum' or 'rateSum' (one line of sums over the chart's resource)",
    );
  });
});
