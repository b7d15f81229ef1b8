/**
 * The evolution of resources that hold data: the classifier of `lint:schemas --base` (pure, over
 * sample base and head resources), the lint of the declarations (renamedFrom, convert, retired,
 * evolution.drop), and `--base` itself over a temporary git repository.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyChanges, compareResource, declaredEvolution, liveResource, type SchemaChange } from '../../src/schema/evolution';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { Resource, SchemaText } from '../../src/schema/types';
import { RULE_NAMES } from '../../scripts/rule-names';

const root = fileURLToPath(new URL('../..', import.meta.url));
const metaDir = join(root, 'schemas/meta');

type Fields = Resource['fields'];
const resource = (fields: Fields, extra: Partial<Resource> = {}): Resource => ({ name: 'fx', table: 'fx', title: '样例', fields, ...extra });
const BASE: Fields = {
  title: { type: 'string', label: '名称', maxLength: 50, required: true },
  code: { type: 'string', label: '编码', maxLength: 20 },
  amount: { type: 'string', label: '数量', maxLength: 20 },
  level: { type: 'dict', label: '等级', dict: 'fx-level' },
  note: { type: 'string', label: '备注', maxLength: 50 },
};
const changes = (head: Resource | undefined, base: Resource | undefined = resource(BASE)) =>
  compareResource('fx', base, head).map((c: SchemaChange) => `${c.field ?? '-'} ${c.class}${c.declared ? ' (declared)' : ''}: ${c.what}`);

describe('classifying a change of the resources', () => {
  it('finds no change between equal resources', () => {
    expect(changes(resource(BASE))).toEqual([]);
  });

  it('calls a new resource, a new field, a relaxed rule and a widened column additive', () => {
    expect(compareResource('fx', undefined, resource(BASE)).map((c) => `${c.class}: ${c.what}`)).toEqual(['additive: new resource']);
    const head = changes(
      resource({
        ...BASE,
        title: { ...BASE.title!, required: false },
        code: { ...BASE.code!, maxLength: 40 },
        note: { type: 'text', label: '备注' },
        extra: { type: 'date', label: '新日期' },
      }),
    );
    expect(head).toEqual([
      'title additive: no longer required',
      'code additive: column widened varchar(20) → varchar(40)',
      'code additive: longer (maxLength 20 → 40)',
      'note additive: type string → text (same column)',
      'extra additive: new field',
    ]);
    // Shorter is not: a stored value may not fit.
    expect(changes(resource({ ...BASE, code: { ...BASE.code!, maxLength: 10 } }))).toEqual([
      'code destructive: type string (varchar(20)) → string (varchar(10)) without a declared conversion',
    ]);
  });

  it('calls a rename, a declared conversion, a code map and a retirement a data step', () => {
    const { code, ...rest } = BASE;
    const head = changes(
      resource({
        ...rest,
        serial: { ...code!, renamedFrom: 'code' },
        amount: { type: 'int', label: '数量', convert: { from: 'string' } },
        level: { ...BASE.level!, convert: { map: { a: 'x' } } },
        note: { ...BASE.note!, retired: true },
      }),
    );
    expect(head).toEqual([
      'amount needs-data-step: converted string → int (convert.from)',
      'level needs-data-step: codes remapped (a→x)',
      'note needs-data-step: retired (column and data kept, hidden from screens and answers)',
      'serial needs-data-step: renamed from code (column renamed, values kept)',
    ]);
  });

  it('calls a removed field, an undeclared type change, a removed resource and a new table destructive', () => {
    const { note: _note, ...rest } = BASE;
    expect(changes(resource({ ...rest, amount: { type: 'int', label: '数量' } }))).toEqual([
      'amount destructive: type string (varchar(20)) → int (integer) without a declared conversion',
      'note destructive: removed without being retired (retire it, or list it in evolution.drop)',
    ]);
    expect(changes(undefined)).toEqual(['- destructive: resource removed (table fx no longer reachable; drop it with a numbered migration)']);
    expect(changes(resource(BASE, { table: 'fx2' }))[0]).toMatch(/^- destructive: table fx → fx2/);
    // A retired field removed later is still a removal.
    expect(changes(resource(rest), resource({ ...BASE, note: { ...BASE.note!, retired: true } }))).toEqual([
      'note destructive: removed without being retired (retire it, or list it in evolution.drop)',
    ]);
  });

  it('accepts a removal the resource declares in evolution.drop', () => {
    const { note: _note, ...rest } = BASE;
    expect(changes(resource(rest, { evolution: { drop: ['note'] } }))).toEqual([
      'note destructive (declared): removed, column and data dropped (declared in evolution.drop)',
    ]);
  });

  it('classifies every resource of two sets by name', () => {
    const base = new Map([
      ['fx', resource(BASE)],
      ['gone', { ...resource(BASE), name: 'gone' }],
    ]);
    const head = new Map([
      ['fx', resource(BASE)],
      ['new', { ...resource(BASE), name: 'new' }],
    ]);
    expect(classifyChanges(base, head).map((c) => `${c.resource} ${c.class}`)).toEqual(['gone destructive', 'new additive']);
  });

  it('lists the declared evolution and leaves retired fields out of the live resource', () => {
    const head = resource(
      {
        ...BASE,
        serial: { type: 'string', label: '编号', renamedFrom: 'code' },
        amount: { type: 'int', label: '数量', convert: { from: 'string' } },
        note: { ...BASE.note!, retired: true },
      },
      { evolution: { drop: ['old'] } },
    );
    expect(declaredEvolution(head)).toEqual({
      renames: [{ field: 'serial', from: 'code' }],
      conversions: [{ field: 'amount', what: 'string → int' }],
      retired: ['note'],
      dropped: ['old'],
    });
    expect(Object.keys(liveResource(head).fields)).not.toContain('note');
  });
});

describe('linting the declared evolution', () => {
  const dict: SchemaText = {
    path: 'dicts/fx-level.json',
    text: JSON.stringify({ $schema: '../meta/dict.schema.json', name: 'fx-level', title: '等级', items: [{ value: 'a', label: '甲' }] }),
  };
  const lint = (fields: Fields, extra: Record<string, unknown> = {}, more: SchemaText[] = []) =>
    lintFiles(
      [{ path: 'resources/fx.json', text: JSON.stringify({ $schema: '../meta/resource.schema.json', ...resource(fields), ...extra }, null, 2) }, dict, ...more],
      { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES },
    ).errors.map((e) => `${e.file}:${e.line} ${e.code}: ${e.message}`);

  it('accepts sound declarations', () => {
    const { code, ...rest } = BASE;
    expect(
      lint(
        {
          ...rest,
          serial: { ...code!, renamedFrom: 'code' },
          amount: { type: 'int', label: '数量', convert: { from: 'string' } },
          level: { ...BASE.level!, convert: { map: { b: 'a' } } },
          note: { ...BASE.note!, retired: true },
        },
        { evolution: { drop: ['old'] } },
      ),
    ).toEqual([]);
  });

  it('reports each wrong declaration at its place', () => {
    const errors = lint(
      {
        ...BASE,
        again: { type: 'string', label: '重复', renamedFrom: 'code' },
        amount: { type: 'bool', label: '数量', convert: { from: 'string' } },
        level: { ...BASE.level!, convert: { map: { a: 'zz' } } },
        note: { ...BASE.note!, retired: true, required: true },
      },
      { evolution: { drop: ['title'] } },
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^resources\/fx\.json:\d+ evolution: renamedFrom 'code' names a field the resource still has/),
        expect.stringMatching(/evolution: text converts only to int, decimal, money, date, not to bool/),
        expect.stringMatching(/evolution: 'zz' is not a code of dictionary 'fx-level'/),
        expect.stringMatching(/evolution: 'note' is retired: it cannot be required/),
        expect.stringMatching(/evolution: 'title' is still a field of the resource/),
      ]),
    );
    expect(errors.every((e) => /^resources\/fx\.json:\d+ /.test(e))).toBe(true);
  });

  it('treats a retired field as unknown to screens and search', () => {
    const screen: SchemaText = {
      path: 'screens/fx-list.json',
      text: JSON.stringify({ $schema: '../meta/screen.schema.json', id: 'fx-list', kind: 'list', resource: 'fx', title: '样例', columns: [{ field: 'note' }] }),
    };
    const errors = lint({ ...BASE, note: { ...BASE.note!, retired: true } }, { search: ['note'] }, [screen]);
    expect(errors.some((e) => e.startsWith('resources/fx.json') && e.includes("'note' is not a text field"))).toBe(true);
    expect(errors.some((e) => e.startsWith('screens/fx-list.json') && e.includes('note'))).toBe(true);
  });
});

describe('npm run lint:schemas -- --base', () => {
  const repo = mkdtempSync(join(tmpdir(), 'schema-evolution-git-'));
  afterAll(() => rmSync(repo, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: repo, stdio: 'pipe' });
  const write = (fields: Fields, extra: Partial<Resource> = {}) =>
    writeFileSync(join(repo, 'schemas/resources/fx.json'), JSON.stringify({ $schema: '../meta/resource.schema.json', ...resource(fields, extra) }, null, 2));
  const lintSchemas = (...args: string[]) =>
    spawnSync(join(root, 'node_modules/.bin/tsx'), [join(root, 'scripts/lint-schemas.ts'), ...args, join(repo, 'schemas')], { cwd: repo, encoding: 'utf8' });

  it('skips without history, compares with HEAD~1 under auto, refuses an undeclared removal and a bad ref', () => {
    mkdirSync(join(repo, 'schemas/resources'), { recursive: true });
    mkdirSync(join(repo, 'schemas/dicts'), { recursive: true });
    writeFileSync(
      join(repo, 'schemas/dicts/fx-level.json'),
      JSON.stringify({ $schema: '../meta/dict.schema.json', name: 'fx-level', title: '等级', items: [{ value: 'a', label: '甲' }] }),
    );
    git('init', '-q');
    write(BASE);
    git('add', '.');
    git('commit', '-qm', 'one');
    const single = lintSchemas('--base', 'auto');
    expect(single.stdout).toContain('--base auto: comparison skipped: no earlier commit');
    expect(single.status).toBe(0);

    const { note: _note, ...rest } = BASE;
    write({ ...rest, extra: { type: 'string', label: '新' } });
    git('commit', '-qam', 'two');
    const removed = lintSchemas('--base', 'auto');
    expect(removed.stdout).toContain('fx\textra\tadditive\tnew field');
    expect(removed.stdout).toContain('fx\tnote\tdestructive\tremoved without being retired');
    expect(removed.status).toBe(1);

    write({ ...rest, extra: { type: 'string', label: '新' } }, { evolution: { drop: ['note'] } });
    const declared = lintSchemas('--base', 'HEAD~1');
    expect(declared.stdout).toContain('fx\tnote\tdestructive (declared)\t');
    expect(declared.status, declared.stdout + declared.stderr).toBe(0);

    const bad = lintSchemas('--base', 'no-such-ref');
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain("no git commit 'no-such-ref'");
  }, 300_000);
});
