/**
 * The original portal: "Dictionary lists filtered out: inspect_department, monitor_department, SCD_JYJGWYDM,
 * SCD_ORG, department_21, department_22, WJTX_MENU_TREE". One list in src/shared/dicts.ts; the lint
 * refuses a dictionary or a field naming one (the corpus case tests/fixtures/lint/filtered-dict),
 * the server's catalogue never loads one and the browser's registry never serves one.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { byName, bundledRegistry } from '../../src/engine/registry/bundled';
import { SchemaNotFoundError } from '../../src/engine/registry/registry';
import { formatDiagnostic } from '../../src/schema/diagnostics';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import { loadCatalog } from '../../src/server/resources/catalog';
import { FILTERED_DICT_TYPES, isFilteredDict } from '../../src/shared/dicts';
import { RULE_NAMES } from '../../scripts/rule-names';

const SPEC_LIST = ['inspect_department', 'monitor_department', 'SCD_JYJGWYDM', 'SCD_ORG', 'department_21', 'department_22', 'WJTX_MENU_TREE'];
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('dictionary types filtered out of dictionary lists', () => {
  it('are the original portal’s seven, in one constant', () => {
    expect([...FILTERED_DICT_TYPES]).toEqual(SPEC_LIST);
    for (const name of SPEC_LIST) expect(isFilteredDict(name)).toBe(true);
    for (const name of ['area', 'scd_org', 'SCD_ORG ', undefined, 7]) expect(isFilteredDict(name)).toBe(false);
  });

  it('have no file among the repository’s dictionaries', () => {
    const names = readdirSync(join(root, 'schemas/dicts')).map((f) => f.replace(/\.json$/, ''));
    expect(names.filter(isFilteredDict)).toEqual([]);
  });

  it('are refused by the lint with a message that says why, wherever a field names one', () => {
    const resource = (dict: string) => ({
      path: 'resources/a.json',
      text: JSON.stringify({
        $schema: '../meta/resource.schema.json',
        name: 'a',
        table: 'a',
        title: 'A',
        fields: { unit: { type: 'dict', label: '部门', dict } },
      }),
    });
    const metaSchemas = readMetaSchemas(join(root, 'schemas/meta'));
    for (const name of SPEC_LIST) {
      const { errors } = lintFiles([resource(name)], { metaSchemas, ruleNames: RULE_NAMES });
      // One finding at the field's `dict`, instead of the meta-schema's name-pattern mismatch.
      expect(errors.map((e) => formatDiagnostic(e))).toEqual([
        `resources/a.json:1:130: field 'unit' may not offer dictionary '${name}': it is filtered out of every dictionary list (as in the original portal: ${SPEC_LIST.join(', ')}) [filtered-dict]`,
      ]);
    }
  });

  describe('are never offered', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-dicts-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('by the server’s catalogue', () => {
      mkdirSync(join(dir, 'dicts'));
      for (const name of ['SCD_ORG', 'department_21', 'kept'])
        writeFileSync(join(dir, 'dicts', `${name}.json`), JSON.stringify({ name, title: name, items: [{ value: '1', label: '一' }] }));
      const catalog = loadCatalog(dir);
      expect([...catalog.dictValues.keys()]).toEqual(['kept']);
      expect([...catalog.dictItems.keys()]).toEqual(['kept']);
    });

    it('by the browser’s bundled registry', async () => {
      const load = () => Promise.resolve({});
      const table = byName({ '../dicts/SCD_ORG.json': load, '../dicts/WJTX_MENU_TREE.json': load, '../dicts/area.json': load }, isFilteredDict);
      expect([...table.keys()]).toEqual(['area']);
      await expect(bundledRegistry.dict('SCD_ORG')).rejects.toBeInstanceOf(SchemaNotFoundError);
      await expect(bundledRegistry.dict('area')).resolves.toMatchObject({ name: 'area' });
    });
  });
});
