/**
 * npm run seed [-- --equipment N] [--seed S]
 *
 * Seeds the configured database (DATABASE_URL, else the embedded PGlite under PORTAL_DATA_DIR):
 * the demo accounts, then
 *   - without --equipment: the demo records (equipment registry and applications in every state),
 *     unless the demo unit already has records;
 *   - with --equipment N: N more generated equipment rows for the demo unit, in bulk by COPY
 *     (benchmark volumes: `npm run seed -- --equipment 1000000` on PostgreSQL takes about 4 minutes on a loaded
 *     2-core machine, 1.5 min of it Node CPU; `npm run bench:seed` measures it);
 *   - with --units U as well: a generated city instead (domain/equipment/bulk-city.ts): U using units
 *     over Ningbo's ten districts (valid credit codes, names, profiles) and the N rows spread over
 *     them, each in its unit's district (`npm run seed -- --units 10000 --equipment 1000000`,
 *     what `npm run bench:area` measures the area-wide screens over).
 */
import { parseCommandLine } from '../src/server/command-line.mjs';

const { values } = parseCommandLine({
  name: 'npm run seed',
  summary: [
    'Seeds the configured database (DATABASE_URL, else the embedded PGlite in PORTAL_DATA_DIR) with the demo accounts, then the demo records (equipment registry and applications in every state) unless the demo unit already has records.',
    'With --equipment N it adds N generated equipment rows for the demo unit instead, in bulk by COPY (benchmark volumes).',
    "With --units U as well it generates a city: U using units spread over Ningbo's districts (credit codes, names, profiles), and the N rows spread over them, each in its unit's district.",
  ],
  options: {
    equipment: { type: 'string', value: 'N', number: 'positive', description: 'add N generated equipment rows for the demo unit' },
    units: {
      type: 'string',
      value: 'U',
      number: 'positive',
      description: "with --equipment: generate U using units over the city's districts and spread the rows over them",
    },
    seed: { type: 'string', value: 'S', number: 'int', description: 'random seed of the generated data (the same seed gives the same rows)' },
  },
  env: [
    ['DATABASE_URL', 'PostgreSQL to seed; unset: the embedded database'],
    ['PORTAL_DATA_DIR', "the embedded database's directory (default ./data)"],
  ],
  examples: ['npm run seed', 'npm run seed -- --equipment 1000000 --seed 7', 'npm run seed -- --units 10000 --equipment 1000000'],
});
const count = values.equipment === undefined ? undefined : Number(values.equipment);
const units = values.units === undefined ? undefined : Number(values.units);
if (units !== undefined && count === undefined) {
  console.error('npm run seed: --units needs --equipment N (the rows to spread over the units)');
  process.exit(2);
}
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
      units,
      onUnits: (added) =>
        console.log(`  ${added.toLocaleString('en')} new using units of ${units!.toLocaleString('en')} over the city's districts, with their profiles`),
      onProgress: (done) => {
        if (done - last >= 50_000 || done === count) {
          last = done;
          console.log(`  ${done.toLocaleString('en')} / ${count.toLocaleString('en')} equipment rows (${Math.round((performance.now() - started) / 1000)} s)`);
        }
      },
    });
    console.log(
      `Inserted ${count.toLocaleString('en')} equipment rows ${units === undefined ? 'for the demo unit' : `spread over ${units.toLocaleString('en')} units`}; running VACUUM ANALYZE.`,
    );
    await sql`VACUUM ANALYZE`.execute(app.db);
  }
  console.log(`Done in ${Math.round((performance.now() - started) / 1000)} s (${config.databaseUrl ? 'PostgreSQL' : `PGlite in ${config.dataDir}`}).`);
} finally {
  await app.close();
}
