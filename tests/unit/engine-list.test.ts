import { describe, expect, it } from 'vitest';
import demoDict from '../../schemas/dicts/demo-notice-category.json';
import demoResource from '../../schemas/resources/demo-notice.json';
import demoList from '../../schemas/screens/demo-notice-list.json';
import onlineApplyResource from '../../schemas/resources/online-apply.json';
import onlineApplyAudit from '../../schemas/screens/body-online-apply-list.json';
import { isAvailable, ownsRecord, resolveActions } from '../../src/engine/actions/actions';
import { listParams } from '../../src/engine/data/rest';
import { actionsColumnWidth, columnSpecs } from '../../src/engine/list/columns';
import { filterParams, filterSpecs, keywordSearchOf, listQueryOf, listStateFromSearch, searchFromListState } from '../../src/engine/list/filters';
import type { Dict, ListScreen, Resource } from '../../src/schema/types';

const resource = demoResource as unknown as Resource;
const screen = demoList as unknown as ListScreen;
const bundle = { screen, resource, dicts: new Map([['demo-notice-category', demoDict as unknown as Dict]]) };

describe('list filters', () => {
  const specs = filterSpecs(bundle);

  it('picks an input per field: text, dictionary codes, date range, workflow states', () => {
    expect(specs.map((s) => [s.name, s.input, s.range])).toEqual([
      ['title', 'text', false],
      ['unitName', 'text', false],
      ['category', 'codes', false],
      ['publishDate', 'dateRange', true],
      ['status', 'codes', false],
    ]);
    expect(specs[4].codes.map((c) => c.label)).toEqual(['草稿', '已提交', '已通过', '已退回']);
  });

  it('turns form values into the server parameters (ranges split, codes as lists, blanks dropped)', () => {
    expect(filterParams(specs, { title: '通知', category: '1', publishDate: ['2024-01-01', undefined], status: [] })).toEqual({
      title: '通知',
      category: ['1'],
      publishDate_gte: '2024-01-01',
    });
  });

  it('round-trips the list state through the URL, leaving defaults out', () => {
    const state = {
      filters: { title: 'a', category: ['1', '2'], publishDate: ['2024-01-01', '2024-02-01'] },
      pageNo: 3,
      pageSize: 20,
      sort: { field: 'publishDate', order: 'asc' as const },
    };
    const search = searchFromListState(screen, specs, state);
    expect(search.toString()).toBe('title=a&category=1&category=2&publishDate_gte=2024-01-01&publishDate_lte=2024-02-01&pageNo=3&orderBy=publishDate');
    expect(listStateFromSearch(screen, specs, search)).toEqual(state);
    expect(searchFromListState(screen, specs, { filters: {}, pageNo: 1, pageSize: 20, sort: screen.defaultSort }).toString()).toBe('');
    expect(listStateFromSearch(screen, specs, new URLSearchParams())).toEqual({
      filters: {},
      pageNo: 1,
      pageSize: 20,
      sort: { field: 'updateDate', order: 'desc' },
    });
  });

  it('sends the server its own parameter names', () => {
    expect(
      listParams({
        pageNo: 2,
        pageSize: 20,
        sort: [
          { field: 'updateDate', order: 'desc' },
          { field: 'title', order: 'asc' },
        ],
        filters: { title: 'x', empty: '' },
      }),
    ).toEqual({
      title: 'x',
      pageNo: 2,
      pageSize: 20,
      orderBy: 'updateDate desc,title',
    });
  });
});

describe('an attachment filter and column: whether any file is uploaded', () => {
  const online = onlineApplyResource as unknown as Resource;
  const audit = onlineApplyAudit as unknown as ListScreen;
  const specs = filterSpecs({ screen: audit, resource: online, dicts: new Map() });
  const certificate = specs.find((s) => s.name === 'payCertificate')!;

  it('asks 已上传 / 未上传 as payCertificate=true|false, and reads it back from the URL (the desk tile link)', () => {
    expect([certificate.input, certificate.label]).toEqual(['presence', '缴费凭证']);
    const state = listStateFromSearch(audit, specs, new URLSearchParams('status=unpaid&payCertificate=true'));
    expect(state.filters).toMatchObject({ status: ['unpaid'], payCertificate: true });
    expect(listQueryOf(audit, specs, state, undefined).filters).toMatchObject({ status: ['unpaid'], payCertificate: true });
    const none = listStateFromSearch(audit, specs, new URLSearchParams('payCertificate=false'));
    expect(none.filters.payCertificate).toBe(false);
    expect(searchFromListState(audit, specs, none).get('payCertificate')).toBe('false');
    expect(listStateFromSearch(audit, specs, new URLSearchParams('payCertificate=maybe')).filters.payCertificate).toBeUndefined();
  });

  it('shows the column as 已上传 / 未上传 by default', () => {
    const column = columnSpecs({ screen: audit, resource: online, dicts: new Map() }).find((c) => c.name === 'payCertificate')!;
    expect(column.render).toBe('presence');
  });
});

describe('keyword search of the table data (the original portal’s isSearchTableData = true)', () => {
  const searchable = { ...resource, search: ['title', 'content'] } as Resource;
  const specs = filterSpecs({ ...bundle, resource: searchable });

  it('is offered by default by every list whose resource declares search fields, naming them', () => {
    expect(keywordSearchOf(searchable)).toEqual({ placeholder: '按标题、正文搜索', title: '搜索：标题、正文' });
    expect(keywordSearchOf({ ...resource, search: ['title', 'content', 'contactEmail'] })?.placeholder).toBe('按标题、正文等搜索');
    // Nothing indexed to search: filters only.
    expect(keywordSearchOf(resource)).toBeUndefined();
  });

  it('sends the text as the server’s q with the filters and the fixed where, from the first page', () => {
    const state = listStateFromSearch(screen, specs, new URLSearchParams('q=%20电梯%20&category=1&pageNo=2'));
    expect(state).toMatchObject({ q: '电梯', pageNo: 2, filters: { category: ['1'] } });
    expect(listQueryOf({ where: { urgent: true } }, specs, state, keywordSearchOf(searchable))).toEqual({
      pageNo: 2,
      pageSize: 20,
      sort: [{ field: 'updateDate', order: 'desc' }],
      filters: { category: ['1'], q: '电梯', urgent: true },
    });
    // A list whose resource cannot be searched never sends q (the server would refuse it).
    expect(listQueryOf(screen, specs, state, undefined).filters).not.toHaveProperty('q');
  });

  it('keeps the text in the address, so a restored or bookmarked list searches the same', () => {
    const state = { filters: { title: 'a' }, q: '电梯', pageNo: 1, pageSize: 20, sort: screen.defaultSort };
    const search = searchFromListState(screen, specs, state);
    expect(search.toString()).toBe(`title=a&q=${encodeURIComponent('电梯')}`);
    expect(listStateFromSearch(screen, specs, search)).toEqual(state);
    expect(searchFromListState(screen, specs, { ...state, q: '  ' }).has('q')).toBe(false);
  });
});

describe('list columns', () => {
  it('renders by the screen, else by the field type', () => {
    expect(columnSpecs(bundle).map((c) => [c.name, c.label, c.render])).toEqual([
      ['title', '标题', 'ellipsis'],
      ['unitName', '发布单位', 'ellipsis'],
      ['status', '状态', 'dictTag'],
      ['category', '类别', 'dictTag'],
      ['publishDate', '发布日期', 'date'],
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

  it("offers on another unit's record only the actions the workflow names the role for (the server's rule)", () => {
    const owns = ownsRecord(resource, { unitId: 'U1', areaCode: '330203' });
    const theirs = { ...submitted, unitId: 'U2' };
    const auditor = { ...authority, owns };
    expect(isAvailable(actions['audit-agree'], theirs, auditor)).toBe(true);
    expect(isAvailable(actions.view, theirs, auditor)).toBe(true);
    expect(isAvailable(actions.revoke, theirs, auditor)).toBe(false);
    expect(isAvailable(actions.edit, { ...draft, unitId: 'U2' }, { ...unit, owns })).toBe(false);
    expect(isAvailable(actions.delete, { ...draft, unitId: 'U2' }, { ...unit, owns })).toBe(false);
    // Its own records: everything their state and role allow.
    expect(isAvailable(actions.revoke, { ...submitted, unitId: 'U1' }, auditor)).toBe(true);
    expect(isAvailable(actions.edit, { ...draft, unitId: 'U1' }, { ...unit, owns })).toBe(true);
    const [save, commit] = resolveActions(resource, ['save', 'commit'], { inForm: true });
    expect(isAvailable(save, { ...draft, unitId: 'U2' }, { ...unit, owns })).toBe(false);
    expect(isAvailable(commit, { ...draft, unitId: 'U2' }, auditor)).toBe(false);
    // An unscoped resource, or an unknown owner: the server decides.
    expect(ownsRecord({ scope: undefined }, { unitId: 'U1' })).toBeUndefined();
    expect(ownsRecord(resource, {})).toBeUndefined();
    expect(ownsRecord({ scope: 'area' }, { areaCode: '330203' })!({ areaCode: '330206' })).toBe(false);
  });

  it('sizes the 操作 column by the buttons the rows of the page offer, not by every action the screen declares', () => {
    const all = resolveActions(resource, screen.rowActions);
    const owns = ownsRecord(resource, { unitId: 'U1' });
    const reader = actionsColumnWidth([{ id: '3', status: 'approved', unitId: 'U2' }], all, { ...authority, owns });
    const auditor = actionsColumnWidth([{ ...submitted, unitId: 'U2' }], all, { ...authority, owns });
    const editor = actionsColumnWidth([{ ...draft, unitId: 'U1' }], all, { ...unit, owns });
    expect(reader).toBe(78); // 查看 alone
    expect(auditor).toBeGreaterThan(reader); // 查看 审核通过 审核不通过
    expect(editor).toBeGreaterThan(reader); // 查看 编辑 提交 删除
    // The widest row of the page counts; an empty page keeps a minimum, a crowded row wraps at 320 px.
    expect(
      actionsColumnWidth(
        [
          { id: '3', status: 'approved', unitId: 'U2' },
          { ...submitted, unitId: 'U2' },
        ],
        all,
        { ...authority, owns },
      ),
    ).toBe(auditor);
    expect(actionsColumnWidth([], all, unit)).toBe(72);
    expect(actionsColumnWidth([draft], [...all, ...all, ...all], unit)).toBe(320);
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
