/**
 * Upgrade from the previous release's database: tests/fixtures/upgrade/0.1.0-postgres.sql.gz is a
 * `pg_dump --no-owner` (plain SQL) of a PostgreSQL database the released code (commit f2c2343,
 * version 0.1.0) created and seeded with its demo data on first start. Loaded into a fresh
 * database, the current server starts on it (PORTAL_DEMO=off: nothing is seeded, the data must
 * be the dump's), applies the newer migrations, keeps every row, and the demo accounts log in.
 * Runs when DATABASE_URL is set (psql loads the dump).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../src/server/db/seed';
import { migrations } from '../../src/server/db/migrations/index';
import { startServer } from '../support/server';
import { freshPostgresDatabase, logInOver } from './helpers';

const DUMP = new URL('../fixtures/upgrade/0.1.0-postgres.sql.gz', import.meta.url);

/** The dump's SQL; `\restrict` / `\unrestrict` (pg_dump 15.14+) dropped so that an older psql reads it too. */
const dumpSql = (): string =>
  gunzipSync(readFileSync(DUMP))
    .toString('utf8')
    .split('\n')
    .filter((line) => !/^\\(un)?restrict\b/.test(line))
    .join('\n');

/** Rows per table in the dump: the lines of each `COPY public.<table> … FROM stdin;` block. */
function dumpCounts(text: string): Record<string, number> {
  const counts: Record<string, number> = {};
  let table: string | null = null;
  for (const line of text.split('\n')) {
    if (table !== null) {
      if (line === '\\.') table = null;
      else counts[table]++;
      continue;
    }
    const copy = /^COPY public\.(\w+) .* FROM stdin;$/.exec(line);
    if (copy) {
      table = copy[1];
      counts[table] = 0;
    }
  }
  return counts;
}

function psql(url: string, input: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '--dbname', url], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += String(c)));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`psql exited ${code}: ${stderr}`))));
    child.stdin.end(input);
  });
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

describe.skipIf(!process.env.DATABASE_URL)('upgrade from release 0.1.0 (PostgreSQL)', () => {
  it('migrates the released database forward on start, keeps every row, and the demo accounts log in', { timeout: 600_000 }, async () => {
    const text = dumpSql();
    const expected = dumpCounts(text);
    expect(expected.equipment).toBeGreaterThan(100);
    expect(expected.sys_user).toBeGreaterThan(0);
    const database = await freshPostgresDatabase();
    try {
      await psql(database.url, text);
      const before = (await query<{ name: string }>(database.url, 'select name from kysely_migration')).map((r) => r.name);
      expect(before.length).toBeGreaterThan(10);
      expect(before.filter((m) => !(m in migrations))).toEqual([]);

      const server = await startServer({ env: { DATABASE_URL: database.url, PORTAL_DEMO: 'off' } });
      try {
        expect(server.output()).not.toContain('Seeded demo data');
        // Every migration of this code is applied now.
        const after = (await query<{ name: string }>(database.url, 'select name from kysely_migration order by name')).map((r) => r.name);
        expect(after).toEqual(Object.keys(migrations).sort());

        // The rows of every table of the dump are all there (nothing reseeded, nothing lost).
        const counts: Record<string, number> = {};
        for (const table of Object.keys(expected)) {
          counts[table] = Number((await query<{ n: string }>(database.url, `select count(*) as n from public."${table}"`))[0].n);
        }
        // sys_config gains the keys a newer start makes (the audit chain's key); none of the old goes.
        const { kysely_migration: _m, sys_config: configBefore, ...kept } = expected;
        const { kysely_migration: _n, sys_config: configAfter, ...now } = counts;
        expect(now).toEqual(kept);
        expect(configAfter).toBeGreaterThanOrEqual(configBefore);

        // The release's demo accounts (a later release may add some: PORTAL_DEMO is off, nothing is added here).
        const released = new Set((await query<{ login_name: string }>(database.url, 'select login_name from sys_user')).map((r) => r.login_name));
        expect(released.has('nbadmin')).toBe(true);
        for (const account of DEMO_ACCOUNTS.filter((a) => released.has(a.loginName))) {
          const { reply } = await logInOver(server.baseURL, account.loginName);
          expect({ account: account.loginName, result: reply.result, message: reply.result === 'true' ? '' : reply.message }).toEqual({
            account: account.loginName,
            result: 'true',
            message: '',
          });
        }
      } finally {
        await server.stop();
      }
    } finally {
      await database.drop();
    }
  });
});
