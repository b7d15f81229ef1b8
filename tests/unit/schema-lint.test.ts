import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LINT_CODES, formatDiagnostic } from '../../src/schema/diagnostics';
import { expectedSchemaRef, kindOf, lintFiles } from '../../src/schema/lint';
import { lintSchemas, readMetaSchemas } from '../../src/schema/node';
import type { SchemaText } from '../../src/schema/types';
import { HOOK_NAMES } from '../../scripts/hook-names';
import { RULE_NAMES } from '../../scripts/rule-names';

const root = fileURLToPath(new URL('../..', import.meta.url));
const schemasDir = join(root, 'schemas');
const metaDir = join(schemasDir, 'meta');
const corpusDir = join(root, 'tests/fixtures/lint');
const corpus = readdirSync(corpusDir)
  .filter((name) => existsSync(join(corpusDir, name, 'expected.txt')))
  .sort();

const lint = (dir: string) => lintSchemas(dir, { ruleNames: RULE_NAMES, hookNames: HOOK_NAMES, metaDir });

describe('the broken-file corpus', () => {
  it('has one case per check', () => {
    expect(corpus).toEqual([...LINT_CODES].sort());
  });

  it.each(corpus)('%s: reports exactly the expected messages at the expected places', (code) => {
    const dir = join(corpusDir, code);
    const expected = readFileSync(join(dir, 'expected.txt'), 'utf8').split('\n').filter(Boolean);
    const { errors } = lint(dir);
    expect(errors.map((e) => formatDiagnostic(e))).toEqual(expected);
    expect(new Set(errors.map((e) => e.code))).toEqual(new Set([code]));
  });
});

describe('the real schema directory', () => {
  it('lints clean (menu included once schemas/menu.json exists)', () => {
    const result = lint(schemasDir);
    expect(result.errors.map((e) => formatDiagnostic(e))).toEqual([]);
    expect(result.files).toBeGreaterThanOrEqual(5);
  });
});

describe('file conventions', () => {
  it('finds the kind of a file by its folder', () => {
    expect(kindOf('resources/a.json')).toBe('resource');
    expect(kindOf('screens/x/a.json')).toBe('screen');
    expect(kindOf('dicts/a.json')).toBe('dict');
    expect(kindOf('menu.json')).toBe('menu');
    expect(kindOf('other/menu.json')).toBeUndefined();
  });

  it('expects $schema relative to the file', () => {
    expect(expectedSchemaRef('menu.json', 'menu')).toBe('./meta/menu.schema.json');
    expect(expectedSchemaRef('resources/a.json', 'resource')).toBe('../meta/resource.schema.json');
    expect(expectedSchemaRef('screens/x/a.json', 'screen')).toBe('../../meta/screen.schema.json');
  });

  it('skips route, screen and access checks against the menu when there is no menu', () => {
    const texts: SchemaText[] = [
      {
        path: 'resources/a.json',
        text: JSON.stringify({
          $schema: '../meta/resource.schema.json',
          name: 'a',
          table: 'a',
          title: 'A',
          fields: { n: { type: 'string', label: 'N' } },
          access: ['a:list'],
        }),
      },
      {
        path: 'screens/a-list.json',
        text: JSON.stringify({
          $schema: '../meta/screen.schema.json',
          id: 'a-list',
          kind: 'list',
          resource: 'a',
          title: 'A',
          columns: [{ field: 'n', render: 'link', to: '/nowhere' }],
        }),
      },
    ];
    expect(lintFiles(texts, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors).toEqual([]);
  });
});

describe('meta-schemas', () => {
  it('reports a file whose meta-schema is missing instead of passing it unchecked', () => {
    const texts: SchemaText[] = [{ path: 'dicts/a.json', text: '{ "$schema": "../meta/dict.schema.json", "name": "a", "title": "A", "items": [] }' }];
    expect(lintFiles(texts, { metaSchemas: {}, ruleNames: RULE_NAMES }).errors.map((e) => formatDiagnostic(e))).toEqual([
      'dicts/a.json:1:1: no meta-schema meta/dict.schema.json to validate against [meta-schema]',
    ]);
  });
});

describe('personal data masks', () => {
  const resourceWith = (fields: Record<string, object>): SchemaText[] => [
    {
      path: 'resources/p.json',
      text: JSON.stringify(
        { $schema: '../meta/resource.schema.json', name: 'p', table: 'p', title: 'P', fields: { name: { type: 'string', label: '姓名' }, ...fields } },
        null,
        2,
      ),
    },
  ];
  const codes = (fields: Record<string, object>) =>
    lintFiles(resourceWith(fields), { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => e.code);

  it('takes a pattern name or a pattern with the role types that see the whole value', () => {
    expect(
      codes({
        idCard: { type: 'string', label: '身份证号', rules: ['idCard'], mask: 'idCard' },
        tel: { type: 'string', label: '电话', mask: { pattern: 'phone', roles: ['authority'] } },
      }),
    ).toEqual([]);
  });

  it('refuses an unknown pattern, a mask on a type without text and a field of ID cards or phone numbers without one', () => {
    expect(codes({ idCard: { type: 'string', label: '身份证号', mask: 'idcard' } })).toEqual(['meta-schema']);
    expect(codes({ day: { type: 'date', label: '日期', mask: 'name' } })).toEqual(['field-type']);
    expect(codes({ contactMobile: { type: 'string', label: '联系手机' } })).toEqual(['personal-data']);
    expect(codes({ tel: { type: 'string', label: '电话', rules: ['phoneOrLandline'] } })).toEqual(['personal-data']);
  });
});

describe('scale', () => {
  it('lints 1,000 screens well within the 10 s budget', () => {
    const resource = {
      $schema: '../meta/resource.schema.json',
      name: 'r',
      table: 'r',
      title: 'R',
      fields: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, { type: 'string', label: `F${i}` }])),
    };
    const texts: SchemaText[] = [{ path: 'resources/r.json', text: JSON.stringify(resource, null, 2) }];
    for (let i = 0; i < 1000; i++) {
      const screen = {
        $schema: '../meta/screen.schema.json',
        id: `s${i}`,
        kind: 'form',
        resource: 'r',
        title: `S${i}`,
        sections: [
          {
            title: 'A',
            fields: Array.from({ length: 30 }, (_, f) => (f % 3 === 0 ? { field: `f${f}`, when: `f${(f + 1) % 30} === 'x' && f2 !== ''` } : `f${f}`)),
          },
        ],
      };
      texts.push({ path: `screens/s${i}.json`, text: JSON.stringify(screen, null, 2) });
    }
    const started = performance.now();
    const result = lintFiles(texts, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES });
    const elapsed = performance.now() - started;
    expect(result.errors).toEqual([]);
    expect(elapsed).toBeLessThan(10_000);
  });
});
