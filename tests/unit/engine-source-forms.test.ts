/**
 * The engine's pieces for screens over API paths: a checkable option tree's value (the checked
 * leaves), what a form over a `source` posts, the one-time value it shows, a detail section's
 * `each` items, the title of a form in a list's dialog, `formDialog` and detail `call` buttons,
 * and a detail's bundle built from its own fields.
 */
import { describe, expect, it } from 'vitest';
import { resolveActions } from '../../src/engine/actions/actions';
import { eachItems } from '../../src/engine/detail/DetailScreen';
import { onceValue } from '../../src/engine/form/OnceShown';
import { checkedLeaves, leafValues, treeData, valueList, type OptionNode } from '../../src/engine/form/option-tree';
import { sourceBody } from '../../src/engine/form/useSchemaForm';
import { formDialogTitle } from '../../src/engine/list/FormDialog';
import { loadScreenBundle, memoryRegistry } from '../../src/engine/registry/registry';
import type { Resource, Screen } from '../../src/schema/types';

const TREE: OptionNode[] = [
  {
    value: 'group:/a',
    label: '甲',
    children: [
      { value: 'a:1', label: '一' },
      { value: 'group:/a/b', label: '乙', children: [{ value: 'b:1', label: '二' }] },
    ],
  },
  { value: 'c:1', label: '三' },
];

describe('option tree', () => {
  it('values are the leaves: groups never count, duplicates and unknown keys are dropped', () => {
    const leaves = leafValues(TREE);
    expect([...leaves].sort()).toEqual(['a:1', 'b:1', 'c:1']);
    expect(checkedLeaves(['group:/a', 'b:1', 'a:1', 'a:1', 'x:9'], leaves)).toEqual(['a:1', 'b:1']);
    expect(valueList(undefined)).toEqual([]);
    expect(valueList(['a:1'])).toEqual(['a:1']);
  });

  it("gives antd's Tree keys and titles, children only where there are some", () => {
    expect(treeData(TREE)[1]).toEqual({ key: 'c:1', title: '三' });
    expect(treeData(TREE)[0].children![1].children).toEqual([{ key: 'b:1', title: '二' }]);
  });
});

const FORM = {
  id: 'acct-form',
  kind: 'form',
  title: '账号',
  fields: { loginName: { type: 'string', label: '登录账号' }, phone: { type: 'string', label: '固定电话' }, menuIds: { type: 'string', label: '菜单' } },
  source: { save: '/a/save', once: { field: 'initialPassword', title: '账号已创建', label: '初始密码', note: '仅显示一次' } },
  sections: [{ fields: ['loginName', 'phone', 'menuIds'] }],
} as unknown as Screen;

describe('a form over a source', () => {
  it("posts its own fields' values (none empty) and the edited record's id, nothing else of the record", () => {
    const values = { loginName: 'zhao', phone: null, menuIds: ['a:1'], roles: [{ id: 'r' }], sessions: 2 };
    expect(sourceBody({ screen: FORM }, values, undefined)).toEqual({ loginName: 'zhao', menuIds: ['a:1'] });
    expect(sourceBody({ screen: FORM }, values, 'f00d')).toEqual({ loginName: 'zhao', menuIds: ['a:1'], id: 'f00d' });
  });

  it('shows the one-time value only when the reply holds one', () => {
    const once = (FORM as { source: { once: Parameters<typeof onceValue>[0] } }).source.once;
    expect(onceValue(once, { id: 'x', initialPassword: '12345678' })).toBe('12345678');
    expect(onceValue(once, { id: 'x', initialPassword: null })).toBeUndefined();
    expect(onceValue(once, { id: 'x', initialPassword: '' })).toBeUndefined();
    expect(onceValue(once, null)).toBeUndefined();
  });

  it('is titled 新增 / 编辑 and the form title in a dialog', () => {
    expect(formDialogTitle('子账号', undefined)).toBe('新增子账号');
    expect(formDialogTitle('子账号', 'f00d')).toBe('编辑子账号');
  });
});

describe('buttons and sections over a source', () => {
  const resource: Resource = { name: 'acct', table: 'acct', title: '账号', fields: {} };

  it('resolves formDialog and call buttons to their kinds and targets', () => {
    const [dialog, call] = resolveActions(resource, [
      { action: 'edit-account', label: '编辑', formDialog: 'acct-form' },
      { action: 'unlock', label: '解锁', call: '/a/unlock', confirm: '确定解锁该账号吗？', done: '账号已解锁' },
    ]);
    expect(dialog).toMatchObject({ kind: 'formDialog', target: 'acct-form', label: '编辑' });
    expect(call).toMatchObject({ kind: 'call', target: '/a/unlock', confirm: '确定解锁该账号吗？', done: '账号已解锁' });
  });

  it("takes a section's items from a list of objects only", () => {
    expect(eachItems({ roles: [{ name: '甲' }, 'x', null, [1], { name: '乙' }] }, 'roles')).toEqual([{ name: '甲' }, { name: '乙' }]);
    expect(eachItems({ roles: 'none' }, 'roles')).toEqual([]);
  });

  it('bundles a detail over a source with its own fields as its resource', async () => {
    const detail = {
      id: 'acct-detail',
      kind: 'detail',
      title: '账号详情',
      source: { get: '/a/get' },
      fields: { state: { type: 'dict', label: '状态', dict: 'state' } },
      sections: [{ fields: ['state'] }],
    } as unknown as Screen;
    const registry = memoryRegistry({ screens: [detail], dicts: [{ name: 'state', title: '状态', items: [{ value: 'ok', label: '正常' }] }] });
    const bundle = await loadScreenBundle(registry, 'acct-detail');
    expect(bundle.resource).toMatchObject({ name: 'acct-detail', fields: { state: { label: '状态' } } });
    expect(bundle.dicts.get('state')?.items[0].label).toBe('正常');
  });
});
