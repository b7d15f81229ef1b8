/** The grantable menu tree the account forms offer (src/shared/menu-tree.ts, sent by the server as options). */
import { describe, expect, it } from 'vitest';
import menuJson from '../../schemas/menu.json';
import type { MenuNode } from '../../src/app/menu';
import { accessTitles, grantableTree } from '../../src/shared/menu-tree';

const routes = menuJson.routes as unknown as MenuNode[];

describe('grantable menu tree', () => {
  it('keeps only leaves whose access id may be granted, and the groups holding them', () => {
    const tree = grantableTree(routes, new Set(['implementation:yhhzsb', 'implementation:yhhzsb-form']));
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ value: 'group:/implementation', label: '企业主体责任' });
    expect(tree[0].children!.map((c) => c.value)).toEqual(['implementation:yhhzsb', 'implementation:yhhzsb-form']);
    expect(tree[0].children![1].label).toContain('（页面）');
  });

  it('offers nothing for nothing', () => {
    expect(grantableTree(routes, new Set())).toEqual([]);
  });

  it('names an access id by the title of its first menu node', () => {
    const titles = accessTitles(routes);
    expect(titles.get('implementation:yhhzsb')).toBe(grantableTree(routes, new Set(['implementation:yhhzsb']))[0].children![0].label);
    expect(titles.get('account:account-detail')).toBe('账号详情');
  });
});
