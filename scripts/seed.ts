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
import { parseCommandLine } from '../src/server/command-line.mjs';

const { values } = parseCommandLine({
  name: 'npm run seed',
  summary: [
    'Seeds the configured database (DATABASE_URL, else the embedded PGlite in PORTAL_DATA_DIR) with the demo accounts, then the demo records (equipment registry and applications in every state) unless the demo unit already has records.',
    'With --equipment N it adds N generated equipment rows for the demo unit instead, in bulk by COPY (benchmark volumes).',
  ],
  options: {
    equipment: { type: 'string', value: 'N', number: 'positive', description: 'add N generated equipment rows for the demo unit' },
    seed: { type: 'string', value: 'S', number: 'int', description: 'random seed of the generated data (the same seed gives the same rows)' },
  },
  env: [
    ['DATABASE_URL', 'PostgreSQL to seed; unset: the embedded database'],
    ['PORTAL_DATA_DIR', 'the embedded database\'s directory (default ./data)'],
  ],
  examples: ['npm run seed', 'npm run seed -- --equipment 1000000 --seed 7'],
});
const count = values.equipment === undefined ? undefined : Number(values.equipment);
const seed = values.seed === undefined ? undefined : Number(values.seed);

// The server's modules load once the command line is understood: `--help` and a wrong option answer at once.
const [{ sql }, { buildApp }, { loadConfig }, { hasDemoRecords, seedDemoRecords }, { bulkEquipment }, { seedDemoData }] = await Promise.all([
  import('kysely'),
  import('../src/server/app'),
  import('../src/server/config'),
  import('../src/server/db/demo/index'),
  import('../src/server/domain/equipment/seed'),
  import('../src/server/db/seed'),
]);
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
