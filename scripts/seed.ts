/**
 * Seeds (or refreshes) the demo data in the configured database and prints the demo accounts.
 * Role menus are re-read from schemas/menu.json, so run it after adding menu entries.
 *
 *   npx tsx scripts/seed.ts                      # DATABASE_URL, or PGlite in PORTAL_DATA_DIR (./data)
 *   npx tsx scripts/seed.ts --sso-token nbadmin  # also print a 5-minute SSO token for that user
 *
 * With the embedded PGlite, stop the server first: a PGlite directory is single-process.
 */
import { createDatabase, migrateToLatest } from '../src/server/db/index';
import { formatDemoAccounts, seedDemoData } from '../src/server/db/seed';
import { loadConfig } from '../src/server/config';
import { loadServerKeys } from '../src/server/services/server-keys';
import { signSsoToken } from '../src/server/services/sso';

const config = loadConfig();
const ssoIndex = process.argv.indexOf('--sso-token');
const ssoUser = ssoIndex > 0 ? process.argv[ssoIndex + 1] : undefined;

const db = createDatabase(config);
try {
  await migrateToLatest(db);
  await seedDemoData(db);
  console.log(`Demo data ready in ${config.databaseUrl ? 'PostgreSQL' : config.dataDir}. Accounts (login name, password, org code):\n${formatDemoAccounts()}`);
  if (ssoUser) {
    const keys = await loadServerKeys(db);
    console.log(`\nSSO token for ${ssoUser} (valid 5 minutes; POST ${config.apiBase}/a/login ssotoken=...):\n${signSsoToken(keys.ssoSecret, ssoUser)}`);
  }
} finally {
  await db.destroy();
}
