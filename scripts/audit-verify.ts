/**
 * `npm run audit:verify`: checks the audit log's hash chain (src/server/admin/audit-verify.ts) and
 * exits 0 when it is intact, 3 at the first broken link.
 */
import { parseCommandLine, toolName } from '../src/server/command-line.mjs';

parseCommandLine({
  name: toolName('npm run audit:verify', 'audit-verify'),
  bilingual: true,
  summary: [
    '校验审计日志的哈希链：打开配置中的数据库（与服务相同：DATABASE_URL，未设置时为 PORTAL_DATA_DIR 中的内置数据库，须先停止服务），显示一行结果。退出状态：0 完整，3 链断裂，1 配置或数据库不可用。',
    "Checks the audit log's hash chain over the configured database (the server's: DATABASE_URL, else the embedded one in PORTAL_DATA_DIR, with the server stopped) and prints one line. Exit status: 0 intact, 3 broken, 1 a setting or database that cannot be used.",
  ],
  env: [
    ['DATABASE_URL', 'PostgreSQL；未设置时用内置数据库 / unset: the embedded database'],
    ['PORTAL_DATA_DIR', "内置数据库目录 / the embedded database's directory"],
    ['PORTAL_MASTER_KEY', '链密钥的加密主密钥 / the master key sealing the chain key'],
  ],
  examples: ['npm run audit:verify', 'bin/portal audit-verify'],
});
// The database code loads once the command line is understood.
const { runAuditVerify } = await import('../src/server/admin/audit-verify');
process.exit(await runAuditVerify({ stdout: process.stdout, stderr: process.stderr, env: process.env }));
