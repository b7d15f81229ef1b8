/**
 * Reads on PostgreSQL as named prepared statements (issue 18), as on the embedded database
 * (pglite.ts PreparedReads): node-postgres parses a named statement once per connection and sends
 * only bind and execute after, so PostgreSQL plans a list page once per connection instead of on
 * every request. The name is a hash of the text, so one name never stands for two statements.
 */
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** A statement that only reads (the same test as the embedded driver's). */
const READ_ONLY = /^\s*select\s/i;
/** SQLSTATE of "cached plan must not change result type" (a table changed shape under a kept statement). */
const STALE_PLAN = '0A000';

const nameOf = (text: string) => `r_${createHash('sha1').update(text).digest('hex')}`;

/** What node-postgres keeps of the statements a connection has parsed (no public API forgets one). */
type Parsed = { connection?: { parsedStatements?: Record<string, string> } };

async function readNamed(client: pg.PoolClient, text: string, values: unknown[]): Promise<pg.QueryResult> {
  const name = nameOf(text);
  try {
    return await client.query({ name, text, values });
  } catch (err) {
    if ((err as { code?: unknown }).code !== STALE_PLAN) throw err;
    // Forget the statement on both sides, then parse it anew (once).
    delete (client as unknown as Parsed).connection?.parsedStatements?.[name];
    await client.query(`DEALLOCATE "${name}"`).catch(() => undefined);
    return client.query({ name, text, values });
  }
}

/** A Kysely pool over `pool` whose clients run SELECTs as named statements; everything else passes through. */
export function namedReadsPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query: ((text: unknown, values?: unknown[]) =>
          typeof text === 'string' && READ_ONLY.test(text) ? readNamed(client, text, values ?? []) : client.query(text as string, values)) as unknown as PostgresPoolClient['query'],
        release: (...args: unknown[]) => client.release(...(args as [])),
      };
    },
    end: () => pool.end(),
  };
}
