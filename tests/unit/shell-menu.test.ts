import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canAccess, pickRole } from '../../src/app/access';
import { SIGN_IN_ROUTES } from '../../src/app/routes';
import { buildMenu, externalTarget, firstMenuPath, flattenRoutes, joinPath, matchRoute, openKeysFor, type MenuFile, type MenuNode } from '../../src/app/menu';
import type { Role } from '../../src/shared/contract';

const menu = JSON.parse(readFileSync(new URL('../../schemas/menu.json', import.meta.url), 'utf8')) as MenuFile;
const allIds = flattenRoutes(menu.routes).flatMap((e) => e.access ?? []);
const subject = (ids: string[], isUserSeed = false) => ({ menuIds: new Set(ids), isUserSeed });

describe('schemas/menu.json', () => {
  const entries = [...flattenRoutes(menu.public), ...flattenRoutes(menu.routes)];

  it('names every route uniquely and maps it to one path', () => {
    const names = entries.map((e) => e.name);
    expect(new Set(names).size).toBe(names.length);
    const paths = entries.map((e) => e.fullPath);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('covers the original portal’s public routes', () => {
    const paths = flattenRoutes(menu.public).map((e) => e.fullPath);
    for (const p of [
      '/login',
      '/onlyLogin',
      '/ssologin',
      '/ynSsologin',
      '/ynbsc',
      '/dlgzh',
      '/dlgzhList',
      '/dlgzhDetail',
      '/resetPassword',
      '/resetSuccess',
      '/regCheackList',
      '/attachmentUploadMobile',
      '/registerAuditQuery',
      '/register',
      '/register-success',
      '/flowLog-single',
      '/401',
      '/500',
      '*',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('opens exactly the route names the original portal lists to visitors (and the error pages), outside the shell', () => {
    const names = flattenRoutes(menu.public).map((e) => e.name);
    const open = [
      'ynbsc',
      'onlyLogin',
      'error_404',
      'login',
      'dlgzh',
      'dlgzhList',
      'dlgzhDetail',
      'ssologin',
      'attachmentUploadMobile',
      'resetPassword',
      'regCheackList',
      'resetSuccess',
      'register',
      'register-success',
      'registerAuditQuery',
      'ynSsologin',
    ];
    for (const name of open) expect(names).toContain(name);
    const shellNames = new Set(flattenRoutes(menu.routes).map((e) => e.name));
    for (const name of open) expect(shellNames.has(name), name).toBe(false);
  });

  it('routes ynbsc to the regional single-sign-on entry, like ynSsologin (not a 建设中 page)', () => {
    const publicRoutes = flattenRoutes(menu.public);
    const ynbsc = publicRoutes.find((e) => e.name === 'ynbsc');
    expect(ynbsc).toMatchObject({ fullPath: '/ynbsc', page: publicRoutes.find((e) => e.name === 'ynSsologin')!.page });
    expect(ynbsc?.access).toBeUndefined();
    // With a token, a sign-in entry leads home (as in the original portal), the regional ones included.
    for (const name of ['login', 'onlyLogin', 'ssologin', 'ynSsologin', 'ynbsc']) expect(SIGN_IN_ROUTES.has(name)).toBe(true);
  });

  it('gives every shell leaf except the home desktop and notices an access id <group>:<leaf>', () => {
    for (const e of flattenRoutes(menu.routes)) {
      if (e.fullPath.startsWith('/home')) expect(e.access).toBeUndefined();
      else expect(e.access?.[0]).toMatch(new RegExp(`^${e.fullPath.split('/')[1]}:`));
    }
  });

  it('marks the system menu seed-only and holds the gas-cylinder external link', () => {
    expect(flattenRoutes(menu.routes).find((e) => e.fullPath === '/system/bypassAccount')).toMatchObject({ access: ['system:bypassAccount'], seedOnly: true });
    expect(flattenRoutes(menu.routes).find((e) => e.fullPath === '/company-service/gas-cylinder')).toMatchObject({
      hrefSetting: 'gasCylinder',
      hrefAppend: 'token',
    });
  });

  it('names only registered icons', async () => {
    // The icon registry imports React components; reading its keys from source keeps this test in node.
    const source = readFileSync(new URL('../../src/shell/icons.tsx', import.meta.url), 'utf8');
    const icons = entries.map((e) => e.icon).filter(Boolean);
    for (const icon of icons) expect(source).toContain(`  ${icon},`);
  });
});

describe('menu building', () => {
  const tree: MenuNode[] = [
    { path: '/home', name: 'home', title: '首页' },
    {
      path: '/a',
      name: 'a',
      title: 'A',
      children: [
        { path: 'one', name: 'a-one', title: 'A1', access: ['a:one'] },
        { path: 'two', name: 'a-two', title: 'A2', access: ['a:two'] },
        { path: 'hidden', name: 'a-hidden', title: 'A3', access: ['a:one'], hideInMenu: true },
      ],
    },
    { path: '/b', name: 'b', title: 'B', children: [{ path: 'only', name: 'b-only', title: 'B1', access: ['b:only'] }] },
    { path: '/sys', name: 'sys', title: 'S', seedOnly: true, showAlways: true, children: [{ path: 'x', name: 'sys-x', title: 'S1', access: ['sys:x'] }] },
    {
      path: '/ext',
      name: 'ext',
      title: 'E',
      children: [{ path: 'link', name: 'ext-link', title: 'E1', access: ['ext:link'], href: 'https://example.cn/a?b=1', hrefAppend: 'userId' }],
    },
  ];

  it('shows a group when any child is permitted and hides hideInMenu items', () => {
    const items = buildMenu(tree, subject(['a:one', 'a:two']));
    expect(items.map((i) => i.key)).toEqual(['/home', '/a']);
    expect(items[1].children?.map((c) => c.key)).toEqual(['/a/one', '/a/two']);
  });

  it('lifts the single child of a group unless showAlways', () => {
    expect(buildMenu(tree, subject(['b:only'])).map((i) => i.key)).toEqual(['/home', '/b/only']);
    expect(buildMenu(tree, subject(['sys:x'], true)).map((i) => i.key)).toEqual(['/home', '/sys']);
  });

  it('shows the system menu only to the seed user', () => {
    expect(buildMenu(tree, subject(['sys:x'], false)).map((i) => i.key)).toEqual(['/home']);
  });

  it('finds the first routable entry and the submenu to open', () => {
    const items = buildMenu(tree, subject(['a:one', 'a:two', 'ext:link']));
    expect(firstMenuPath(items.slice(1))).toBe('/a/one');
    expect(openKeysFor(items, '/a/two')).toEqual(['/a']);
    expect(openKeysFor(items, '/a/hidden')).toEqual(['/a']);
    expect(firstMenuPath(buildMenu(tree, subject(['ext:link'])).slice(1))).toBeNull();
  });

  it('appends the user id to a fixed external link that asks for it, never a token', () => {
    expect(externalTarget({ href: 'https://example.cn/a?b=1', hrefAppend: 'userId' }, {}, 'u1')).toEqual({ url: 'https://example.cn/a?b=1&userId=u1' });
    expect(externalTarget({ href: 'https://example.cn/a', hrefAppend: 'token' }, {}, 'u1')).toEqual({ url: 'https://example.cn/a' });
    expect(externalTarget({ href: 'https://example.cn/a' }, {}, 'u1')).toEqual({ url: 'https://example.cn/a' });
  });

  it('joins paths and matches parameterised routes', () => {
    expect(joinPath('/equipment', 'checkNew/:id')).toBe('/equipment/checkNew/:id');
    expect(joinPath('/x', '/abs')).toBe('/abs');
    const entries = flattenRoutes(menu.routes);
    expect(matchRoute(entries, '/equipment/checkNew/42')?.name).toBe('equipment-checkNew');
    expect(matchRoute(entries, '/nowhere')).toBeUndefined();
  });

  it('lets the real menu give the seed admin every group and the operator two', () => {
    expect(buildMenu(menu.routes, subject(allIds, true)).some((i) => i.key === '/system')).toBe(true);
    const operator = buildMenu(menu.routes, subject(allIds.filter((id) => /^(equipment|company-service):/.test(id))));
    // /home, its notice list and the unit notices need no access id: every signed-in user has them.
    expect(operator.map((i) => i.key)).toEqual(['/home', '/home/notice', '/home/unit-notice', '/equipment', '/company-service']);
  });
});

describe('access rules', () => {
  const role = (id: string): Role => ({ id, name: id, roleType: 'unit', menuIdList: [] });

  it('uses the stored role, else the server role, else the first', () => {
    const roles = [role('r1'), role('r2'), role('r3')];
    expect(pickRole(roles, 'r2', 'r3')?.id).toBe('r2');
    expect(pickRole(roles, 'gone', 'r3')?.id).toBe('r3');
    expect(pickRole(roles, null, undefined)?.id).toBe('r1');
    expect(pickRole([], 'r1', 'r1')).toBeNull();
  });

  it('opens routes without access to every logged-in user and checks the rest', () => {
    expect(canAccess({}, subject([]))).toBe(true);
    expect(canAccess({ access: ['a:b'] }, subject(['a:b']))).toBe(true);
    expect(canAccess({ access: ['a:b'] }, subject(['a:c']))).toBe(false);
    expect(canAccess({ access: ['a:b'], seedOnly: true }, subject(['a:b']))).toBe(false);
    expect(canAccess({ access: ['a:b'], seedOnly: true }, subject(['a:b'], true))).toBe(true);
  });
});
