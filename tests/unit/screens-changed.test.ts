/**
 * `npm run screens:changed`: which screens a change of schema files affects (the pure mapping over
 * a small catalogue), and the command line's answers that need no server or browser.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { affectedScreens, changedMenuPaths, type Catalogue } from '../../scripts/screens-changed/affected';
import { catalogueOf } from '../../scripts/screens-changed/catalogue';
import type { Menu } from '../../src/schema/types';

const text = (value: object) => JSON.stringify(value);

const MENU: Menu = {
  public: [{ path: '/apply', name: 'apply', title: '申请', screen: 'shop-apply' }],
  routes: [
    {
      path: '/shop',
      name: 'shop',
      title: '商店',
      children: [
        { path: 'orders', name: 'orders', title: '订单', access: ['shop:orders'], screen: 'order-list' },
        { path: 'order', name: 'order', title: '订单详情', access: ['shop:order'], hideInMenu: true, screen: 'order-detail' },
        { path: 'order-form', name: 'order-form', title: '订单编辑', access: ['shop:order-form'], hideInMenu: true, screen: 'order-form' },
        { path: 'goods', name: 'goods', title: '商品', access: ['shop:goods'], screen: 'goods-list' },
        { path: 'stats', name: 'stats', title: '统计', screen: 'shop-stats' },
      ],
    },
  ],
};

/** Orders with lines (a sub-table of order-line), goods, a stats screen over goods, an open apply form with its own field. */
const catalogue: Catalogue = catalogueOf([
  {
    path: 'resources/order.json',
    text: text({
      name: 'order',
      table: 'order',
      title: '订单',
      fields: {
        code: { type: 'string', label: '编号' },
        channel: { type: 'dict', dict: 'channel', label: '渠道' },
        area: { type: 'area', dict: 'area', label: '地区' },
        note: { type: 'dict', dict: 'note-kind', label: '备注类别' },
        lines: { type: 'children', resource: 'order-line', label: '明细' },
      },
    }),
  },
  {
    path: 'resources/order-line.json',
    text: text({
      name: 'order-line',
      table: 'order_line',
      title: '明细',
      fields: { unit: { type: 'dict', dict: 'unit', label: '单位' }, qty: { type: 'int', label: '数量' } },
    }),
  },
  {
    path: 'resources/goods.json',
    text: text({
      name: 'goods',
      table: 'goods',
      title: '商品',
      fields: { name: { type: 'string', label: '名称' }, kind: { type: 'dict', dict: 'goods-kind', label: '类别' } },
    }),
  },
  {
    path: 'screens/order-list.json',
    text: text({ id: 'order-list', kind: 'list', resource: 'order', title: '订单', columns: ['code', 'channel'], filters: [{ field: 'area' }] }),
  },
  {
    path: 'screens/order-detail.json',
    text: text({ id: 'order-detail', kind: 'detail', resource: 'order', title: '订单详情', sections: [{ fields: ['code'] }] }),
  },
  {
    path: 'screens/order-form.json',
    text: text({
      id: 'order-form',
      kind: 'form',
      resource: 'order',
      title: '订单编辑',
      sections: [{ fields: ['code', { field: 'lines', fields: ['unit', 'qty'] }] }],
    }),
  },
  {
    path: 'screens/goods-list.json',
    text: text({ id: 'goods-list', kind: 'list', resource: 'goods', title: '商品', columns: ['name'] }),
  },
  {
    path: 'screens/goods-detail.json',
    text: text({
      id: 'goods-detail',
      kind: 'detail',
      resource: 'goods',
      title: '商品详情',
      sections: [{ fields: ['name'] }],
      related: [{ title: '订单', screen: 'order-list', field: 'goods' }],
    }),
  },
  {
    path: 'screens/shop-stats.json',
    text: text({
      id: 'shop-stats',
      kind: 'stats',
      resource: 'goods',
      title: '统计',
      charts: [{ title: '渠道', resource: 'order', groupBy: 'channel', type: 'pie' }],
    }),
  },
  {
    path: 'screens/shop-apply.json',
    text: text({
      id: 'shop-apply',
      kind: 'form',
      title: '申请',
      fields: { source: { type: 'dict', dict: 'channel', label: '来源' } },
      sections: [{ fields: ['source'] }],
    }),
  },
  { path: 'menu.json', text: text(MENU) },
]);

const ids = (changed: string[], menuBefore?: Menu | null) => affectedScreens(changed, catalogue, menuBefore).screens.map((s) => s.id);

describe('the screens a change affects', () => {
  it('a changed dictionary: exactly the screens that show, filter or group by a field of it', () => {
    // channel: a list column, a chart of another resource, an open form's own field; not the detail or the form, which leave it out.
    expect(ids(['dicts/channel.json'])).toEqual(['goods-detail', 'order-list', 'shop-apply', 'shop-stats']);
    // area: only as a list filter (and the detail embedding that list).
    expect(ids(['dicts/area.json'])).toEqual(['goods-detail', 'order-list']);
    // unit: a column of the form's sub-table (a field of the child resource).
    expect(ids(['dicts/unit.json'])).toEqual(['order-form']);
    const unused = affectedScreens(['dicts/note-kind.json'], catalogue);
    expect(unused.screens).toEqual([]);
    expect(unused.notes).toEqual([{ file: 'dicts/note-kind.json', why: 'no screen uses it' }]);
  });

  it('a changed resource: exactly the screens bound to it, and the details embedding its lists', () => {
    expect(ids(['resources/order.json'])).toEqual(['goods-detail', 'order-detail', 'order-form', 'order-list', 'shop-stats']);
    expect(ids(['resources/goods.json'])).toEqual(['goods-detail', 'goods-list', 'shop-stats']);
    // The child resource of a sub-table: the form that edits it.
    expect(ids(['resources/order-line.json'])).toEqual(['order-form']);
  });

  it('a changed screen: that screen, with the routes that open it and why', () => {
    const { screens } = affectedScreens(['screens/order-detail.json'], catalogue);
    expect(screens.map((s) => [s.id, s.routes.map((r) => [r.fullPath, r.access, r.isPublic]), s.causes])).toEqual([
      ['order-detail', [['/shop/order', ['shop:order'], false]], [{ file: 'screens/order-detail.json', why: 'screen changed' }]],
    ]);
    expect(screens[0].files).toEqual(['screens/order-detail.json', 'resources/order.json']);
    expect(affectedScreens(['screens/shop-apply.json'], catalogue).screens[0].routes.map((r) => [r.fullPath, r.isPublic])).toEqual([['/apply', true]]);
    expect(affectedScreens(['screens/gone.json'], catalogue).notes).toEqual([{ file: 'screens/gone.json', why: 'screen removed' }]);
  });

  it('a changed menu entry: the screen of that entry only', () => {
    const before: Menu = structuredClone(MENU);
    before.routes[0].children![3].title = '货品'; // goods renamed by the change
    before.routes[0].children!.splice(4, 1); // stats added by the change
    expect([...changedMenuPaths(before, MENU)].sort()).toEqual(['/shop/goods', '/shop/stats']);
    const { screens } = affectedScreens(['menu.json'], catalogue, before);
    expect(screens.map((s) => [s.id, s.routes.map((r) => r.fullPath), s.causes.map((c) => c.why)])).toEqual([
      ['goods-list', ['/shop/goods'], ['menu entry /shop/goods']],
      ['shop-stats', ['/shop/stats'], ['menu entry /shop/stats']],
    ]);
    expect(ids(['menu.json'], MENU)).toEqual([]);
    // Without the menu before the change there is nothing to compare: noted, not guessed.
    expect(affectedScreens(['menu.json'], catalogue).notes.map((n) => n.file)).toEqual(['menu.json']);
  });

  it('several changes: each screen once, with every cause', () => {
    const { screens } = affectedScreens(['dicts/unit.json', 'screens/order-form.json', 'dicts/unit.json'], catalogue);
    expect(screens.map((s) => [s.id, s.causes.map((c) => c.file)])).toEqual([['order-form', ['dicts/unit.json', 'screens/order-form.json']]]);
  });
});

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/screens-changed.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += String(c)));
  child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

describe('npm run screens:changed without a browser', () => {
  it('answers --help, refuses a wrong command line in one line, and says there is no git', { timeout: 120_000 }, async () => {
    const help = await run(['--help']);
    expect([help.status, help.stdout]).toEqual([0, expect.stringContaining('--base <ref>')]);
    for (const args of [[], ['--bogus'], ['--files', 'src/main.tsx'], ['--base', 'no-such-ref-anywhere']]) {
      const { status, stderr } = await run(args);
      expect({ args, status, lines: stderr.trim().split('\n').length }).toEqual({ args, status: 2, lines: 1 });
    }
    const noGit = await run(['--base', 'auto'], { GIT_DIR: join(tmpdir(), 'screens-changed-no-such-git') });
    expect([noGit.status, noGit.stdout.trim().split('\n').length, noGit.stdout]).toEqual([
      0,
      1,
      expect.stringContaining('nothing to compare with: not a git work tree'),
    ]);
  });

  it('with nothing to show writes an index that says so and starts no browser', { timeout: 120_000 }, async () => {
    const out = mkdtempSync(join(tmpdir(), 'screens-changed-'));
    try {
      const { status, stdout } = await run(['--files', 'schemas/README.md', '--out', out]);
      expect(status).toBe(0);
      expect(stdout).not.toMatch(/server ready/);
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('No screen is affected');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
