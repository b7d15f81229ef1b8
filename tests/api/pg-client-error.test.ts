/**
 * A PostgreSQL connection that the database ends while the server holds it between two
 * statements (a restart, an administrator's kill) must not end the server's process: the held
 * statement's next use fails, and the pool goes on with new connections.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/server/db/index';
import { queryRows } from '../support/postgres';
import { freshPostgresDatabase } from './helpers';

describe.runIf(process.env.DATABASE_URL)('a held PostgreSQL connection ended by the database', () => {
  it('fails its next statement and leaves the pool working', async () => {
    const database = await freshPostgresDatabase(false);
    const db = await createDatabase({ databaseUrl: database.url, dataDir: 'memory://', cacheDir: null });
    try {
      const uncaught: unknown[] = [];
      const hear = (err: unknown) => uncaught.push(err);
      process.on('uncaughtException', hear);
      try {
        await expect(
          db.connection().execute(async (held) => {
            const { rows } = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(held);
            await queryRows(database.url, 'SELECT pg_terminate_backend($1)', [rows[0].pid]);
            // The client hears the termination while it is checked out and idle.
            await new Promise((r) => setTimeout(r, 500));
            await sql`SELECT 1`.execute(held);
          }),
        ).rejects.toThrow();
      } finally {
        process.off('uncaughtException', hear);
      }
      expect(uncaught).toEqual([]);
      const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(db);
      expect(rows[0].one).toBe(1);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
