/**
 * The operator commands `npm run backup -- [--out <file>]` and `npm run restore -- <file> [--force]`
 * (scripts/backup.ts, scripts/restore.ts). Each returns its exit status: 0 done, 2 bad input
 * (arguments, a missing or foreign archive, the wrong database kind), 1 anything else (the
 * database does not answer, a tool is missing, the target is not empty, a server holds it).
 * A refusal is one Chinese-and-English line on stderr; nothing has been changed then.
 */
import { helpText, interpretCommandLine, toolName, usageLine, UsageError, type CommandSpec, type ParsedCommandLine } from '../command-line.mjs';
import { loadConfig, StartupError, type Config } from '../config';
import { backup, OpsError, restore } from './backup';

const BACKUP: CommandSpec = {
  name: toolName('npm run backup', 'backup'),
  bilingual: true,
  summary: [
    '备份配置中的数据库（DATABASE_URL，未设置时为 PORTAL_DATA_DIR 中的内置数据库，服务运行与否均可）与附件目录到一个 .tar.gz 文件，并显示其路径与大小。',
    'Backs up the configured database (DATABASE_URL, else the embedded one in PORTAL_DATA_DIR, running or stopped) and the attachment folder into one .tar.gz file; prints its path and size.',
  ],
  options: {
    out: {
      type: 'string',
      value: 'file.tar.gz',
      description: '备份文件（默认 backups/portal-backup-<UTC 时间>.tar.gz）/ the archive (default backups/portal-backup-<UTC time>.tar.gz)',
    },
  },
  examples: ['npm run backup', 'npm run backup -- --out /srv/backups/portal.tar.gz', 'bin/portal backup --out /srv/backups/portal.tar.gz'],
};
const RESTORE: CommandSpec = {
  name: toolName('npm run restore', 'restore'),
  bilingual: true,
  summary: [
    '把 npm run backup 的备份恢复到配置中的数据库与附件目录，目标须为空；服务运行时不可恢复到其内置数据库。显示恢复的行数。',
    'Restores a backup of npm run backup into the configured database and attachment folder, which must be empty; refused while a server runs on the embedded database. Prints the restored row counts.',
  ],
  options: {
    force: {
      type: 'boolean',
      description:
        '替换现有内容（PostgreSQL：先删除数据库中的全部对象；内置数据库：原目录改名为 <目录>.replaced-<时间>）/ replace what is there (PostgreSQL: every object is dropped first; embedded: the old directory is moved to <dir>.replaced-<time>)',
    },
  },
  positionals: [{ name: 'file.tar.gz', description: 'npm run backup 生成的备份 / a backup made by npm run backup', required: true }],
  examples: [
    'npm run restore -- backups/portal-backup-20260101T000000Z.tar.gz',
    'npm run restore -- portal.tar.gz --force',
    'bin/portal restore /srv/backups/portal.tar.gz',
  ],
};

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

/** The command line, or the exit status when it was answered here (help: 0, one line on stderr: 2). */
function parse(argv: string[], spec: CommandSpec): ParsedCommandLine | number {
  try {
    const parsed = interpretCommandLine(spec, argv);
    if (parsed !== 'help') return parsed;
    process.stdout.write(helpText(spec));
    return 0;
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    console.error(usageLine(spec, err));
    return 2;
  }
}

export async function backupMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parse(argv, BACKUP);
  if (typeof args === 'number') return args;
  try {
    const config: Config = loadConfig(env);
    const result = await backup(config, { out: args.values.out as string | undefined, progress: say });
    const m = result.manifest;
    say(
      `数据库 ${m.database.kind === 'postgres' ? `PostgreSQL ${m.database.version}` : `PGlite ${m.database.version}`}：${Object.keys(m.tables).length} 张表，${totalRows(m.tables)} 行；附件 ${m.attachments.count} 个（${megabytes(m.attachments.bytes)}）/ database ${m.database.kind}: ${Object.keys(m.tables).length} tables, ${totalRows(m.tables)} rows; ${m.attachments.count} attachments`,
    );
    say(`备份完成 / Backup written: ${result.path}  (${megabytes(result.size)})`);
    return 0;
  } catch (err) {
    return failed(err, '备份', 'Backup');
  }
}

export async function restoreMain(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const args = parse(argv, RESTORE);
  if (typeof args === 'number') return args;
  const file = args.positionals[0];
  try {
    const config: Config = loadConfig(env);
    const result = await restore(config, file, { force: Boolean(args.values.force), progress: say });
    const m = result.manifest;
    for (const r of result.replaced) say(`--force：原有内容 / replaced: ${r}`);
    const nonEmpty = Object.entries(result.tables).filter(([, n]) => n > 0);
    say(`恢复的行数 / rows restored (${nonEmpty.length} 张非空表 / non-empty tables):`);
    for (const [name, n] of nonEmpty) say(`  ${name.padEnd(32)} ${n}`);
    say(
      `恢复完成 / Restored: ${file} (${m.createdAt}, 版本 / version ${m.productVersion}) → ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}: ${Object.keys(result.tables).length} 张表，${totalRows(result.tables)} 行，附件 ${result.attachments} 个 / ${Object.keys(result.tables).length} tables, ${totalRows(result.tables)} rows, ${result.attachments} attachments`,
    );
    say('启动服务器时会自动应用新版本的数据库迁移 / the server applies newer migrations when it starts');
    return 0;
  } catch (err) {
    return failed(err, '恢复', 'Restore');
  }
}
