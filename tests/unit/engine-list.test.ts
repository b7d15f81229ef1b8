import { describe, expect, it } from 'vitest';
import demoDict from '../../schemas/dicts/demo-notice-category.json';
import demoResource from '../../schemas/resources/demo-notice.json';
import demoList from '../../schemas/screens/demo-notice-list.json';
import { isAvailable, resolveActions } from '../../src/engine/actions/actions';
import { listParams } from '../../src/engine/data/rest';
import { columnSpecs } from '../../src/engine/list/columns';
import { filterParams, filterSpecs, listStateFromSearch, searchFromListState } from '../../src/engine/list/filters';
import type { Dict, ListScreen, Resource } from '../../src/schema/types';

const resource = demoResource as unknown as Resource;
const screen = demoList as unknown as ListScreen;
const bundle = { screen, resource, dicts: new Map([['demo-notice-category', demoDict as unknown as Dict]]) };

describe('list filters', () => {
  const specs = filterSpecs(bundle);

  it('picks an input per field: text, dictionary codes, date range, workflow states', () => {
    expect(specs.map((s) => [s.name, s.input, s.range])).toEqual([
      ['title', 'text', false],
      ['category', 'codes', false],
      ['publishDate', 'dateRange', true],
      ['status', 'codes', false],
    ]);
    expect(specs[3].codes.map((c) => c.label)).toEqual(['草稿', '已提交', '已通过', '已退回']);
  });

  it('turns form values into the server parameters (ranges split, codes as lists, blanks dropped)', () => {
    expect(filterParams(specs, { title: '通知', category: '1', publishDate: ['2024-01-01', undefined], status: [] })).toEqual({
      title: '通知',
      category: ['1'],
      publishDate_gte: '2024-01-01',
    });
  });

  it('round-trips the list state through the URL, leaving defaults out', () => {
    const state = { filters: { title: 'a', category: ['1', '2'], publishDate: ['2024-01-01', '2024-02-01'] }, pageNo: 3, pageSize: 20, sort: { field: 'publishDate', order: 'asc' as const } };
    const search = searchFromListState(screen, specs, state);
    expect(search.toString()).toBe('title=a&category=1&category=2&publishDate_gte=2024-01-01&publishDate_lte=2024-02-01&pageNo=3&orderBy=publishDate');
    expect(listStateFromSearch(screen, specs, search)).toEqual(state);
    expect(searchFromListState(screen, specs, { filters: {}, pageNo: 1, pageSize: 20, sort: screen.defaultSort }).toString()).toBe('');
    expect(listStateFromSearch(screen, specs, new URLSearchParams())).toEqual({ filters: {}, pageNo: 1, pageSize: 20, sort: { field: 'updateDate', order: 'desc' } });
  });

  it('sends the server its own parameter names', () => {
    expect(listParams({ pageNo: 2, pageSize: 20, sort: [{ field: 'updateDate', order: 'desc' }, { field: 'title', order: 'asc' }], filters: { title: 'x', empty: '' } })).toEqual({
      title: 'x',
      pageNo: 2,
      pageSize: 20,
      orderBy: 'updateDate desc,title',
    });
  });
});

describe('list columns', () => {
  it('renders by the screen, else by the field type', () => {
    expect(columnSpecs(bundle).map((c) => [c.name, c.label, c.render])).toEqual([
      ['title', '标题', 'ellipsis'],
      ['category', '类别', 'dictTag'],
      ['publishDate', '发布日期', 'date'],
      ['status', '状态', 'dictTag'],
      ['updateDate', '更新时间', 'datetime'],
    ]);
  });
});

describe('row actions', () => {
  const actions = Object.fromEntries(resolveActions(resource, screen.rowActions).map((a) => [a.name, a]));
  const draft = { id: '1', status: 'draft' };
  const submitted = { id: '2', status: 'submitted' };
  const unit = { roleType: 'unit' };
  const authority = { roleType: 'authority' };

  it('offers each workflow action only in its from-states', () => {
    expect(isAvailable(actions.commit, draft, unit)).toBe(true);
    expect(isAvailable(actions.commit, submitted, unit)).toBe(false);
    expect(isAvailable(actions.revoke, submitted, unit)).toBe(true);
    expect(isAvailable(actions.delete, submitted, unit)).toBe(false);
    expect(isAvailable(actions.view, submitted, unit)).toBe(true);
  });

  it('evaluates `when` over the row', () => {
    expect(isAvailable(actions.edit, draft, unit)).toBe(true);
    expect(isAvailable(actions.edit, submitted, unit)).toBe(false);
  });

  it('offers audit actions to the authority role only', () => {
    expect(isAvailable(actions['audit-agree'], submitted, unit)).toBe(false);
    expect(isAvailable(actions['audit-agree'], submitted, authority)).toBe(true);
    expect(isAvailable(actions['audit-agree'], submitted, {})).toBe(false);
  });

  it('asks for an opinion instead of a confirmation where the workflow wants one', () => {
    expect(actions['audit-disagree']).toMatchObject({ label: '审核不通过', opinion: 'required', confirm: undefined, danger: true });
    expect(actions['audit-agree']).toMatchObject({ opinion: 'optional', confirm: undefined });
    expect(actions.delete.confirm).toBe('删除后不可恢复，确定删除？');
    expect(actions.commit.confirm).toBe('确定要提交该记录吗？');
    expect(actions.view.confirm).toBeUndefined();
  });

  it('treats save and commit as form submits inside a form', () => {
    const [save, commit] = resolveActions(resource, ['save', 'commit'], { inForm: true });
    expect([save.kind, commit.kind]).toEqual(['save', 'commit']);
    expect(isAvailable(save, undefined, unit)).toBe(true);
    expect(isAvailable(save, submitted, unit)).toBe(false);
  });
});
