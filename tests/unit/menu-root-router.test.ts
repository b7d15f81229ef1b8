/** Route meta `rootRouter`: every routable leaf names the top-level menu node it sits under. */
import { describe, expect, it } from 'vitest';
import { flattenRoutes, type MenuNode } from '../../src/app/menu';
import { shellEntries } from '../../src/app/routes';

describe('rootRouter', () => {
  it('is the outermost node of a nested leaf, and a top-level leaf itself', () => {
    const nodes: MenuNode[] = [
      { path: '/home', name: 'home', title: '首页' },
      {
        path: '/equipment',
        name: 'equipment',
        title: '设备管理',
        children: [{ path: 'group', name: 'equipment-group', title: '分组', children: [{ path: 'leaf', name: 'equipment-leaf', title: '叶' }] }],
      },
    ];
    const byName = Object.fromEntries(flattenRoutes(nodes).map((e) => [e.name, e.rootRouter]));
    expect(byName).toEqual({ home: 'home', 'equipment-leaf': 'equipment' });
  });

  it('is set on every route of the portal menu', () => {
    const detail = shellEntries.find((e) => e.fullPath === '/company-service/online-apply-detail');
    expect(detail?.rootRouter).toBe('company-service');
    for (const entry of shellEntries) expect(entry.rootRouter, entry.fullPath).toMatch(/\S/);
  });
});
