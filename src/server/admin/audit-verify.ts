/**
 * `npm run audit:verify`: walks the audit log's hash chain (services/audit-chain.ts) over the
 * configured database, opened as `npm run admin` opens it (same settings, pending migrations
 * applied, the embedded database only while no server holds it), and prints one line: the log is
 * intact (how many rows, from which anchor), or the first broken link — the row's number, id and
 * time and what differs. Exit status: 0 intact, 3 broken, 1 a setting or database that cannot be
 * used. Before walking, the leading rows written before any chain key existed are sealed, as a
 * server start does.
 */
import type { Config } from '../config';
import type { Db } from '../db/index';
import { startAuditChain, verifyAuditChain } from '../services/audit-chain';
import { adminConfig, checkDataDir, databaseFailure, openDatabase, reportFailure, type AdminIo } from './cli';

export const EXIT_BROKEN = 3;

const shanghai = (iso: string) => new Date(iso).toLocaleString('zh-CN', { timeZone: 'Asia/Shanghai', hour12: false });

export async function runAuditVerify(io: Pick<AdminIo, 'stdout' | 'stderr' | 'env'>): Promise<number> {
  let db: Db | undefined;
  let config: Config | undefined;
  try {
    config = adminConfig(io.env);
    checkDataDir(config, true);
    try {
      db = await openDatabase(config);
    } catch (err) {
      throw databaseFailure(err, config) ?? err;
    }
    const chain = await startAuditChain(db, config);
    const result = await verifyAuditChain(db, chain);
    const from = result.anchor ? `，自保留锚点第 ${result.anchor.seq} 条之后` : '';
    const fromEn = result.anchor ? `, after the retention anchor at row ${result.anchor.seq}` : '';
    const keyNote = config.masterKey ? '' : '（未设置 PORTAL_MASTER_KEY：链密钥存于数据库中，只能发现无意的改动）';
    const keyNoteEn = config.masterKey ? '' : ' (no PORTAL_MASTER_KEY: the chain key is in the database, so only careless edits show)';
    if (!result.problem) {
      const span =
        result.first && result.last
          ? `，第 ${result.first.seq}–${result.last.seq} 条，${shanghai(result.first.createdAt)} 至 ${shanghai(result.last.createdAt)}`
          : '';
      const spanEn = result.first && result.last ? `, rows ${result.first.seq}-${result.last.seq}, ${result.first.createdAt} to ${result.last.createdAt}` : '';
      io.stdout.write(`审计日志完整：${result.rows} 条${span}${from}${keyNote} / audit log intact: ${result.rows} rows${spanEn}${fromEn}${keyNoteEn}\n`);
      return 0;
    }
    const p = result.problem;
    const where = `第 ${p.seq} 条${p.id ? `（id ${p.id}，时间 ${shanghai(p.createdAt!)}）` : ''}`;
    const whereEn = `row ${p.seq}${p.id ? ` (id ${p.id}, time ${p.createdAt})` : ''}`;
    io.stdout.write(
      `审计日志链断裂：${where}：${p.zh}；此前 ${result.rows} 条完整${from} / audit log chain broken at ${whereEn}: ${p.en}; ${result.rows} rows before it intact${fromEn}\n`,
    );
    return EXIT_BROKEN;
  } catch (err) {
    return reportFailure(err, config, io);
  } finally {
    await db?.destroy().catch(() => undefined);
  }
}
