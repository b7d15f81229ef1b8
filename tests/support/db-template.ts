/**
 * The API tests' starting database, prepared once per machine and day instead of once per suite.
 *
 * Every suite starts from the same state: the migrated database, the resource tables and the demo
 * units and accounts (seedDemoData). Writing it takes most of a suite's set-up: the tables' DDL,
 * then the password hashing of every demo account; on a loaded two-core machine 15–30 s per app,
 * and the API tests build about two hundred apps a run. So it is written once:
 * - the embedded database keeps it as a PGlite template (db/pglite-template.ts: a tarball in the
 *   cache, built by one process while the others wait), which every `memory://` app loads;
 * - PostgreSQL keeps it as a template database, `CREATE DATABASE … TEMPLATE` copying it per suite.
 * Both are keyed by the day and a hash of the code and schemas that write them (the demo
 * template's key), so a change to either is never tested against an old copy.
 *
 * A suite whose options change what the database holds at start (another schema directory, an
 * at-rest key, another crypto mode, its own data directory or database) is not given a template.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { BuildOptions } from '../../src/server/app';
import { SERVER_HOOKS, TABLES_READY } from '../../src/server/domain/index';
import { migrateToLatest, MIGRATED, type Db } from '../../src/server/db/index';
import { demoSourceHash } from '../../src/server/db/demo/template';
import { PgliteDialect } from '../../src/server/db/pglite';
import type { TemplateRecipe } from '../../src/server/db/pglite-template';
import { seedDemoData } from '../../src/server/db/seed';
import { DEFAULT_SCHEMA_DIR, loadCatalog } from '../../src/server/resources/catalog';
import { compileResources } from '../../src/server/resources/compile';
import { syncTables } from '../../src/server/resources/ddl';
import { todayIn } from '../../src/shared/dates';

/** Options under which an app may start from the template: none that changes the database at start. */
const CHANGES_THE_DATABASE = ['schemaDir', 'dataDir', 'databaseUrl', 'template', 'masterKey', 'crypto'] as const;

export function templateFits(overrides: BuildOptions): boolean {
  return CHANGES_THE_DATABASE.every((key) => overrides[key] === undefined);
}

let key: string | undefined;
/** The day and the hash of what writes the state (computed once per process: reading the trees takes ~100 ms). */
function stateKey(): string {
  key ??= `api-tests\n${todayIn()}\n${demoSourceHash()}`;
  return key;
}

/** Writes the suites' starting state into a migrated database: the resource tables, then the demo units and accounts. */
async function writeState(db: Db): Promise<void> {
  const { all } = compileResources(loadCatalog(DEFAULT_SCHEMA_DIR), SERVER_HOOKS);
  // As the resource engine does at start: system tables are their migrations', then the features' views over the tables.
  await syncTables(
    db,
    all.map((r) => r.model).filter((m) => !m.systemTable),
  );
  for (const ready of TABLES_READY) await ready(db);
  await seedDemoData(db);
}

/** The embedded template: the migrated cluster with the state written. */
export const API_TEST_TEMPLATE: TemplateRecipe = {
  get key() {
    return stateKey();
  },
  base: MIGRATED,
  prepare: async (pglite) => {
    const db = new Kysely<never>({ dialect: new PgliteDialect(pglite, { keepOpen: true }) }) as unknown as Db;
    try {
      await writeState(db);
    } finally {
      await db.destroy();
    }
  },
};

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

const day = (): string => todayIn().replaceAll('-', '');
const templateName = (): string => `portal_tpl_${day()}_${createHash('sha256').update(stateKey()).digest('hex').slice(0, 12)}`;

let ready: Promise<string> | undefined;
/**
 * The PostgreSQL template database of this key, written when missing. Processes that ask at once
 * agree through an advisory lock: one writes it (under another name, renamed when complete, so a
 * killed writer leaves no half-written template), the others wait and find it. All but the newest
 * few earlier templates are dropped then.
 */
function postgresTemplate(): Promise<string> {
  ready ??= withAdmin(async (admin) => {
    const name = templateName();
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', ['portal api test template']);
    try {
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (exists.rowCount) return name;
      // Each change to the code or schemas makes another template: keep the newest few (another
      // checkout may be testing with one), drop the rest unless in use.
      const older = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'portal\\_tpl\\_%' ORDER BY oid DESC OFFSET 3");
      for (const { datname } of older.rows) {
        await admin.query(`ALTER DATABASE ${datname} IS_TEMPLATE false`).catch(() => undefined);
        await admin.query(`DROP DATABASE IF EXISTS ${datname}`).catch(() => undefined);
      }
      const building = `${name}_w`;
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const pool = new pg.Pool({ connectionString: databaseUrl(building), max: 1 });
      const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }) }) as unknown as Db;
      try {
        await migrateToLatest(db);
        await writeState(db);
      } finally {
        await db.destroy();
      }
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${name} IS_TEMPLATE true`);
      return name;
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', ['portal api test template']);
    }
  });
  // A failure is not kept: the next suite tries again.
  ready.catch(() => (ready = undefined));
  return ready;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A throw-away PostgreSQL database next to DATABASE_URL's, empty or copied from the template; its
 * URL and a drop function. A copy waits out another session that briefly holds the template
 * (PostgreSQL refuses to copy a database anyone is connected to).
 */
export async function freshPostgresDatabase(fromTemplate = false): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `portal_t_${randomBytes(6).toString('hex')}`;
  const template = fromTemplate ? await postgresTemplate() : null;
  await withAdmin(async (admin) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
        await sleep(250 * attempt);
      }
    }
  });
  return {
    url: databaseUrl(name),
    drop: () => withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
