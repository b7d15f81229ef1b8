/**
 * What a form does around a save, as pure rules: where a saved record lands (editable or read-only),
 * the tab title of a form opened for adding, a form tab closed once its list shows again, and the
 * lint of a screen's `afterSave`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { editableAfterSave } from '../../src/engine/actions/actions';
import { lintFiles } from '../../src/schema/lint';
import { readMetaSchemas } from '../../src/schema/node';
import type { Resource, SchemaText } from '../../src/schema/types';
import { dropLeftTabs, titleFor } from '../../src/shell/tabs/model';
import { documentTitle } from '../../src/app/menu';
import { RULE_NAMES } from '../../scripts/rule-names';

const metaDir = fileURLToPath(new URL('../../schemas/meta', import.meta.url));

const workflow = {
  initial: 'draft',
  states: { draft: { label: '草稿' }, submitted: { label: '已提交' }, returned: { label: '退回' } },
  actions: { save: { from: ['draft', 'returned'], to: 'draft' }, commit: { from: ['draft', 'returned'], to: 'submitted' } },
} as unknown as Resource['workflow'];

describe('a saved record', () => {
  it('stays editable while its state allows a save, and is read-only once a commit moved it on', () => {
    expect(editableAfterSave({ workflow }, { id: '1', status: 'draft' }, false)).toBe(true);
    expect(editableAfterSave({ workflow }, { id: '1', status: 'returned' }, false)).toBe(true);
    expect(editableAfterSave({ workflow }, { id: '1', status: 'submitted' }, true)).toBe(false);
  });

  it('without a state in the reply: editable after a save, read-only after a commit; always editable without a workflow', () => {
    expect(editableAfterSave({ workflow }, { id: '1' }, false)).toBe(true);
    expect(editableAfterSave({ workflow }, { id: '1' }, true)).toBe(false);
    expect(editableAfterSave({ workflow: undefined }, { id: '1' }, true)).toBe(true);
  });
});

describe('form tabs', () => {
  it('a form opened for adding says 新增, without the editing word of its menu title', () => {
    expect(titleFor('作业人员编辑', '?mode=add')).toBe('新增作业人员');
    expect(titleFor('报检修改', '?mode=add&v.x=1')).toBe('新增报检');
    expect(titleFor('施工告知申请', '?mode=add')).toBe('新增施工告知申请');
    expect(titleFor('新增现场检查', '?mode=add')).toBe('新增现场检查');
    expect(titleFor('作业人员编辑', '?mode=edit&id=3')).toBe('作业人员编辑');
    expect(titleFor('作业人员编辑', '')).toBe('作业人员编辑');
  });

  it("the document title follows the same rule as the tab (the browser's title bar)", () => {
    expect(documentTitle('平台', '作业人员编辑', '?mode=add')).toBe('平台 - 新增作业人员');
    expect(documentTitle('平台', '作业人员编辑', '?mode=edit&id=3')).toBe('平台 - 作业人员编辑');
    expect(documentTitle('平台', undefined, '?mode=add')).toBe('平台');
  });

  it('a form left for its list closes once another page is current, not before', () => {
    const tabs = [
      { key: '/home', path: '/home', title: '首页' },
      { key: '/list', path: '/list', title: '列表' },
      { key: '/form', path: '/form?mode=add', title: '新增' },
    ];
    const leaving = new Set(['/form']);
    expect(dropLeftTabs(tabs, leaving, '/form')).toBe(tabs);
    expect(dropLeftTabs(tabs, leaving, '/list').map((t) => t.key)).toEqual(['/home', '/list']);
    // The mark is used up: the form opened again stays open.
    expect(dropLeftTabs(tabs, leaving, '/list')).toBe(tabs);
  });
});

describe('afterSave in a screen', () => {
  const resource: SchemaText = {
    path: 'resources/a.json',
    text: JSON.stringify({ $schema: '../meta/resource.schema.json', name: 'a', table: 'a', title: 'A', fields: { n: { type: 'string', label: '名称' } } }),
  };
  const form = (extra: object): SchemaText => ({
    path: 'screens/a-form.json',
    text: JSON.stringify({
      $schema: '../meta/screen.schema.json',
      id: 'a-form',
      kind: 'form',
      resource: 'a',
      title: 'A',
      sections: [{ fields: ['n'] }],
      ...extra,
    }),
  });
  const codes = (extra: object) =>
    lintFiles([resource, form(extra)], { metaSchemas: readMetaSchemas(metaDir), ruleNames: RULE_NAMES }).errors.map((e) => `${e.code}: ${e.message}`);

  it('takes back or record', () => {
    expect(codes({ afterSave: 'back' })).toEqual([]);
    expect(codes({ afterSave: 'record', modes: ['add', 'edit'] })).toEqual([]);
    expect(codes({ afterSave: 'list' }).map((c) => c.split(':')[0])).toEqual(['meta-schema']);
  });

  it('refuses staying on the record of a form that only adds', () => {
    expect(codes({ afterSave: 'record', modes: ['add'] })).toEqual([expect.stringContaining("afterSave 'record'")]);
  });
});
