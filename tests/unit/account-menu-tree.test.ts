/** The grantable menu tree of the sub-account form (src/pages/accounts/menuTree.ts). */
import { describe, expect, it } from 'vitest';
import menuJson from '../../schemas/menu.json';
import type { MenuNode } from '../../src/app/menu';
import { grantableTree, menuIdsOf } from '../../src/pages/accounts/menuTree';

const routes = menuJson.routes as unknown as MenuNode[];

describe('grantable menu tree', () => {
  it('keeps only leaves whose access id may be granted, and the groups holding them', () => {
    const tree = grantableTree(routes, new Set(['implementation:yhhzsb', 'implementation:yhhzsb-form']));
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ key: 'group:/implementation', title: '企业主体责任' });
    expect(tree[0].children!.map((c) => c.key)).toEqual(['implementation:yhhzsb', 'implementation:yhhzsb-form']);
    expect(tree[0].children![1].title).toContain('（页面）');
  });

  it('offers nothing for nothing, and checked group keys are not menu ids', () => {
    expect(grantableTree(routes, new Set())).toEqual([]);
    expect(menuIdsOf(['group:/implementation', 'b:x', 'a:y', 'a:y'])).toEqual(['a:y', 'b:x']);
  });
});
