/**
 * npm run restore -- <file.tar.gz> [--force]
 *
 * Restores a backup of `npm run backup` into the configured database and attachment folder, which
 * must be empty: --force replaces what is there (PostgreSQL: every schema object of the database
 * is dropped first; PGlite: the old data directory is moved to <dir>.replaced-<time>). Refused
 * while a server runs on the embedded data directory. Prints the restored row counts.
 * See src/server/ops/backup.ts.
 */
import { restoreMain } from '../src/server/ops/cli';

process.exit(await restoreMain(process.argv.slice(2)));
