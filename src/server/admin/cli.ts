/**
 * `npm run admin -- <command>`: the operator's tool for a real installation (scripts/admin.ts is its
 * entry; the offline package bundles it into dist/admin.mjs). It opens the database as the server
 * does (the same settings: DATABASE_URL, or the embedded database in PORTAL_DATA_DIR) and applies
 * pending migrations first.
 *
 * Every message is one line, Chinese then English. Exit status: 0 done, 2 a wrong command or
 * input (nothing written), 1 a setting or a database that cannot be used.
 *
 * The embedded database has one user at a time: while a server holds PORTAL_DATA_DIR (PGlite
 * keeps `postmaster.pid` in it while open, and removes it when it closes), the tool refuses to
 * start. A server started while the tool runs is not stopped: stop the server for the tool's few
 * seconds.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, StartupError, type Config } from '../config';
import type { Db } from '../db/index';
import { startupError } from '../startup-errors';
import { messages, rules } from '../../../validators';
import type { MaintenanceLicence, RegistryOutcome, UnitKind } from './accounts';
import { AdminError, EXIT_FAILURE } from './errors';
import { newPassword } from './password-input';

export interface AdminIo {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

type OptionName = 'login' | 'name' | 'unit-name' | 'org-code' | 'area' | 'mobile' | 'generate' | 'licence-no' | 'licence-expiry' | 'licence-items' | 'minutes';

interface CommandSpec {
  options: readonly OptionName[];
  required: readonly OptionName[];
  /** Writes to an existing database only (an empty data directory is refused, not initialised). */
  existing: boolean;
}

const COMMANDS: Record<string, CommandSpec> = {
  'create-authority': { options: ['login', 'name', 'unit-name', 'org-code', 'area', 'mobile', 'generate'], required: ['login', 'name'], existing: false },
  'create-unit-admin': {
    options: ['login', 'name', 'unit-name', 'org-code', 'area', 'mobile', 'generate'],
    required: ['login', 'name', 'unit-name', 'org-code'],
    existing: false,
  },
  'create-inspection-admin': {
    options: ['login', 'name', 'unit-name', 'org-code', 'area', 'mobile', 'generate'],
    required: ['login', 'name', 'unit-name', 'org-code'],
    existing: false,
  },
  'create-maintenance-admin': {
    options: ['login', 'name', 'unit-name', 'org-code', 'area', 'mobile', 'generate', 'licence-no', 'licence-expiry', 'licence-items'],
    required: ['login', 'name', 'unit-name', 'org-code'],
    existing: false,
  },
  'reset-password': { options: ['login', 'org-code', 'generate'], required: ['login'], existing: true },
  unlock: { options: ['login', 'org-code'], required: ['login'], existing: true },
  'list-admins': { options: [], required: [], existing: true },
  'sso-token': { options: ['login', 'minutes'], required: ['login'], existing: true },
};

/** What each kind of unit is called in the command's answers (Chinese, English). */
const KIND_NAMES: Record<UnitKind, [string, string]> = {
  authority: ['监察机构单位', 'authority unit'],
  use: ['使用单位', 'using unit'],
  inspection: ['检验机构', 'inspection body'],
  maintenance: ['维保单位', 'maintenance unit'],
};

export const USAGE = `用法 / Usage: npm run admin -- <command> [options]

  create-authority   --login <登录账号> --name <姓名> [--unit-name <单位名称>] [--org-code <统一社会信用代码>]
                     [--area <6位区划代码>] [--mobile <手机号>] [--generate]
                     监察机构单位（缺少时创建）及其管理员账号 / the authority unit (created when missing) and an administrator
  create-unit-admin  --login <登录账号> --name <姓名> --unit-name <单位名称> --org-code <统一社会信用代码>
                     [--area <6位区划代码>] [--mobile <手机号>] [--generate]
                     使用单位及其主账号 / a using unit and its main account
  create-inspection-admin --login <登录账号> --name <姓名> --unit-name <单位名称> --org-code <统一社会信用代码>
                     [--area <6位区划代码>] [--mobile <手机号>] [--generate]
                     检验机构及其主账号（报检与补发按分派规则路由到该机构）/ an inspection body and its main account
  create-maintenance-admin --login <登录账号> --name <姓名> --unit-name <单位名称> --org-code <统一社会信用代码>
                     [--area <6位区划代码>] [--mobile <手机号>] [--generate]
                     [--licence-no <许可证编号> --licence-expiry <有效期至 YYYY-MM-DD> --licence-items <许可项目,如 T-B,T-R>]
                     维保单位及其主账号，并关联维保单位名录中同一信用代码的记录（给出许可证时写入或新建）
                     / a maintenance unit and its main account, linked to its licence in the registry (written or added with the licence options)
  reset-password     --login <登录账号> [--org-code <统一社会信用代码>] [--generate]
                     重设密码（并解除锁定）/ set a new password (and lift a lock)
  unlock             --login <登录账号> [--org-code <统一社会信用代码>]
                     解除连续登录失败的锁定 / lift the lock of failed logins
  list-admins        列出各单位主账号 / list the units' main accounts
  sso-token          --login <登录账号> [--minutes <有效分钟数 1–60，默认 5>]
                     签发单点登录令牌，脚本以 POST /a/login（ssotoken=…）免验证码登录，浏览器打开 /ssologin?ssotoken=…
                     / a single sign-on token: a script logs in with POST /a/login (ssotoken=…) without the captcha, a browser at /ssologin?ssotoken=…

密码：终端中输入两次（不回显）；管道输入时读两行（密码、确认密码）；--generate 生成随机密码并只显示一次。
Password: typed twice on a terminal (not shown); from a pipe, two lines (password, confirmation); --generate makes one and prints it once.
新设的密码须在首次登录时修改 / A password set here must be changed at the next login.
数据库与服务相同：DATABASE_URL，未设置时为 PORTAL_DATA_DIR 中的内置数据库（须先停止服务）。
The database is the server's: DATABASE_URL, else the embedded one in PORTAL_DATA_DIR (stop the server first).`;

/** One command's part of USAGE: its lines, the notes on passwords when it sets one, and the note on the database. */
export function commandUsage(command: string): string {
  const lines = USAGE.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`  ${command} `));
  const end = lines.findIndex((line, i) => i > start && (line === '' || /^ {2}\S/.test(line)));
  const passwordNotes = lines.findIndex((line) => line.startsWith('密码：'));
  const databaseNotes = lines.findIndex((line) => line.startsWith('数据库与服务相同'));
  const setsPassword = COMMANDS[command].options.includes('generate');
  return [
    `用法 / Usage: npm run admin -- ${command} [options]`,
    '',
    ...lines.slice(start, end),
    '',
    ...(setsPassword ? lines.slice(passwordNotes, databaseNotes) : []),
    ...lines.slice(databaseNotes),
  ].join('\n');
}

const OPTION_LABELS: Record<OptionName, string> = {
  login: '登录账号',
  name: '姓名',
  'unit-name': '单位名称',
  'org-code': '统一社会信用代码',
  area: '区划代码',
  mobile: '手机号',
  generate: '生成密码',
  'licence-no': '许可证编号',
  'licence-expiry': '许可证有效期至',
  'licence-items': '许可项目',
  minutes: '有效分钟数',
};

type Values = Partial<Record<OptionName, string | boolean>>;

/** The command and its options; anything unknown or missing is an AdminError (exit 2). */
export function parseCommand(argv: readonly string[]): { command: string; spec: CommandSpec; values: Values } | 'help' | { help: string } {
  const [command, ...rest] = argv;
  if (command === undefined)
    throw new AdminError(
      '缺少命令（create-authority、create-unit-admin、create-inspection-admin、create-maintenance-admin、reset-password、unlock、list-admins、sso-token）',
      'No command given (create-authority, create-unit-admin, create-inspection-admin, create-maintenance-admin, reset-password, unlock, list-admins, sso-token)',
    );
  if (command === 'help' || command === '--help' || command === '-h') return 'help';
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!spec) throw new AdminError(`未知命令：${command}（npm run admin -- help 查看用法）`, `Unknown command: ${command} (see npm run admin -- help)`);
  if (rest.some((arg) => arg === '--help' || arg === '-h')) return { help: command };
  let values: Values;
  try {
    const options = Object.fromEntries(spec.options.map((o) => [o, { type: o === 'generate' ? ('boolean' as const) : ('string' as const) }]));
    ({ values } = parseArgs({ args: [...rest], options, strict: true, allowPositionals: false }) as { values: Values });
  } catch (err) {
    const message = (err as Error).message;
    const code = (err as { code?: string }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new AdminError(`命令 ${command} 没有这个选项：${/'([^']+)'/.exec(message)?.[1] ?? message}`, `${command}: ${message}`);
    if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
      throw new AdminError(`多余的参数：${/'([^']+)'/.exec(message)?.[1] ?? message}（选项值须写在选项之后）`, `${command}: ${message}`);
    throw new AdminError(`选项缺少取值：${message}`, `${command}: ${message}`);
  }
  for (const option of spec.required) {
    const value = values[option];
    if (typeof value !== 'string' || value.trim() === '') throw new AdminError(`缺少 --${option} <${OPTION_LABELS[option]}>`, `Missing --${option}`);
  }
  return { command, spec, values };
}

const text = (values: Values, option: OptionName): string | null => {
  const value = values[option];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
};

/** The options' values, checked as the portal checks them (validators/): one line per problem. */
function checkedInput(values: Values, config: Config) {
  const loginName = text(values, 'login');
  if (loginName !== null && rules.loginName(loginName)) throw new AdminError(`--login：${messages.loginName}`, '--login: 4–30 letters, digits or _ . @ -');
  const name = text(values, 'name');
  if (name !== null && name.length > 100) throw new AdminError('--name：姓名过长（最多 100 个字）', '--name: at most 100 characters');
  const unitName = text(values, 'unit-name');
  if (unitName !== null && unitName.length > 200) throw new AdminError('--unit-name：单位名称过长（最多 200 个字）', '--unit-name: at most 200 characters');
  const orgCode = text(values, 'org-code')?.toUpperCase() ?? null;
  if (orgCode !== null && rules.unifiedCreditCode(orgCode))
    throw new AdminError(`--org-code：${messages.unifiedCreditCode}（${orgCode}）`, `--org-code: not a valid unified social credit code (${orgCode})`);
  const areaCode = text(values, 'area') ?? config.areaCode;
  if (!/^\d{6}$/.test(areaCode)) throw new AdminError(`--area：区划代码应为 6 位数字（${areaCode}）`, `--area: the area code must be 6 digits (${areaCode})`);
  const mobile = text(values, 'mobile');
  if (mobile !== null && rules.mobile(mobile)) throw new AdminError(`--mobile：${messages.mobile}（${mobile}）`, `--mobile: not a mobile number (${mobile})`);
  return {
    loginName: loginName ?? '',
    name: name ?? '',
    unitName,
    orgCode,
    areaCode,
    mobile,
    generate: values.generate === true,
    licence: checkedLicence(values),
  };
}

/** A maintenance unit's licence options: all three or none (the items are checked against the dictionary when written). */
function checkedLicence(values: Values): MaintenanceLicence | null {
  const licenceNo = text(values, 'licence-no');
  const expiryDate = text(values, 'licence-expiry');
  const items = text(values, 'licence-items');
  if (licenceNo === null && expiryDate === null && items === null) return null;
  if (licenceNo === null || expiryDate === null || items === null)
    throw new AdminError(
      '许可证须同时给出 --licence-no、--licence-expiry 和 --licence-items',
      'A licence takes all of --licence-no, --licence-expiry and --licence-items',
    );
  if (licenceNo.length > 40) throw new AdminError('--licence-no：许可证编号过长（最多 40 个字符）', '--licence-no: at most 40 characters');
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(expiryDate) ||
    Number.isNaN(Date.parse(`${expiryDate}T00:00:00Z`)) ||
    new Date(`${expiryDate}T00:00:00Z`).toISOString().slice(0, 10) !== expiryDate
  )
    throw new AdminError(`--licence-expiry：日期应为 YYYY-MM-DD（${expiryDate}）`, `--licence-expiry: a date as YYYY-MM-DD (${expiryDate})`);
  return {
    licenceNo,
    expiryDate,
    items: [
      ...new Set(
        items
          .split(/[,，、\s]+/)
          .filter(Boolean)
          .map((item) => item.toUpperCase()),
      ),
    ],
  };
}

/** A database that cannot be used, as one line naming the setting (exit 1). */
export function databaseFailure(err: unknown, config: Config): AdminError | null {
  const known = err instanceof StartupError ? err : startupError(err, config);
  return known ? new AdminError(`数据库不可用：${known.setting} ${known.zh}`, `Cannot use the database: ${known.setting} ${known.en}`, EXIT_FAILURE) : null;
}

/** The embedded database may be opened only when no server holds it, and (for `existing`) only when there is one. */
export function checkDataDir(config: Config, existing: boolean): void {
  if (config.databaseUrl) return;
  const dir = config.dataDir;
  if (dir.startsWith('memory://'))
    throw new AdminError(
      'PORTAL_DATA_DIR 为 memory://：内存数据库随进程消失，请指定服务使用的数据目录',
      'PORTAL_DATA_DIR is memory://: name the data directory the server uses',
      EXIT_FAILURE,
    );
  if (existsSync(join(dir, 'postmaster.pid'))) {
    throw new AdminError(
      `PORTAL_DATA_DIR 正被运行中的门户服务使用（${dir}）：请先停止服务；若服务已停止，是它上次未正常关闭，启动并正常停止一次即可`,
      `PORTAL_DATA_DIR is held by a running portal server (${dir}): stop it first; if none runs, the last one did not stop cleanly: start and stop it once`,
      EXIT_FAILURE,
    );
  }
  if (existing && !existsSync(join(dir, 'PG_VERSION'))) {
    throw new AdminError(
      `PORTAL_DATA_DIR 中没有数据库（${dir}）：是否设置了服务使用的目录？`,
      `PORTAL_DATA_DIR holds no database (${dir}): is it the server's directory?`,
      EXIT_FAILURE,
    );
  }
}

/**
 * Opens and migrates the database as the server does. The server's modules load only now: a
 * wrong command is answered at once.
 */
export async function openDatabase(config: Config): Promise<Db> {
  const [{ postgresOptions }, { createDatabase, migrateToLatest }] = await Promise.all([import('../app'), import('../db/index')]);
  const db = await createDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, cacheDir: config.cacheDir, postgres: postgresOptions(config) });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.destroy().catch(() => undefined);
    throw err;
  }
  return db;
}

const defaultIo = (): AdminIo => ({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env });

/** Runs one command; returns the exit status (the caller exits with it). */
export async function runAdmin(argv: readonly string[], io: AdminIo = defaultIo()): Promise<number> {
  const say = (zh: string, en: string) => io.stdout.write(`${zh} / ${en}\n`);
  let config: Config | undefined;
  let db: Db | undefined;
  try {
    const parsed = parseCommand(argv);
    if (parsed === 'help' || 'help' in parsed) {
      io.stdout.write(`${parsed === 'help' ? USAGE : commandUsage(parsed.help)}\n`);
      return 0;
    }
    const { command, spec, values } = parsed;
    config = adminConfig(io.env);
    const input = checkedInput(values, config);
    const kinds: Record<string, UnitKind> = {
      'create-authority': 'authority',
      'create-unit-admin': 'use',
      'create-inspection-admin': 'inspection',
      'create-maintenance-admin': 'maintenance',
    };
    const creates = command in kinds;
    const password = creates || command === 'reset-password' ? await newPassword({ stdin: io.stdin, prompt: io.stderr }, input.generate) : null;

    checkDataDir(config, spec.existing);
    try {
      db = await openDatabase(config);
    } catch (err) {
      throw databaseFailure(err, config) ?? err;
    }

    const { createAdministrator, listAdministrators, resetPassword, unlockAccount } = await import('./accounts');
    if (creates) {
      const kind = kinds[command];
      const unitName = input.unitName ?? `${config.cityName}市场监督管理局`;
      const created = await createAdministrator(db, {
        kind,
        loginName: input.loginName,
        name: input.name,
        mobile: input.mobile,
        unitName,
        orgCode: input.orgCode,
        areaCode: input.areaCode,
        password: password!.password,
        licence: input.licence,
      });
      const { orgname, orgcode, areacode } = created.unit;
      const [kindZh, kindEn] = KIND_NAMES[kind];
      if (created.unitCreated)
        say(
          `已创建${kindZh}「${orgname}」（统一社会信用代码 ${orgcode}，区划 ${areacode}）`,
          `Created the ${kindEn} ${orgname} (credit code ${orgcode}, area ${areacode})`,
        );
      else say(`沿用已有${kindZh}「${orgname}」（统一社会信用代码 ${orgcode}）`, `Using the existing ${kindEn} ${orgname} (credit code ${orgcode})`);
      if (created.orgCodeGenerated)
        say(`未给出 --org-code：已为该单位生成统一社会信用代码 ${orgcode}，登录时填写`, `No --org-code: the unit got the code ${orgcode}; enter it at login`);
      say(
        `已创建管理员 ${input.loginName}（${input.name}）`,
        `Created administrator ${input.loginName} (${kind === 'authority' ? 'authority' : `${kindEn} main account`})`,
      );
      if (created.registry) sayRegistry(say, created.registry, orgcode);
      say(
        `登录：账号 ${input.loginName}，统一社会信用代码 ${orgcode}；首次登录须修改密码`,
        `Log in as ${input.loginName} with the code ${orgcode}; the password must be changed at first login`,
      );
    } else if (command === 'reset-password') {
      const state = await resetPassword(db, input.loginName, input.orgCode, password!.password);
      say(
        `已重设 ${input.loginName} 的密码，解除锁定并结束其登录会话；下次登录须修改密码`,
        `Reset the password of ${input.loginName}, lifted any lock and ended its sessions; it must be changed at the next login`,
      );
      if (state.disabled)
        say(
          `注意：账号 ${input.loginName} 已停用，须由管理员在账号管理中启用`,
          `Note: ${input.loginName} is disabled; an administrator enables it under account management`,
        );
    } else if (command === 'unlock') {
      const state = await unlockAccount(db, input.loginName, input.orgCode);
      if (state.wasLocked) say(`已解除 ${input.loginName} 的登录锁定与失败计数`, `Unlocked ${input.loginName}: the lock and the failure counts are cleared`);
      else say(`账号 ${input.loginName} 未被锁定，无需解除`, `${input.loginName} was not locked`);
      if (state.disabled)
        say(
          `注意：账号 ${input.loginName} 已停用，须由管理员在账号管理中启用`,
          `Note: ${input.loginName} is disabled; an administrator enables it under account management`,
        );
    } else if (command === 'sso-token') {
      const minutes = ssoMinutes(values);
      const { issueSsoToken } = await import('./sso-token');
      const token = await issueSsoToken(db, config, input.loginName, minutes);
      io.stdout.write(`${token}\n`);
      say(
        `已为 ${input.loginName} 签发单点登录令牌（${minutes} 分钟内有效，仅可用于登录）`,
        `Issued a single sign-on token for ${input.loginName} (valid ${minutes} minutes, for logging in only)`,
      );
    } else {
      const rows = await listAdministrators(db);
      if (rows.length === 0) say('还没有管理员账号：用 create-authority 创建第一个', 'No administrator yet: create the first with create-authority');
      for (const r of rows) {
        const flags = [r.disabled && '已停用/disabled', r.locked && '已锁定/locked', r.passwordMustChange && '待改密/must change password']
          .filter(Boolean)
          .join(' ');
        io.stdout.write(`${r.loginName}\t${r.name}\t${r.orgName}\t${r.orgCode}\t${r.areaCode}\t${r.roles}${flags ? `\t${flags}` : ''}\n`);
      }
    }
    if (password?.generated) say(`生成的密码（只显示这一次）：${password.password}`, `Generated password (shown once): ${password.password}`);
    return 0;
  } catch (err) {
    return reportFailure(err, config, io);
  } finally {
    await db?.destroy().catch(() => undefined);
  }
}

/** `--minutes` of sso-token: whole minutes 1–60, default 5. */
function ssoMinutes(values: Values): number {
  const given = text(values, 'minutes');
  if (given === null) return 5;
  const minutes = Number(given);
  if (!/^\d+$/.test(given) || minutes < 1 || minutes > 60)
    throw new AdminError(`--minutes：应为 1–60 的整数（${given}）`, `--minutes: a whole number 1–60 (${given})`);
  return minutes;
}

/** What became of a maintenance unit's row in the registry (the authority's list of licences). */
function sayRegistry(say: (zh: string, en: string) => void, outcome: RegistryOutcome, orgcode: string): void {
  if (outcome === 'created') say('已在维保单位名录中登记该单位及其许可证', 'Added the unit and its licence to the maintenance-unit registry');
  else if (outcome === 'updated')
    say('已更新维保单位名录中该单位的许可证并关联账号', "Updated the unit's licence in the maintenance-unit registry and linked it");
  else if (outcome === 'linked') say('已关联维保单位名录中同一信用代码的记录', 'Linked the registry row with the same credit code');
  else
    say(
      `维保单位名录中还没有信用代码 ${orgcode} 的记录：请监察机构在“维保单位”中登记其许可证（保存时自动关联），或带许可证选项再运行`,
      `The maintenance-unit registry has no row for ${orgcode}: the authority adds its licence under 维保单位 (linked when saved), or run again with the licence options`,
    );
}

/** The settings, a bad one as one line (exit 1). */
export function adminConfig(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof StartupError) throw new AdminError(`设置有误：${err.setting} ${err.zh}`, `Bad setting: ${err.setting} ${err.en}`, EXIT_FAILURE);
    throw err;
  }
}

/** Writes why a command stopped (one line when known, else the stack) and returns its exit status. */
export function reportFailure(err: unknown, config: Config | undefined, io: Pick<AdminIo, 'stderr'>): number {
  const known = err instanceof AdminError ? err : config && databaseFailure(err, config);
  if (known) {
    io.stderr.write(`${known.line()}\n`);
    return known.exitCode;
  }
  io.stderr.write(`操作失败 / Failed: ${(err as Error)?.stack ?? String(err)}\n`);
  return EXIT_FAILURE;
}
