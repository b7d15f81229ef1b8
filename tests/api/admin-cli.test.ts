/**
 * `npm run admin` (scripts/admin.ts) run as the operator runs it: a child process on a fresh
 * embedded data directory, and on a fresh PostgreSQL database when DATABASE_URL is set, with the
 * passwords piped on standard input. The accounts it makes are then used over the API: the login
 * answer forces the password change, the server refuses everything else until it is made.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { commandUsage, parseCommand } from '../../src/server/admin/cli';
import { roleId } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { MAX_FAILED_LOGINS } from '../../src/server/services/auth';
import { API } from '../../src/shared/contract';
import { addToDate, todayIn } from '../../src/shared/dates';
import { OPEN_LIMITS } from '../support/limits';
import { api, dbTargets, freshPostgresDatabase, login, withSession } from './helpers';
import { runAdmin } from '../support/admin-cli';

const SLOW = { timeout: 600_000 };

const admin = runAdmin;

const twice = (password: string) => `${password}\n${password}\n`;

const AUTHORITY_PASSWORD = 'Jg@admin2026';
const UNIT_ORG_CODE = makeUscc('91', '330203', 'MA2CLK01');
/** A maintenance unit's account with a licence number (the cases add or leave out the rest). */
const MAINTENANCE_ADMIN = [
  'create-maintenance-admin',
  '--login',
  'wbroot',
  '--name',
  '钱伟',
  '--unit-name',
  '某维保公司',
  '--org-code',
  UNIT_ORG_CODE,
  '--licence-no',
  'TS3333101-2028',
];
/** The same code with a wrong check character. */
const BAD_ORG_CODE = UNIT_ORG_CODE.slice(0, 17) + (UNIT_ORG_CODE.endsWith('0') ? '1' : '0');

describe('bad input: one line, exit status 2, nothing opened', () => {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'portal-admin-bad-')), 'data');
  const env = { PORTAL_DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each([
    ['an unknown command', ['make-coffee'], '', /^未知命令：make-coffee.* \/ Unknown command: make-coffee/],
    ['no command', [], '', /^缺少命令.* \/ No command given/],
    ['a missing option', ['create-authority', '--name', '陈静'], twice(AUTHORITY_PASSWORD), /^缺少 --login <登录账号> \/ Missing --login$/],
    ['an option the command does not take', ['unlock', '--login', 'someone', '--generate'], '', /^命令 unlock 没有这个选项：--generate \/ unlock: /],
    [
      'a bad credit code',
      ['create-unit-admin', '--login', 'nbroot', '--name', '张伟', '--unit-name', '某公司', '--org-code', BAD_ORG_CODE],
      twice(AUTHORITY_PASSWORD),
      new RegExp(`^--org-code：请输入有效的统一社会信用代码（${BAD_ORG_CODE}） / --org-code: not a valid unified social credit code`),
    ],
    ['a bad login name', ['create-authority', '--login', 'a b', '--name', '陈静'], twice(AUTHORITY_PASSWORD), /^--login：登录账号为4-30位.* \/ --login: /],
    [
      'a bad area code',
      ['create-authority', '--login', 'jgroot', '--name', '陈静', '--area', '3302'],
      twice(AUTHORITY_PASSWORD),
      /^--area：区划代码应为 6 位数字（3302） \/ --area: /,
    ],
    [
      'mismatched passwords',
      ['create-authority', '--login', 'jgroot', '--name', '陈静'],
      'Jg@admin2026\nJg@admin2027\n',
      /^两次输入的密码不一致 \/ The two passwords differ$/,
    ],
    [
      'a password the portal refuses',
      ['create-authority', '--login', 'jgroot', '--name', '陈静'],
      twice('12345678'),
      /^密码不符合要求：.* \/ The password breaks the rule/,
    ],
    [
      'a licence without its expiry and items',
      [...MAINTENANCE_ADMIN],
      twice(AUTHORITY_PASSWORD),
      /^许可证须同时给出 --licence-no、--licence-expiry 和 --licence-items \/ A licence takes all of/,
    ],
    [
      'a licence expiry that is not a date',
      [...MAINTENANCE_ADMIN, '--licence-expiry', '2028-02-30', '--licence-items', 'T-B'],
      twice(AUTHORITY_PASSWORD),
      /^--licence-expiry：日期应为 YYYY-MM-DD（2028-02-30） \/ --licence-expiry: /,
    ],
    [
      'one line where two are needed',
      ['reset-password', '--login', 'jgroot'],
      `${AUTHORITY_PASSWORD}\n`,
      /^标准输入应有两行.* \/ Standard input must hold two lines/,
    ],
  ])('%s', SLOW, async (_what, args, input, message) => {
    const run = await admin(args, env, input);
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr.trim()).toMatch(message);
    expect(run.stdout).toBe('');
    // Refused before the database was opened: not even the data directory was made.
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a database that does not answer: one line naming DATABASE_URL, exit status 1', SLOW, async () => {
    const run = await admin(['list-admins'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', PORTAL_PG_CONNECT_TIMEOUT_MS: '5000' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^数据库不可用：DATABASE_URL .* \/ Cannot use the database: DATABASE_URL /);
  });

  it('help lists the commands', SLOW, async () => {
    const run = await admin(['help'], env);
    expect(run.status).toBe(0);
    for (const command of [
      'create-authority',
      'create-unit-admin',
      'create-inspection-admin',
      'create-maintenance-admin',
      'reset-password',
      'unlock',
      'list-admins',
      'sso-token',
    ])
      expect(run.stdout).toContain(command);
  });

  it("a command's --help (or -h) shows that command's options only, whatever else is on the line", () => {
    expect(parseCommand(['create-authority', '--login', 'x', '--help'])).toEqual({ help: 'create-authority' });
    expect(parseCommand(['unlock', '-h'])).toEqual({ help: 'unlock' });
    const usage = commandUsage('create-authority');
    expect(usage).toContain('--unit-name <单位名称>');
    expect(usage).toContain('--generate 生成随机密码');
    expect(usage).not.toContain('reset-password');
    const listing = commandUsage('list-admins');
    expect(listing).toContain('列出各单位主账号');
    expect(listing).not.toContain('--generate');
    expect(listing).toContain('PORTAL_DATA_DIR');
  });
});

describe.each(dbTargets())('npm run admin (%s)', (target) => {
  let env: Record<string, string>;
  let dataDir: string;
  let dropDatabase: (() => Promise<void>) | undefined;
  let app: FastifyInstance | undefined;
  let authorityOrgCode = '';
  let unitPassword = '';

  beforeAll(async () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'portal-admin-')), 'data');
    if (target === 'pg') {
      const database = await freshPostgresDatabase();
      env = { DATABASE_URL: database.url };
      dropDatabase = database.drop;
    } else {
      env = { PORTAL_DATA_DIR: dataDir };
    }
  });

  afterAll(async () => {
    await app?.close();
    await dropDatabase?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The server's app on the same database (the embedded one is held by it until `closeApp`). */
  async function openApp(): Promise<FastifyInstance> {
    app = await buildApp({ captchaEnabled: false, ...OPEN_LIMITS, logLevel: 'silent', staticDir: null, dataDir, databaseUrl: env.DATABASE_URL ?? null });
    await app.ready();
    return app;
  }
  async function closeApp(): Promise<void> {
    await app?.close();
    app = undefined;
  }

  it('creates the authority unit and its administrator; a second run with the same login name is refused', SLOW, async () => {
    const run = await admin(['create-authority', '--login', 'jgroot', '--name', '陈静', '--mobile', '13805749999'], env, twice(AUTHORITY_PASSWORD));
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^已创建监察机构单位「宁波市市场监督管理局」（统一社会信用代码 (11330200[0-9A-Z]{10})，区划 330200） \/ Created the authority unit/,
    );
    authorityOrgCode = /统一社会信用代码 (\w{18})/.exec(lines[0])![1];
    expect(run.stdout).toContain('已创建管理员 jgroot（陈静） / Created administrator jgroot');
    expect(run.stdout).not.toContain(AUTHORITY_PASSWORD);

    const again = await admin(['create-authority', '--login', 'jgroot', '--name', '陈静'], env, twice(AUTHORITY_PASSWORD));
    expect(again.status).toBe(2);
    expect(again.stderr.trim()).toBe('登录账号 jgroot 已存在 / The login name jgroot is taken');
  });

  it('creates a using unit and its main account with a generated password, printed once', SLOW, async () => {
    const run = await admin(
      [
        'create-unit-admin',
        '--login',
        'nbroot',
        '--name',
        '张伟',
        '--unit-name',
        '宁波海曙起重设备有限公司',
        '--org-code',
        UNIT_ORG_CODE.toLowerCase(),
        '--area',
        '330203',
        '--generate',
      ],
      env,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`已创建使用单位「宁波海曙起重设备有限公司」（统一社会信用代码 ${UNIT_ORG_CODE}，区划 330203）`);
    const generated = [...run.stdout.matchAll(/生成的密码（只显示这一次）：(\S+) \/ Generated password \(shown once\): (\S+)/g)];
    expect(generated).toHaveLength(1);
    unitPassword = generated[0][1];
    expect(generated[0][2]).toBe(unitPassword);

    // A unit has one main account; a credit code of another kind of unit is refused.
    const second = await admin(
      ['create-unit-admin', '--login', 'nbroot2', '--name', '李娜', '--unit-name', '宁波海曙起重设备有限公司', '--org-code', UNIT_ORG_CODE, '--generate'],
      env,
    );
    expect(second.status).toBe(2);
    expect(second.stderr.trim()).toBe('单位「宁波海曙起重设备有限公司」已有主账号 nbroot / 宁波海曙起重设备有限公司 already has its main account nbroot');
    const wrongKind = await admin(
      ['create-unit-admin', '--login', 'nbroot3', '--name', '李娜', '--unit-name', '某公司', '--org-code', authorityOrgCode, '--generate'],
      env,
    );
    expect(wrongKind.status).toBe(2);
    expect(wrongKind.stderr).toMatch(/^统一社会信用代码 \w+ 已属于监察机构「宁波市市场监督管理局」 \/ /);

    const list = await admin(['list-admins'], env);
    expect(list.status, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^jgroot\t陈静\t宁波市市场监督管理局\t\w{18}\t330200\t监察机构审核员\t待改密\/must change password$/m);
    expect(list.stdout).toMatch(/^nbroot\t张伟\t宁波海曙起重设备有限公司\t91330203MA2CLK01\w\w\t330203\t使用单位管理员\t待改密\/must change password$/m);
  });

  it('the accounts must change their password at first login; nothing else is served until then', SLOW, async () => {
    const portal = await openApp();
    if (target === 'pglite') {
      // The server holds the embedded database: the tool refuses to open it.
      const held = await admin(['list-admins'], env);
      expect(held.status).toBe(1);
      expect(held.stderr).toMatch(/^PORTAL_DATA_DIR 正被运行中的门户服务使用.* \/ PORTAL_DATA_DIR is held by a running portal server/);
    }
    // The refused commands wrote nothing: two units, two accounts.
    expect(await portal.db.selectFrom('sys_user').select(['login_name', 'is_user_seed', 'password_must_change']).orderBy('login_name').execute()).toEqual([
      { login_name: 'jgroot', is_user_seed: 1, password_must_change: true },
      { login_name: 'nbroot', is_user_seed: 1, password_must_change: true },
    ]);
    expect(await portal.db.selectFrom('sys_unit').select('unit_type').orderBy('unit_type').execute()).toEqual([
      { unit_type: 'authority' },
      { unit_type: 'use' },
    ]);

    const first = await login(portal, 'jgroot', AUTHORITY_PASSWORD, authorityOrgCode);
    expect(first).toMatchObject({
      result: 'true',
      user: { loginName: 'jgroot', isUserSeed: 1, simplePwd: false, passwordMustChange: true, currentRole: { roleType: 'authority' } },
    });
    // The same role the demo's jgadmin holds.
    expect(first.data!.roleList.map((r) => r.id)).toEqual([roleId('authority')]);
    const sid = first.sessionid!;
    const refused = await withSession(portal, sid, { method: 'GET', url: api(API.unit) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ result: 'false', code: 'PASSWORD_MUST_CHANGE', message: '请先修改管理员设置的初始密码' });
    const profile = await withSession(portal, sid, { method: 'GET', url: api(API.userInfo) });
    expect(profile.json()).toMatchObject({ result: 'true', data: { user: { passwordMustChange: true } } });

    const changed = await withSession(portal, sid, {
      method: 'POST',
      url: api(API.updatePwd),
      payload: { oldPassword: AUTHORITY_PASSWORD, newPassword: 'Jg@mine2026' },
    });
    expect(changed.json()).toMatchObject({ result: 'true' });
    const after = await login(portal, 'jgroot', 'Jg@mine2026', authorityOrgCode);
    expect(after).toMatchObject({ result: 'true', user: { passwordMustChange: false } });
    expect((await withSession(portal, after.sessionid!, { method: 'GET', url: api(API.unit) })).json()).toMatchObject({
      result: 'true',
      data: { unitType: 'authority' },
    });

    const unit = await login(portal, 'nbroot', unitPassword, UNIT_ORG_CODE);
    expect(unit).toMatchObject({
      result: 'true',
      user: { loginName: 'nbroot', isUserSeed: 1, passwordMustChange: true, userUnitAreacode: '330203', currentRole: { roleType: 'unit' } },
    });
    expect(unit.data!.roleList.map((r) => r.id)).toEqual([roleId('unitAdmin')]);

    // Five wrong passwords lock nbroot; the tool unlocks it below.
    for (let i = 0; i < MAX_FAILED_LOGINS; i++) await login(portal, 'nbroot', 'Wrong@2026x', UNIT_ORG_CODE);
    expect(await login(portal, 'nbroot', unitPassword, UNIT_ORG_CODE)).toMatchObject({ result: 'false', message: '账号已锁定，请15分钟后再试' });
    await closeApp();
  });

  it('unlock clears the lock and the login counters; reset-password sets a password to change at the next login', SLOW, async () => {
    const unlocked = await admin(['unlock', '--login', 'nbroot', '--org-code', UNIT_ORG_CODE], env);
    expect(unlocked.status, unlocked.stderr).toBe(0);
    expect(unlocked.stdout.trim()).toBe('已解除 nbroot 的登录锁定与失败计数 / Unlocked nbroot: the lock and the failure counts are cleared');

    const wrongUnit = await admin(['reset-password', '--login', 'jgroot', '--org-code', UNIT_ORG_CODE], env, twice('Jg@reset2026'));
    expect(wrongUnit.status).toBe(2);
    expect(wrongUnit.stderr.trim()).toBe(
      `账号 jgroot 不属于统一社会信用代码为 ${UNIT_ORG_CODE} 的单位 / The account jgroot is not of the unit ${UNIT_ORG_CODE}`,
    );
    const unknown = await admin(['unlock', '--login', 'nobody'], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr.trim()).toBe('没有登录账号 nobody / No account with the login name nobody');

    const reset = await admin(['reset-password', '--login', 'jgroot'], env, twice('Jg@reset2026'));
    expect(reset.status, reset.stderr).toBe(0);
    expect(reset.stdout).toContain('已重设 jgroot 的密码');

    const portal = await openApp();
    expect(await portal.db.selectFrom('sys_rate_counter').select('key').where('key', 'like', '%nbroot').execute()).toEqual([]);
    expect(await login(portal, 'nbroot', unitPassword, UNIT_ORG_CODE)).toMatchObject({ result: 'true', user: { passwordMustChange: true } });
    expect(await login(portal, 'jgroot', 'Jg@mine2026', authorityOrgCode)).toMatchObject({ result: 'false', message: '账号或密码错误' });
    const again = await login(portal, 'jgroot', 'Jg@reset2026', authorityOrgCode);
    expect(again).toMatchObject({ result: 'true', user: { passwordMustChange: true } });
    expect((await withSession(portal, again.sessionid!, { method: 'GET', url: api(API.unit) })).statusCode).toBe(403);
    await closeApp();
  });

  it('creates an inspection body and its main account, with the inspection role', SLOW, async () => {
    const bodyCode = makeUscc('12', '330203', '47000012');
    const run = await admin(
      [
        'create-inspection-admin',
        '--login',
        'jyroot',
        '--name',
        '郑涛',
        '--unit-name',
        '宁波某特种设备检测有限公司',
        '--org-code',
        bodyCode,
        '--area',
        '330203',
        '--generate',
      ],
      env,
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`已创建检验机构「宁波某特种设备检测有限公司」（统一社会信用代码 ${bodyCode}，区划 330203） / Created the inspection body`);
    expect(run.stdout).toContain('Created administrator jyroot (inspection body main account)');
    // Its unit and credit code are the body's: a using unit's code is refused.
    const wrongKind = await admin(
      ['create-inspection-admin', '--login', 'jyroot2', '--name', '孙悦', '--unit-name', '某公司', '--org-code', UNIT_ORG_CODE, '--generate'],
      env,
    );
    expect(wrongKind.status).toBe(2);
    expect(wrongKind.stderr).toMatch(/^统一社会信用代码 \w+ 已属于使用单位「宁波海曙起重设备有限公司」 \/ /);
    const list = await admin(['list-admins'], env);
    expect(list.stdout).toMatch(/^jyroot\t郑涛\t宁波某特种设备检测有限公司\t\w{18}\t330203\t检验机构业务员\t待改密\/must change password$/m);
  });
  it('creates a maintenance unit and its main account, with the maintenance role, and its licence in the registry', SLOW, async () => {
    const code = makeUscc('91', '330203', 'MA2WB001');
    const expiry = addToDate(todayIn(), 1, 'y');
    const args = ['--name', '钱伟', '--unit-name', '宁波某电梯维保有限公司', '--org-code', code, '--area', '330203', '--generate'];
    const licence = ['--licence-no', 'TS3333199-2028', '--licence-expiry', expiry, '--licence-items', 'T-B,t-r'];
    const unknownItem = await admin(['create-maintenance-admin', '--login', 'wbroot', ...args, ...licence.slice(0, 4), '--licence-items', 'T-B,X-9'], env);
    expect(unknownItem.status).toBe(2);
    expect(unknownItem.stderr).toMatch(/^--licence-items：未知的许可项目 X-9/);
    const run = await admin(['create-maintenance-admin', '--login', 'wbroot', ...args, ...licence], env);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`已创建维保单位「宁波某电梯维保有限公司」（统一社会信用代码 ${code}，区划 330203） / Created the maintenance unit`);
    expect(run.stdout).toContain('Created administrator wbroot (maintenance unit main account)');
    expect(run.stdout).toContain('已在维保单位名录中登记该单位及其许可证 / Added the unit and its licence to the maintenance-unit registry');
    // Without the licence options: nothing to link yet, the operator is told how it is linked.
    const second = await admin(
      [
        'create-maintenance-admin',
        '--login',
        'wbroot2',
        '--name',
        '蒋华',
        '--unit-name',
        '宁波某维保二公司',
        '--org-code',
        makeUscc('91', '330206', 'MA2WB002'),
      ],
      env,
      twice('Wb@admin2026'),
    );
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/维保单位名录中还没有信用代码 \w{18} 的记录/);
    const list = await admin(['list-admins'], env);
    expect(list.stdout).toMatch(/^wbroot\t钱伟\t宁波某电梯维保有限公司\t\w{18}\t330203\t维保单位管理员\t待改密\/must change password$/m);

    const portal = await openApp();
    const unit = await portal.db.selectFrom('sys_unit').select(['id', 'unit_type']).where('orgcode', '=', code).executeTakeFirstOrThrow();
    expect(unit.unit_type).toBe('maintenance');
    const { rows } = await sql<{ account_unit_id: string; licence_no: string; expiry_date: string; licence_items: string[]; status: string }>`
      SELECT account_unit_id, licence_no, expiry_date::text AS expiry_date, licence_items, status FROM maintenance_unit WHERE credit_code = ${code}`.execute(
      portal.db,
    );
    expect(rows).toEqual([{ account_unit_id: unit.id, licence_no: 'TS3333199-2028', expiry_date: expiry, licence_items: ['T-B', 'T-R'], status: 'active' }]);
    const reply = await login(portal, 'wbroot', /生成的密码（只显示这一次）：(\S+)/.exec(run.stdout)![1], code);
    expect(reply).toMatchObject({ result: 'true', user: { currentRole: { roleType: 'maintenance' } } });
    expect(reply.data!.roleList.map((r) => r.id)).toEqual([roleId('maintainer')]);
    await closeApp();
  });

  it('sso-token signs a short-lived token the server takes as a login, for an existing account only', SLOW, async () => {
    const run = await admin(['sso-token', '--login', 'jgroot', '--minutes', '2'], env);
    expect(run.status, run.stderr).toBe(0);
    const [token, said] = run.stdout.trim().split('\n');
    expect(said).toBe(
      '已为 jgroot 签发单点登录令牌（2 分钟内有效，仅可用于登录） / Issued a single sign-on token for jgroot (valid 2 minutes, for logging in only)',
    );
    const unknown = await admin(['sso-token', '--login', 'nobody'], env);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([2, '没有登录账号 nobody / No account nobody']);
    const long = await admin(['sso-token', '--login', 'jgroot', '--minutes', '90'], env);
    expect([long.status, long.stderr.trim()]).toEqual([2, '--minutes：应为 1–60 的整数（90） / --minutes: a whole number 1–60 (90)']);

    const portal = await openApp();
    const res = await portal.inject({
      method: 'POST',
      url: api(API.login),
      payload: new URLSearchParams({ ssotoken: token, __ajax: 'json' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.json()).toMatchObject({ result: 'true', user: { loginName: 'jgroot' } });
    await closeApp();
  });
});
