/**
 * `npm start` / `npm run serve`: the API plus the built front end (dist/) on http://HOST:PORT,
 * seeding the demo data into an empty database.
 */
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { loadConfig } from './config';
import { seedDemoRecords } from './db/demo/index';
import { formatDemoAccounts, isEmpty, seedDemoData } from './db/seed';

const config = loadConfig();
const staticDir = config.staticDir ?? fileURLToPath(new URL('../../dist', import.meta.url));
const app = await buildApp({ ...config, staticDir });

try {
  await app.ready();
  if (await isEmpty(app.db)) {
    await seedDemoData(app.db);
    const records = await seedDemoRecords(app);
    console.log(`Seeded demo data (${Object.entries(records).map(([k, n]) => `${n} ${k}`).join(', ')}). Demo accounts (login name, password, org code):\n${formatDemoAccounts()}`);
  }
  await app.listen({ port: config.port, host: config.host });
  console.log(`Portal ready: http://${config.host}:${config.port}  (API ${config.apiBase}, docs /docs)`);
} catch (err) {
  app.log.error(err);
  console.error(`Failed to start: ${(err as Error).message}`);
  await app.close().catch(() => undefined);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
