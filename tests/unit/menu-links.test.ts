/**
 * External menu links named by a setting (menu node `hrefSetting`, the app config's `links`): the
 * configured URL replaces href, an item without one is left out (and a group left empty); opened
 * by its address such an item shows the page leading to the link. The server hands the configured
 * links to the browser. An item carrying the user's identity (hrefAppend) asks the server for its
 * address; the browser never appends its session token.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildMenu, externalTarget, firstMenuPath, flattenRoutes, isExternal, linkOf, withLinks, type MenuFile, type MenuNode } from '../../src/app/menu';
import { PAGES, pageFor } from '../../src/pages/registry';
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
  {
    path: '/only',
    name: 'only',
    title: '仅链接',
    children: [
      { path: 'a', name: 'only-a', title: 'A', hrefSetting: 'missing' },
      { path: 'b', name: 'only-b', title: 'B', hrefSetting: 'missing2' },
    ],
  },
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
    expect(
      withLinks(menu, {})
        .find((i) => i.key === '/svc')!
        .children!.map((c) => c.key),
    ).toEqual(['/svc/list', '/svc/fixed', '/svc/both']);
  });

  it('asks the server for the address of a configured link carrying the identity; opens others directly', () => {
    const links = { trace: 'https://trace.example.cn/p', other: 'https://other.example.cn/' };
    expect(externalTarget({ hrefSetting: 'trace', hrefAppend: 'token' }, links, 'u1')).toEqual({ link: 'trace' });
    expect(externalTarget({ hrefSetting: 'trace', hrefAppend: 'userId' }, links, 'u1')).toEqual({ link: 'trace' });
    expect(externalTarget({ hrefSetting: 'other' }, links, 'u1')).toEqual({ url: 'https://other.example.cn/' });
    // Not configured: the fixed fallback, with nothing of the session; neither: nothing to open.
    expect(externalTarget({ hrefSetting: 'missing', href: 'https://example.cn/fallback', hrefAppend: 'token' }, links, 'u1')).toEqual({
      url: 'https://example.cn/fallback',
    });
    expect(externalTarget({ hrefSetting: 'missing', hrefAppend: 'token' }, links, 'u1')).toBeUndefined();
  });

  it('never opens a link item as the first page', () => {
    expect(isExternal({ hrefSetting: 'trace' })).toBe(true);
    expect(
      firstMenuPath([
        { key: '/t', title: 'T', hrefSetting: 'trace' },
        { key: '/l', title: 'L' },
      ]),
    ).toBe('/l');
  });

  it('resolves an item’s address: the configured link, else the fixed one, else none', () => {
    expect(linkOf({ hrefSetting: 'trace' }, { trace: 'https://trace.example.cn/p' })).toBe('https://trace.example.cn/p');
    expect(linkOf({ hrefSetting: 'other', href: 'https://example.cn/fallback' }, {})).toBe('https://example.cn/fallback');
    expect(linkOf({ hrefSetting: 'missing' }, { trace: 'https://trace.example.cn/p' })).toBeUndefined();
  });

  it('routes a link item opened by its address to the page leading to the link, and every other leaf to a page or screen', () => {
    const gas = shellEntries.find((e) => e.fullPath === '/company-service/gas-cylinder')!;
    expect(gas.hrefSetting).toBe('gasCylinder');
    const external = pageFor(gas);
    expect(external).not.toBe(PAGES.Error404);
    const menuFile = JSON.parse(readFileSync(new URL('../../schemas/menu.json', import.meta.url), 'utf8')) as MenuFile;
    const leaves = [...flattenRoutes(menuFile.routes), ...flattenRoutes(menuFile.public)];
    // Nothing falls through to 404 (the page of an address no route has): each names what it shows.
    expect(leaves.filter((e) => !(e.page && PAGES[e.page]) && !e.screen && !isExternal(e)).map((e) => e.fullPath)).toEqual([]);
    expect(leaves.filter((e) => isExternal(e)).every((e) => pageFor(e) === external)).toBe(true);
    expect(pageFor({ ...gas, hrefSetting: undefined })).toBe(PAGES.Error404);
  });

  it('hands the gas-cylinder address to the browser only when configured, and refuses a non-http one', () => {
    expect(toAppConfig(loadConfig({})).links).toEqual({});
    expect(toAppConfig(loadConfig({ PORTAL_GAS_CYLINDER_URL: 'https://qp.example.cn/portal' })).links).toEqual({ gasCylinder: 'https://qp.example.cn/portal' });
    expect(() => loadConfig({ PORTAL_GAS_CYLINDER_URL: 'javascript:alert(1)' })).toThrow(/PORTAL_GAS_CYLINDER_URL/);
  });
});
