/**
 * A list over a `source` (rows of an endpoint outside the resource routes): its resource of its own
 * fields, the GET of a page with the list's parameters, buttons that call a path, open a route or a
 * dialog, and codes an endpoint sends as numbers.
 */
import { describe, expect, it } from 'vitest';
import kindDict from '../../schemas/dicts/account-kind.json';
import managerList from '../../schemas/screens/account-manager-list.json';
import { isAvailable, resolveActions } from '../../src/engine/actions/actions';
import { createRestDataProvider } from '../../src/engine/data/rest';
import { listQueryOf, filterSpecs, listStateFromSearch } from '../../src/engine/list/filters';
import { codesOf, findCode } from '../../src/engine/model/codes';
import { screenResource } from '../../src/schema/screen-fields';
import type { Dict, ListScreen } from '../../src/schema/types';

const screen = managerList as unknown as ListScreen;
const resource = screenResource(screen, undefined);

describe('a list over a source', () => {
  it('stands its own fields in for a resource', () => {
    expect(resource.name).toBe('account-manager-list');
    expect(resource.fields.orgname?.label).toBe('所属单位');
    expect(resource.fields.status?.dict).toBe('account-status');
  });

  it('GETs the source with paging, order and filters in the query, the count as a number', async () => {
    const asked: string[] = [];
    const provider = createRestDataProvider({
      get: <T>(path: string) => {
        asked.push(path);
        return Promise.resolve({ pageNo: 2, pageSize: 10, count: '31', list: [{ id: 'u1' }] } as T);
      },
      post: () => Promise.reject(new Error('no post')),
    });
    const specs = filterSpecs({ screen, resource, dicts: new Map() });
    const state = listStateFromSearch(screen, specs, new URLSearchParams('loginName=bl&pageNo=2&sort=createDate.desc'));
    const query = listQueryOf(screen, specs, { ...state, sort: { field: 'createDate', order: 'desc' } }, undefined);
    const page = await provider.getListAt!(screen.source!.list, query);
    expect(page.count).toBe(31);
    const [path, search] = asked[0].split('?');
    expect(path).toBe('/a/stone/account/list');
    const params = new URLSearchParams(search);
    expect(params.get('loginName')).toBe('bl');
    expect(params.get('pageNo')).toBe('2');
    expect(params.get('orderBy')).toBe('createDate desc');
  });

  it('offers one state at a time where the filter says eq (the endpoint takes a single value)', () => {
    const specs = filterSpecs({ screen, resource, dicts: new Map() });
    expect(specs.filter((s) => s.single).map((s) => s.name)).toEqual(['status']);
  });

  it('resolves buttons that call a path, open a route or a dialog', () => {
    const actions = resolveActions(resource, screen.rowActions);
    expect(actions.map((a) => [a.name, a.kind, a.target])).toEqual([
      ['detail', 'route', '/account/account-detail'],
      ['enable', 'call', '/a/stone/account/enable'],
      ['disable', 'call', '/a/stone/account/disable'],
      ['unlock', 'call', '/a/stone/account/unlock'],
    ]);
    const disable = actions[2];
    expect(disable.done).toBe('账号已停用');
    expect(disable.danger).toBe(true);
    // Red is declared (`danger`), not guessed from the button's name.
    expect(resolveActions(resource, [{ action: 'disable', label: '停用', call: '/a/x/disable' }])[0].danger).toBe(false);
    expect(resolveActions(resource, [{ action: 'archive', label: '归档', call: '/a/x/archive', danger: true }])[0].danger).toBe(true);
    expect(disable.confirm).toContain('{loginName}');
    expect(isAvailable(disable, { id: 'u1', status: '0' }, {})).toBe(true);
    expect(isAvailable(disable, { id: 'u1', status: '2' }, {})).toBe(false);
    expect(isAvailable(actions[3], { id: 'u1', status: '0', locked: false }, {})).toBe(false);
    expect(isAvailable(actions[3], { id: 'u1', status: '0', locked: true }, {})).toBe(true);
  });

  it('finds a dictionary code an endpoint sends as a number', () => {
    const codes = codesOf(resource, 'isUserSeed', resource.fields.isUserSeed!, new Map([['account-kind', kindDict as unknown as Dict]]));
    expect(findCode(codes, 1)?.label).toBe('主账号');
    expect(findCode(codes, '0')?.label).toBe('子账号');
  });
});
