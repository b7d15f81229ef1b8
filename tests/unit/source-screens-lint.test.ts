/**
 * The lint of screens over API paths outside the resource routes (src/schema/checks/screens.ts): a
 * detail without a resource reads a `source` and declares its `fields`, a section's `each` repeats
 * a detail's section over a declared field, a detail's button may `call` (nothing else of a list's
 * row buttons), a form over a `source` declares its fields and is not an open form too, `once`
 * shows fields of the form, `optionTree` holds a list of values, and `formDialog` opens a shell form.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULE_NAMES } from '../../scripts/rule-names';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { SchemaText } from '../../src/schema/types';

const metaDir = join(fileURLToPath(new URL('../..', import.meta.url)), 'schemas/meta');
const json = (value: unknown) => JSON.stringify(value, null, 2);
const screenFile = (screen: Record<string, unknown>): SchemaText => ({
  path: `screens/${String(screen.id)}.json`,
  text: json({ $schema: '../meta/screen.schema.json', ...screen }),
});

const FIELDS = {
  loginName: { type: 'string', label: '登录账号' },
  roles: { type: 'string', label: '角色' },
  menus: { type: 'string', label: '菜单' },
  menuIds: { type: 'string', label: '菜单权限' },
  count: { type: 'int', label: '次数' },
};
const DETAIL = {
  id: 'acct-detail',
  kind: 'detail',
  title: '账号',
  source: { get: '/a/acct/get' },
  fields: FIELDS,
  sections: [{ fields: ['loginName'] }, { title: '角色', each: { field: 'roles', title: 'name' }, fields: ['menus'] }],
  actions: [{ action: 'unlock', label: '解锁', call: '/a/acct/unlock', confirm: '确定解锁该账号吗？', done: '账号已解锁' }, 'back'],
};
const FORM = {
  id: 'acct-form',
  kind: 'form',
  title: '账号',
  fields: FIELDS,
  source: {
    get: '/a/acct/get',
    save: '/a/acct/save',
    success: '/acct?id={id}',
    once: { field: 'initialPassword', title: '账号已创建', label: '初始密码', show: ['loginName'], note: '仅显示一次' },
  },
  sections: [{ fields: ['loginName', { field: 'menuIds', optionTree: '/a/acct/menus' }] }],
};
const LIST = {
  id: 'acct-list',
  kind: 'list',
  title: '账号',
  source: { list: '/a/acct/list' },
  fields: FIELDS,
  columns: ['loginName'],
  toolbar: [{ action: 'add', label: '新增', formDialog: 'acct-form' }],
  rowActions: [{ action: 'edit-account', label: '编辑', formDialog: 'acct-form' }],
};

/** Lint errors of the screen `id`, with the three screens above changed by `patch`. */
function lintErrors(id: string, patch: Record<string, Record<string, unknown>> = {}): string[] {
  const files = [DETAIL, FORM, LIST].map((s) => screenFile({ ...s, ...patch[s.id] }));
  return lintFiles(files, { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES })
    .errors.filter((e) => e.file === `screens/${id}.json`)
    .map((e) => `${e.code}: ${e.message}`);
}

describe('screens over a source', () => {
  it('takes a detail, a form and a list over API paths, without resources', () => {
    for (const id of ['acct-detail', 'acct-form', 'acct-list']) expect(lintErrors(id)).toEqual([]);
  });

  it('refuses a detail without resource or source, and fields without a source', () => {
    expect(lintErrors('acct-detail', { 'acct-detail': { source: undefined } })).toEqual([
      expect.stringMatching(/^screen-link: a detail without 'resource' reads a 'source'/),
      expect.stringMatching(/^screen-link: a detail declares 'fields' only with a 'source'/),
    ]);
  });

  it("refuses an undeclared 'each' field, 'each' on a form, and a detail button that opens a route", () => {
    expect(lintErrors('acct-detail', { 'acct-detail': { sections: [{ each: { field: 'groups' }, fields: ['menus'] }] } })).toEqual([
      expect.stringMatching(/^unknown-field: .*'groups'/),
    ]);
    expect(lintErrors('acct-form', { 'acct-form': { sections: [{ each: { field: 'roles' }, fields: ['loginName'] }] } })).toEqual([
      expect.stringMatching(/^screen-link: 'each' repeats a detail's section/),
    ]);
    expect(lintErrors('acct-detail', { 'acct-detail': { actions: [{ action: 'go', label: '去', to: '/x' }] } })).toEqual([
      expect.stringMatching(/^screen-link: 'to' is a list's row button \(a detail's may 'call'\)/),
    ]);
  });

  it("refuses a source form that is an open form too, 'once' of a field it does not show, and an optionTree on a number", () => {
    const errors = lintErrors('acct-form', {
      'acct-form': {
        submit: { path: '/a/x', success: '/x' },
        source: { ...FORM.source, once: { ...FORM.source.once, show: ['roles'] } },
        sections: [{ fields: ['loginName', { field: 'count', optionTree: '/a/acct/menus' }] }],
      },
    });
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^field-type: 'optionTree' holds a list of values: 'count' is of type int/),
        expect.stringMatching(/^screen-link: a form posts to 'submit' \(an open form\) or saves to 'source', not both/),
        expect.stringMatching(/^unknown-field: 'roles' is not a field the form shows/),
      ]),
    );
  });

  it('refuses a formDialog that is not a shell form, and one next to another target', () => {
    expect(
      lintErrors('acct-list', {
        'acct-list': {
          toolbar: [{ action: 'add', formDialog: 'acct-form', to: '/x' }],
          rowActions: [{ action: 'open-detail', label: '详情', formDialog: 'acct-detail' }],
        },
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^screen-link: a button opens a route \('to'\) or a dialog/),
        expect.stringMatching(/^screen-link: 'formDialog' opens a form screen of the shell: 'acct-detail' is a detail screen/),
      ]),
    );
  });
});
