import { describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/app/menu';
import { closeTabs, keysToClose, openTab, parseTabs, tabFor, withHome, type Tab } from '../../src/shell/tabs/model';

const tab = (key: string): Tab => ({ key, path: key, title: key.toUpperCase() });
const home = tab('/home');
const tabs = [home, tab('/a'), tab('/b'), tab('/c')];
const entry = (over: Partial<RouteEntry>): RouteEntry => ({
  name: 'x',
  fullPath: '/x/:id',
  title: 'X',
  seedOnly: false,
  hideInMenu: false,
  notCache: false,
  multiPage: false,
  ancestors: [],
  rootRouter: 'x',
  ...over,
});

describe('tab model', () => {
  it('keys a tab by route pattern, or by URL for multiPage routes', () => {
    expect(tabFor(entry({}), '/x/1', '?q=1')).toEqual({ key: '/x/:id', path: '/x/1?q=1', title: 'X' });
    expect(tabFor(entry({ multiPage: true }), '/x/1').key).toBe('/x/1');
  });

  it('keeps home first and opens a tab once, updating its URL', () => {
    expect(withHome([tab('/a'), home], home).map((t) => t.key)).toEqual(['/home', '/a']);
    expect(openTab(tabs, tab('/a'))).toBe(tabs);
    expect(openTab(tabs, { ...tab('/a'), path: '/a?x=1' })[1].path).toBe('/a?x=1');
    expect(openTab(tabs, tab('/d')).map((t) => t.key)).toEqual(['/home', '/a', '/b', '/c', '/d']);
  });

  it('never closes home', () => {
    expect(keysToClose(tabs, '/home', 'self', '/home')).toEqual([]);
    expect(keysToClose(tabs, '/b', 'all', '/home')).toEqual(['/a', '/b', '/c']);
    expect(closeTabs(tabs, ['/home'], '/home', '/home').tabs).toEqual(tabs);
  });

  it('computes close others / left / right', () => {
    expect(keysToClose(tabs, '/b', 'others', '/home')).toEqual(['/a', '/c']);
    expect(keysToClose(tabs, '/b', 'left', '/home')).toEqual(['/a']);
    expect(keysToClose(tabs, '/b', 'right', '/home')).toEqual(['/c']);
  });

  it('moves to the right neighbour, else the left, when the active tab closes', () => {
    expect(closeTabs(tabs, ['/b'], '/home', '/b').next?.key).toBe('/c');
    expect(closeTabs(tabs, ['/c'], '/home', '/c').next?.key).toBe('/b');
    expect(closeTabs(tabs, ['/a', '/b', '/c'], '/home', '/b').next?.key).toBe('/home');
    expect(closeTabs(tabs, ['/a'], '/home', '/b')).toEqual({ tabs: [home, tab('/b'), tab('/c')], next: null });
  });

  it('reads persisted tabs defensively', () => {
    expect(parseTabs(JSON.stringify(tabs))).toEqual(tabs);
    expect(parseTabs('not json')).toEqual([]);
    expect(parseTabs(JSON.stringify([{ key: 1 }, tab('/a')]))).toEqual([tab('/a')]);
    expect(parseTabs(null)).toEqual([]);
  });
});
