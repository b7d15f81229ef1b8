/**
 * External menu links named by a setting (menu node `hrefSetting`, the app config's `links`): the
 * configured URL replaces href, an item without one is left out (and a group left empty), and
 * such an item is never a route. The server hands the configured links to the browser.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMenu, firstMenuPath, isExternal, withLinks, type MenuFile, type MenuNode } from '../../src/app/menu';
import { shellEntries } from '../../src/app/routes';
import { loadConfig, toAppConfig } from '../../src/server/config';

const nodes: MenuNode[] = [
  {
    path: '/svc',
    name: 'svc',
    title: '服务',
    children: [
      { path: 'list', name: 'svc-list', title: '列表', screen: 'x-list' },
      { path: 'trace', name: 'svc-trace', title: '追溯', hrefSetting: 'trace', hrefAppend: 'token' },
      { path: 'fixed', name: 'svc-fixed', title: '固定', href: 'https://example.cn/fixed' },
      { path: 'both', name: 'svc-both', title: '兜底', href: 'https://example.cn/fallback', hrefSetting: 'other' },
    ],
  },
  { path: '/only', name: 'only', title: '仅链接', children: [{ path: 'a', name: 'only-a', title: 'A', hrefSetting: 'missing' }, { path: 'b', name: 'only-b', title: 'B', hrefSetting: 'missing2' }] },
];
const subject = { menuIds: new Set<string>(), isUserSeed: false };

describe('menu links from the configuration', () => {
  const menu = buildMenu(nodes, subject);

  it('takes the configured URL, keeps fixed links, and leaves out what is not configured', () => {
    const resolved = withLinks(menu, { trace: 'https://trace.example.cn/p' });
    const group = resolved.find((i) => i.key === '/svc')!;
    expect(group.children!.map((c) => [c.key, c.href ?? null])).toEqual([
      ['/svc/list', null],
      ['/svc/trace', 'https://trace.example.cn/p'],
      ['/svc/fixed', 'https://example.cn/fixed'],
      ['/svc/both', 'https://example.cn/fallback'],
    ]);
    expect(resolved.some((i) => i.key === '/only')).toBe(false);
    expect(withLinks(menu, {}).find((i) => i.key === '/svc')!.children!.map((c) => c.key)).toEqual(['/svc/list', '/svc/fixed', '/svc/both']);
  });

  it('never routes a link item nor opens it as the first page', () => {
    expect(isExternal({ hrefSetting: 'trace' })).toBe(true);
    expect(firstMenuPath([{ key: '/t', title: 'T', hrefSetting: 'trace' }, { key: '/l', title: 'L' }])).toBe('/l');
    const menuFile = JSON.parse(readFileSync(new URL('../../schemas/menu.json', import.meta.url), 'utf8')) as MenuFile;
    expect(menuFile).toBeTruthy();
    expect(shellEntries.some((e) => e.fullPath === '/company-service/gas-cylinder')).toBe(false);
  });

  it('hands the gas-cylinder address to the browser only when configured, and refuses a non-http one', () => {
    expect(toAppConfig(loadConfig({})).links).toEqual({});
    expect(toAppConfig(loadConfig({ PORTAL_GAS_CYLINDER_URL: 'https://qp.example.cn/portal' })).links).toEqual({ gasCylinder: 'https://qp.example.cn/portal' });
    expect(() => loadConfig({ PORTAL_GAS_CYLINDER_URL: 'javascript:alert(1)' })).toThrow(/PORTAL_GAS_CYLINDER_URL/);
  });
});
