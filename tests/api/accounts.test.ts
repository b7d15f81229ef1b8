/**
 * Accounts: the unit's main account keeps its sub-accounts (roles only within its own
 * menu ids, never another unit's accounts), disabling ends sessions and login, the authority sees
 * and acts on the accounts of its area only; the one-record flow log answers only a record the
 * session may see; the mobile upload token is single-use and expires.
 */
import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_API,
  type AccountDetail,
  type AccountRow,
  type AccountSaveResult,
  type MobileToken,
  type MobileTokenInfo,
  type MobileTokenState,
} from '../../src/shared/accounts';
import type { Page } from '../../src/shared/contract';
import type { OptionNode } from '../../src/shared/menu-tree';
import { DEMO_UNITS, userId } from '../../src/server/db/seed';
import { api, appSuite, call, dbTargets, login, withSession } from './helpers';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function multipart(name: string, bytes: Buffer): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

const MENU = ['equipment:elevator', 'equipment:overview'];

/** The leaves' values of an option tree: the menu ids it offers. */
const leavesOf = (nodes: readonly OptionNode[]): string[] => nodes.flatMap((n) => (n.children?.length ? leavesOf(n.children) : [n.value]));

/** The 状态 column's order: in use, locked, disabled. */
const STATE_ORDER = ['active', 'locked', 'disabled'];

describe.each(dbTargets())('accounts (%s)', (target) => {
  const {
    app,
    units: [farAuthority, farUnit],
    session,
  } = appSuite(target, {
    units: [['330106', 'authority'], '330106'],
    sessions: { nb: 'nbadmin', nbsub: 'nbsub', bl: 'bladmin', authority: 'jgadmin' },
  });
  const get = <T>(sid: string, path: string, data?: Record<string, unknown>) => call<T>(app, sid, 'GET', path, data);
  const post = <T>(sid: string, path: string, data?: Record<string, unknown>) => call<T>(app, sid, 'POST', path, data);
  const newLogin = () => `t${Math.random().toString(36).slice(2, 10)}`;
  const create = (sid: string, extra: Record<string, unknown> = {}) =>
    post<AccountSaveResult>(sid, ACCOUNT_API.subSave, {
      loginName: newLogin(),
      name: '测试子账号',
      mobile: '13905740011',
      roleName: '设备录入员',
      menuIds: MENU,
      ...extra,
    });

  describe('sub-accounts of the main account', () => {
    it('grants only its own menu ids, never the system menu, offered as the menu tree', async () => {
      const tree = (await get<OptionNode[]>(session.nb, ACCOUNT_API.subMenus)).body.data!;
      // Groups gather leaves under their menu titles; the leaves are what may be granted.
      expect(tree.find((n) => n.value === 'group:/implementation')).toMatchObject({ label: '企业主体责任' });
      const grantable = leavesOf(tree);
      expect(grantable).toEqual(expect.arrayContaining(MENU));
      expect(grantable).not.toContain('system:bypassAccount');
      expect(grantable.some((id) => id.startsWith('account:'))).toBe(false);
      for (const menuIds of [['account:manager'], ['system:bypassAccount'], [...MENU, 'no-such:menu']]) {
        const refused = await create(session.nb, { menuIds });
        expect(refused.body).toMatchObject({ result: 'false', message: '所选菜单超出本账号的权限范围' });
      }
    });

    it('creates a sub-account whose role holds exactly the chosen menus and whose first login forces a password change', async () => {
      const loginName = newLogin();
      const created = await create(session.nb, { loginName });
      expect(created.body.result).toBe('true');
      const { id, initialPassword } = created.body.data!;
      expect(initialPassword).toMatch(/^\d{8}$/);
      const reply = await login(app, loginName, initialPassword!, DEMO_UNITS.using.orgcode);
      expect(reply.result).toBe('true');
      expect(reply.user).toMatchObject({ simplePwd: true, isUserSeed: 0, basicUnitFlag: 1 });
      expect(reply.data!.roleList.map((r) => r.menuIdList)).toEqual([MENU]);
      // The new account cannot reach the sub-account API, nor a menu it was not given.
      expect((await get(reply.sessionid!, ACCOUNT_API.subList)).status).toBe(403);
      expect((await post(reply.sessionid!, '/r/hidden-danger/list')).status).toBe(403);
      // Duplicate login names are refused, whatever the case.
      expect((await create(session.nb, { loginName: loginName.toUpperCase() })).body.message).toBe('登录账号已存在，请换一个');
      // Editing changes the menus of the live session too.
      const edited = await post<AccountSaveResult>(session.nb, ACCOUNT_API.subSave, {
        id,
        loginName,
        name: '改名',
        mobile: '13905740012',
        roleName: '隐患上报员',
        menuIds: ['implementation:yhhzsb', 'implementation:yhhzsb-form'],
      });
      expect(edited.body.result).toBe('true');
      expect((await post(reply.sessionid!, '/r/hidden-danger/list')).body.result).toBe('true');
      const detail = (await get<AccountDetail>(session.nb, ACCOUNT_API.subGet, { id })).body.data!;
      expect(detail).toMatchObject({
        name: '改名',
        roleNames: '隐患上报员',
        roles: [{ menuIds: ['implementation:yhhzsb', 'implementation:yhhzsb-form'], own: true }],
        // The own role as the form edits it, and its menus by their titles as the detail shows them.
        roleName: '隐患上报员',
        menuIds: ['implementation:yhhzsb', 'implementation:yhhzsb-form'],
      });
      expect(detail.roles[0].menus).toEqual(['隐患汇总上报', '隐患编辑']);
    });

    it('lists only its own unit’s sub-accounts; another unit cannot read or change them', async () => {
      const mine = (await get<Page<AccountRow>>(session.nb, ACCOUNT_API.subList, { pageSize: '100' })).body.data!;
      expect(mine.list.map((a) => a.loginName)).toEqual(expect.arrayContaining(['nbsub', 'nbmulti']));
      expect(mine.list.every((a) => a.orgcode === DEMO_UNITS.using.orgcode && a.isUserSeed === 0)).toBe(true);
      const theirs = (await get<Page<AccountRow>>(session.bl, ACCOUNT_API.subList, { pageSize: '100' })).body.data!;
      expect(theirs.list.map((a) => a.loginName)).toEqual(['blsub']);
      const nbsub = userId('nbsub');
      expect((await get(session.bl, ACCOUNT_API.subGet, { id: nbsub })).body.message).toBe('账号不存在或无权访问');
      expect((await post(session.bl, ACCOUNT_API.subDisable, { id: nbsub })).body.message).toBe('账号不存在或无权访问');
      const edit = await post(session.bl, ACCOUNT_API.subSave, {
        id: nbsub,
        loginName: 'nbsub',
        name: '夺取',
        mobile: '13905740013',
        roleName: 'x',
        menuIds: ['equipment:elevator'],
      });
      expect(edit.body.message).toBe('账号不存在或无权访问');
      // The main account itself is not a sub-account; a sub-account cannot use the API at all.
      expect((await post(session.nb, ACCOUNT_API.subDisable, { id: userId('nbadmin') })).body.result).toBe('false');
      expect((await get(session.nbsub, ACCOUNT_API.subList)).status).toBe(403);
      // Nor the authority's API.
      expect((await get(session.nb, ACCOUNT_API.list)).status).toBe(403);
    });

    it('a disabled account loses its sessions and cannot log in until enabled', async () => {
      const loginName = newLogin();
      const { id, initialPassword } = (await create(session.nb, { loginName })).body.data!;
      const first = await login(app, loginName, initialPassword!, DEMO_UNITS.using.orgcode);
      expect((await get(first.sessionid!, '/a/stone/user/info')).status).toBe(200);
      expect((await post(session.nb, ACCOUNT_API.subDisable, { id })).body).toMatchObject({ result: 'true', message: '账号已停用' });
      expect((await get(first.sessionid!, '/a/stone/user/info')).status).toBe(401);
      expect(await app.db.selectFrom('sys_session').select('id').where('user_id', '=', id).execute()).toEqual([]);
      expect((await login(app, loginName, initialPassword!, DEMO_UNITS.using.orgcode)).message).toBe('账号已停用，请联系管理员');
      expect((await post(session.nb, ACCOUNT_API.subEnable, { id })).body.result).toBe('true');
      expect((await login(app, loginName, initialPassword!, DEMO_UNITS.using.orgcode)).result).toBe('true');
    });
  });

  describe('the authority', () => {
    it('lists the accounts of its area only', async () => {
      const all = (await get<Page<AccountRow>>(session.authority, ACCOUNT_API.list, { pageSize: '100' })).body.data!;
      const names = all.list.map((a) => a.loginName);
      expect(names).toEqual(expect.arrayContaining(['nbadmin', 'nbsub', 'bladmin', 'blsub']));
      expect(all.list.every((a) => a.areacode.startsWith('3302'))).toBe(true);
      const mains = (await get<Page<AccountRow>>(session.authority, ACCOUNT_API.list, { kind: 'main', pageSize: '100' })).body.data!;
      expect(mains.list.every((a) => a.isUserSeed === 1)).toBe(true);
      // Mobiles are masked in the list (138****5678) and whole in the account's detail.
      const withMobile = all.list.filter((a) => a.mobile);
      expect(withMobile.length).toBeGreaterThan(0);
      for (const a of withMobile) expect(a.mobile).toMatch(/^1\d{2}\*{4}\d{4}$/);
      const detail = (await get<AccountDetail>(session.authority, ACCOUNT_API.get, { id: withMobile[0].id })).body.data!;
      expect(detail.mobile).toMatch(/^1\d{10}$/);
      expect(detail.mobile!.slice(-4)).toBe(withMobile[0].mobile!.slice(-4));
      // Another city's authority sees none of them, and cannot act on them.
      const far = (await get<Page<AccountRow>>(farAuthority.sid, ACCOUNT_API.list, { pageSize: '100' })).body.data!;
      expect(far.list.map((a) => a.loginName)).not.toContain('nbadmin');
      expect(far.list.length).toBeGreaterThan(0);
      expect((await post(farAuthority.sid, ACCOUNT_API.unlock, { id: userId('nbadmin') })).body.message).toBe('账号不存在或无权访问');
      expect((await get(session.authority, ACCOUNT_API.get, { id: farUnit.userId })).body.message).toBe('账号不存在或无权访问');
    });

    it('unlocks a locked account and disables a unit’s account', async () => {
      const orgcode = DEMO_UNITS.second.orgcode;
      for (let i = 0; i < 5; i++) await login(app, 'blsub', 'wrong-password', orgcode);
      expect((await login(app, 'blsub', 'Blsub@2026', orgcode)).message).toBe('账号已锁定，请15分钟后再试');
      const locked = (await get<Page<AccountRow>>(session.authority, ACCOUNT_API.list, { locked: 'true' })).body.data!;
      expect(locked.list.map((a) => a.loginName)).toContain('blsub');
      // The 状态 column reads 已锁定 (state), and sorting by it puts the locked after the accounts in use.
      const stateOf = async (orderBy?: string) =>
        (await get<Page<AccountRow>>(session.authority, ACCOUNT_API.list, { pageSize: '100', ...(orderBy ? { orderBy } : {}) })).body.data!.list;
      expect((await stateOf()).find((a) => a.loginName === 'blsub')).toMatchObject({ status: '0', locked: true, state: 'locked' });
      const byState = (await stateOf('state asc')).map((a) => a.state);
      expect(byState).toEqual([...byState].sort((a, b) => STATE_ORDER.indexOf(a) - STATE_ORDER.indexOf(b)));
      expect(byState).toContain('active');
      expect((await stateOf('state desc'))[0].state).not.toBe('active');
      expect((await post(session.authority, ACCOUNT_API.unlock, { id: userId('blsub') })).body).toMatchObject({ result: 'true', message: '账号已解锁' });
      const again = await login(app, 'blsub', 'Blsub@2026', orgcode);
      expect(again.result).toBe('true');
      expect((await post(session.authority, ACCOUNT_API.disable, { id: userId('blsub') })).body.result).toBe('true');
      expect((await get(again.sessionid!, '/a/stone/user/info')).status).toBe(401);
      expect((await login(app, 'blsub', 'Blsub@2026', orgcode)).message).toBe('账号已停用，请联系管理员');
      expect((await stateOf()).find((a) => a.loginName === 'blsub')).toMatchObject({ status: '2', locked: false, state: 'disabled' });
      expect((await post(session.authority, ACCOUNT_API.enable, { id: userId('blsub') })).body.result).toBe('true');
      expect((await post(session.authority, ACCOUNT_API.disable, { id: userId('jgadmin') })).body.message).toBe('不能停用当前登录的账号');
    });
  });

  describe('the flow log of one record', () => {
    it('answers the unit and the authority of its area, refuses another unit', async () => {
      const saved = (await post<{ id: string; version: number }>(session.nb, '/r/demo-notice/save', { title: '流程日志测试', category: '1', content: '正文' }))
        .body.data!;
      expect((await post(session.nb, `/r/demo-notice/commit/${saved.id}`, { version: saved.version })).body.result).toBe('true');
      const mine = await get<{ resource: string; list: { toState: string }[]; states: Record<string, string>; actions: Record<string, string> }>(
        session.nb,
        ACCOUNT_API.flowLogSingle,
        { id: saved.id },
      );
      expect(mine.body.result).toBe('true');
      expect(mine.body.data!.resource).toBe('demo-notice');
      expect(mine.body.data!.list.map((e) => e.toState)).toContain('submitted');
      expect(mine.body.data!.states.submitted).toBeTruthy();
      expect(mine.body.data!.actions).toMatchObject({ save: '保存', commit: '提交' });
      expect((await get(session.authority, ACCOUNT_API.flowLogSingle, { id: saved.id })).body.result).toBe('true');
      const other = await get(session.bl, ACCOUNT_API.flowLogSingle, { id: saved.id });
      expect(other.body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
      expect((await get(session.bl, ACCOUNT_API.flowLogSingle, { id: saved.id, resource: 'demo-notice' })).body.result).toBe('false');
      expect((await app.inject({ method: 'GET', url: api(ACCOUNT_API.flowLogSingle), query: { id: saved.id } })).statusCode).toBe(401);
    });
  });

  describe('mobile upload tokens', () => {
    const upload = async (token: string) => {
      const body = await multipart('现场照片.png', PNG);
      const res = await app.inject({ method: 'POST', url: api(ACCOUNT_API.mobileUpload), query: { token }, ...body });
      return res.json<{ result: string; message: string }>();
    };

    it('takes one file, for the token’s user, and then no more', async () => {
      const { token, expiresAt } = (await post<MobileToken>(session.nb, ACCOUNT_API.mobileToken, { field: 'attachments', fieldLabel: '附件' })).body.data!;
      expect(new Date(expiresAt).getTime()).toBeGreaterThan(Date.now() + 9 * 60_000);
      const info = await app.inject({ method: 'GET', url: api(ACCOUNT_API.mobileInfo), query: { token } });
      expect(info.json<{ data: MobileTokenInfo }>().data).toMatchObject({ fieldLabel: '附件', orgname: DEMO_UNITS.using.orgname });
      expect(await upload(token)).toMatchObject({ result: 'true', message: '上传成功' });
      expect(await upload(token)).toMatchObject({ result: 'false', message: '二维码已失效或已使用，请在电脑上重新生成' });
      const state = (await get<MobileTokenState>(session.nb, ACCOUNT_API.mobileTokenFiles, { token })).body.data!;
      expect(state).toMatchObject({ used: true, files: [{ name: '现场照片.png', size: PNG.length }] });
      // The file is the unit's: its download answers nbadmin, not bladmin; nobody else polls the token.
      expect((await withSession(app, session.nb, { method: 'GET', url: `${state.files[0].url}` })).statusCode).toBe(200);
      expect((await withSession(app, session.bl, { method: 'GET', url: `${state.files[0].url}` })).json()).toMatchObject({ result: 'false' });
      expect((await get(session.bl, ACCOUNT_API.mobileTokenFiles, { token })).body.result).toBe('false');
    });

    it('refuses an expired or unknown token and a file the desktop upload would refuse', async () => {
      const { token } = (await post<MobileToken>(session.nb, ACCOUNT_API.mobileToken, { field: 'attachments' })).body.data!;
      const bad = await multipart('脚本.exe', Buffer.from('MZ....'));
      const refused = (await app.inject({ method: 'POST', url: api(ACCOUNT_API.mobileUpload), query: { token }, ...bad })).json<{ result: string }>();
      expect(refused.result).toBe('false');
      await app.db
        .updateTable('sys_mobile_upload_token' as never)
        .set({ expires_at: new Date(Date.now() - 1000) } as never)
        .execute();
      expect(await upload(token)).toMatchObject({ result: 'false', message: '二维码已失效或已使用，请在电脑上重新生成' });
      expect(await upload('A'.repeat(43))).toMatchObject({ result: 'false' });
      const info = await app.inject({ method: 'GET', url: api(ACCOUNT_API.mobileInfo), query: { token } });
      expect(info.json()).toMatchObject({ result: 'false' });
    });
  });
});
