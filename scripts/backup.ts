/**
 * npm run backup -- [--out <file.tar.gz>]
 *
 * Backs up the configured database (DATABASE_URL, else the embedded PGlite in PORTAL_DATA_DIR,
 * running or stopped) and the attachment folder into one archive; prints its path and size.
 * Default file: backups/portal-backup-<UTC time>.tar.gz. See src/server/ops/backup.ts.
 */
import { backupMain } from '../src/server/ops/cli';

process.exit(await backupMain(process.argv.slice(2)));
