import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../../validators';
import { ACCESS } from '../../src/server/access';
import { DEMO_ACCOUNTS, DEMO_UNITS, roleId, roleMenuIds, seedDemoData } from '../../src/server/db/seed';
import { loadMenu, menuAccessIds } from '../../src/server/menu';
import { appSuite, dbTargets, login } from './helpers';

describe('demo data', () => {
  it('uses valid unified social credit codes carrying the unit area code', () => {
    for (const unit of Object.values(DEMO_UNITS)) {
      expect(rules.unifiedCreditCode(unit.orgcode), unit.orgcode).toBeUndefined();
      expect(rules.orgCode(unit.orgcode.slice(8, 17)), unit.orgcode).toBeUndefined();
      expect(unit.orgcode.slice(2, 8)).toBe(unit.areacode);
    }
    expect(DEMO_UNITS.using.areacode.slice(0, 4)).toBe('3302');
  });

  it('grants roles from the menu: the operator role has fewer menus and no system menu', () => {
    const menu = loadMenu();
    const all = menu ? menuAccessIds(menu) : [];
    const admin = roleMenuIds('unitAdmin', all);
    const operator = roleMenuIds('unitOperator', all);
    expect(admin).toContain(ACCESS.bypassAccount);
    expect(operator).not.toContain(ACCESS.bypassAccount);
    expect(operator.length).toBeLessThan(admin.length);
    expect(operator.every((id) => admin.includes(id))).toBe(true);
    // Every access id a server route enforces is a menu access id.
    if (menu) expect(all).toEqual(expect.arrayContaining(Object.values(ACCESS)));
  });
});

describe('role menus from menu.json', () => {
  const sample = {
    public: [{ path: '/login', name: 'login', title: '登录' }],
    routes: [
      { path: '/home', name: 'home', title: '工作台' },
      {
        path: '/equipment',
        name: 'equipment',
        title: '设备管理',
        children: [{ path: 'overview', name: 'overview', title: '设备概况', access: ['equipment:overview'] }],
      },
      {
        path: '/company-service',
        name: 'company-service',
        title: '自助服务',
        children: [{ path: 'online-apply', name: 'online-apply', title: '网上报检', access: ['company-service:online-apply'] }],
      },
      {
        path: '/implementation',
        name: 'implementation',
        title: '主体责任',
        children: [{ path: 'drill', name: 'drill', title: '应急演练', access: ['implementation:drill'] }],
      },
      { path: '/account', name: 'account', title: '账号审核', children: [{ path: 'check', name: 'check', title: '注册审核', access: ['account:check'] }] },
      {
        path: '/inspection',
        name: 'inspection-body',
        title: '检验业务',
        children: [{ path: 'online-apply', name: 'body-online-apply', title: '报检受理', access: ['inspection:online-apply'] }],
      },
      {
        path: '/maintenance',
        name: 'maintenance-desk',
        title: '维保业务',
        children: [{ path: 'contract', name: 'maintenance-desk-contract', title: '维保合同', access: ['maintenance:contract'] }],
      },
      {
        path: '/system',
        name: 'system',
        title: '系统管理',
        children: [{ path: 'bypassAccount', name: 'bypassAccount', title: '子账号维护', access: ['system:bypassAccount'], seedOnly: true }],
      },
    ],
  };

  it('flattens the tree into its access ids and splits them by role', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-menu-'));
    const file = join(dir, 'menu.json');
    writeFileSync(file, JSON.stringify(sample));
    const all = menuAccessIds(loadMenu(file)!);
    rmSync(dir, { recursive: true, force: true });

    expect(all).toEqual([
      'account:check',
      'company-service:online-apply',
      'equipment:overview',
      'implementation:drill',
      'inspection:online-apply',
      'maintenance:contract',
      'system:bypassAccount',
    ]);
    expect(roleMenuIds('unitAdmin', all)).toEqual(['company-service:online-apply', 'equipment:overview', 'implementation:drill', 'system:bypassAccount']);
    expect(roleMenuIds('unitOperator', all)).toEqual(['company-service:online-apply', 'equipment:overview']);
    // Ids the server itself names (ACCESS) join the menu's: the authority's account pages.
    expect(roleMenuIds('authority', all)).toEqual([
      'account:account-detail',
      'account:add-account',
      'account:check',
      'account:manager',
      'account:manager-bypassAccount',
    ]);
    // An inspection body gets its desk only; using units never get it.
    expect(roleMenuIds('inspector', all)).toEqual(['inspection:online-apply']);
    // A maintenance unit gets its desk only; nobody else gets it.
    expect(roleMenuIds('maintainer', all)).toEqual(['maintenance:contract']);
  });

  it("gives the maintenance desk (maintenance:*) to the maintenance unit's role alone", () => {
    const menu = loadMenu();
    const all = menu ? menuAccessIds(menu) : [];
    const roles = ['unitAdmin', 'unitOperator', 'authority', 'analyst', 'inspector', 'maintainer'] as const;
    const maintainer = roleMenuIds('maintainer', all);
    // Empty until the desk's menu entries exist; then every id is the desk's.
    expect(
      maintainer.every((id) => id.startsWith('maintenance:')),
      maintainer.join(),
    ).toBe(true);
    for (const role of roles.filter((r) => r !== 'maintainer')) {
      const desk = roleMenuIds(role, all).filter((id) => id.startsWith('maintenance:'));
      expect(desk, role).toEqual([]);
    }
  });

  it('treats a missing menu file as no menu', () => {
    expect(loadMenu(join(tmpdir(), 'no-such-dir', 'menu.json'))).toBeNull();
  });
});

describe.each(dbTargets())('seed (%s)', (target) => {
  const { app } = appSuite(target);

  it('is idempotent', async () => {
    const count = async () =>
      (
        await app.db
          .selectFrom('sys_user')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = Number(await count());
    await seedDemoData(app.db);
    expect(Number(await count())).toBe(before);
    const roles = await app.db.selectFrom('sys_role').select('id').execute();
    expect(roles.map((r) => r.id).sort()).toEqual(
      [roleId('unitAdmin'), roleId('unitOperator'), roleId('authority'), roleId('analyst'), roleId('inspector'), roleId('maintainer')].sort(),
    );
    const maintainer = await app.db.selectFrom('sys_role').select(['name', 'role_type']).where('id', '=', roleId('maintainer')).executeTakeFirstOrThrow();
    expect(maintainer).toEqual({ name: '维保单位管理员', role_type: 'maintenance' });
  });

  it('lets every demo account log in with the listed org code', async () => {
    for (const a of DEMO_ACCOUNTS) {
      const reply = await login(app, a.loginName, a.password, a.orgCode);
      expect(reply.result, a.loginName).toBe('true');
    }
  });
});
