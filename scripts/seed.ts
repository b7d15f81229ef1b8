/**
 * npm run seed [-- --equipment N] [--seed S]
 *
 * Seeds the configured database (DATABASE_URL, else the embedded PGlite under PORTAL_DATA_DIR):
 * the demo accounts, then
 *   - without --equipment: the demo records (equipment registry and applications in every state),
 *     unless the demo unit already has records;
 *   - with --equipment N: N more generated equipment rows for the demo unit, in bulk by COPY
 *     (benchmark volumes: `npm run seed -- --equipment 1000000` on PostgreSQL takes about 4 minutes on a loaded
 *     2-core machine, 1.5 min of it Node CPU; `npm run bench:seed` measures it).
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { hasDemoRecords, seedDemoRecords } from '../src/server/db/demo/index';
import { bulkEquipment } from '../src/server/domain/equipment/seed';
import { seedDemoData } from '../src/server/db/seed';

const { values } = parseArgs({ options: { equipment: { type: 'string' }, seed: { type: 'string' } } });
const count = values.equipment === undefined ? undefined : Number(values.equipment);
if (count !== undefined && !(Number.isInteger(count) && count > 0)) {
  console.error('--equipment takes a positive whole number');
  process.exit(2);
}
const seed = values.seed === undefined ? undefined : Number(values.seed);

const config = loadConfig();
// A million rows go through one COPY: no statement time limit for the seed.
const app = await buildApp({ ...config, staticDir: null, logLevel: 'warn', pgStatementTimeoutMs: 0 });
const started = performance.now();
try {
  await app.ready();
  await seedDemoData(app.db);
  if (count === undefined) {
    if (await hasDemoRecords(app)) console.log('The demo unit already has records; nothing to add.');
    else console.log('Seeded demo records:', await seedDemoRecords(app, { seed }));
  } else {
    let last = 0;
    await bulkEquipment(app, count, {
      seed,
      onProgress: (done) => {
        if (done - last >= 50_000 || done === count) {
          last = done;
          console.log(`  ${done.toLocaleString('en')} / ${count.toLocaleString('en')} equipment rows (${Math.round((performance.now() - started) / 1000)} s)`);
        }
      },
    });
    console.log(`Inserted ${count.toLocaleString('en')} equipment rows for the demo unit; running VACUUM ANALYZE.`);
    await sql`VACUUM ANALYZE`.execute(app.db);
  }
  console.log(`Done in ${Math.round((performance.now() - started) / 1000)} s (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}).`);
} finally {
  await app.close();
}
