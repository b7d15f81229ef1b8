/**
 * `npm run audit:verify`: checks the audit log's hash chain (src/server/admin/audit-verify.ts) and
 * exits 0 when it is intact, 3 at the first broken link.
 */
import { runAuditVerify } from '../src/server/admin/audit-verify';

process.exit(await runAuditVerify({ stdout: process.stdout, stderr: process.stderr, env: process.env }));
