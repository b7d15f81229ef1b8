/**
 * The operator commands `npm run backup -- [--out <file>]` and `npm run restore -- <file> [--force]`
 * (scripts/backup.ts, scripts/restore.ts). Each returns its exit status: 0 done, 2 bad input
 * (arguments, a missing or foreign archive, the wrong database kind), 1 anything else (the
 * database does not answer, a tool is missing, the target is not empty, a server holds it).
 * A refusal is one Chinese-and-English line on stderr; nothing has been changed then.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { loadConfig, StartupError, type Config } from '../config';
import { backup, OpsError, restore } from './backup';

const BACKUP_USAGE = '用法 / usage: npm run backup -- [--out <file.tar.gz>]';
const RESTORE_USAGE = '用法 / usage: npm run restore -- <file.tar.gz> [--force]';

const say = (message: string) => console.log(message);

/** Ends a command: the one line of a known failure, else the error with its stack. */
function failed(err: unknown, zhVerb: string, enVerb: string): 1 | 2 {
  if (err instanceof OpsError) {
    console.error(`${zhVerb}失败：${err.zh} / ${enVerb} failed: ${err.en}`);
    return err.exitCode;
  }
  if (err instanceof StartupError) {
    console.error(`${zhVerb}失败：${err.setting} ${err.zh} / ${enVerb} failed: ${err.setting} ${err.en}`);
    return 2;
  }
  console.error(`${zhVerb}失败 / ${enVerb} failed: ${(err as Error)?.stack ?? String(err)}`);
  return 1;
}

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 2 : 1)} MB`;
const totalRows = (tables: Record<string, number>): number => Object.values(tables).reduce((a, b) => a + b, 0);

function parse(argv: string[], options: NonNullable<ParseArgsConfig['options']>, usage: string): ReturnType<typeof parseArgs> | null {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return null;
  }
}

export async function backupMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parse(argv, { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, BACKUP_USAGE);
  if (!args) return 2;
  if (args.values.help) {
    say(`${BACKUP_USAGE}\n备份配置中的数据库（DATABASE_URL 或 PORTAL_DATA_DIR）与附件目录到一个 .tar.gz 文件 / backs up the configured database and attachment folder into one .tar.gz file`);
    return 0;
  }
  if (args.positionals.length > 0) {
    console.error(`多余的参数 / unexpected argument: ${args.positionals.join(' ')}\n${BACKUP_USAGE}`);
    return 2;
  }
  try {
    const config: Config = loadConfig(env);
    const result = await backup(config, { out: args.values.out as string | undefined, progress: say });
    const m = result.manifest;
    say(`数据库 ${m.database.kind === 'postgres' ? `PostgreSQL ${m.database.version}` : `PGlite ${m.database.version}`}：${Object.keys(m.tables).length} 张表，${totalRows(m.tables)} 行；附件 ${m.attachments.count} 个（${megabytes(m.attachments.bytes)}）/ database ${m.database.kind}: ${Object.keys(m.tables).length} tables, ${totalRows(m.tables)} rows; ${m.attachments.count} attachments`);
    say(`备份完成 / Backup written: ${result.path}  (${megabytes(result.size)})`);
    return 0;
  } catch (err) {
    return failed(err, '备份', 'Backup');
  }
}

export async function restoreMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parse(argv, { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, RESTORE_USAGE);
  if (!args) return 2;
  if (args.values.help) {
    say(`${RESTORE_USAGE}\n把 npm run backup 的备份恢复到配置中的数据库与附件目录（目标须为空；--force 替换现有内容）/ restores a backup into the configured database and attachment folder (which must be empty; --force replaces what is there)`);
    return 0;
  }
  if (args.positionals.length !== 1) {
    console.error(`需要一个备份文件 / expected one backup file\n${RESTORE_USAGE}`);
    return 2;
  }
  const file = args.positionals[0];
  try {
    const config: Config = loadConfig(env);
    const result = await restore(config, file, { force: Boolean(args.values.force), progress: say });
    const m = result.manifest;
    for (const r of result.replaced) say(`--force：原有内容 / replaced: ${r}`);
    const nonEmpty = Object.entries(result.tables).filter(([, n]) => n > 0);
    say(`恢复的行数 / rows restored (${nonEmpty.length} 张非空表 / non-empty tables):`);
    for (const [name, n] of nonEmpty) say(`  ${name.padEnd(32)} ${n}`);
    say(`恢复完成 / Restored: ${file} (${m.createdAt}, 版本 / version ${m.productVersion}) → ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}: ${Object.keys(result.tables).length} 张表，${totalRows(result.tables)} 行，附件 ${result.attachments} 个 / ${Object.keys(result.tables).length} tables, ${totalRows(result.tables)} rows, ${result.attachments} attachments`);
    say('启动服务器时会自动应用新版本的数据库迁移 / the server applies newer migrations when it starts');
    return 0;
  } catch (err) {
    return failed(err, '恢复', 'Restore');
  }
}
