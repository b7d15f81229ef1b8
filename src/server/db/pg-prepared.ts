/**
 * Kept plans on PostgreSQL for the statements that ask for one. A statement whose text
 * starts with KEEP_PLAN runs as a named prepared statement: node-postgres parses it once per
 * connection and sends only bind and execute after, and PostgreSQL (plan_cache_mode auto) may keep
 * one plan for it instead of planning every request. Every other statement is planned per request.
 *
 * Only statements whose best plan does not depend on their values may ask: a list page with
 * nothing but an equality on the owner column (records.ts listCriteria `planStable`), the session
 * epoch. A kept plan for every read was tried: the filtered list over 1,000,000 rows fell to 0.77x
 * the hand-written route (a generic plan does not see the filter values) against 1.37x planned per
 * request; planning is also ~40 % of the database's time for the light first page (1.7 of 4.6 ms).
 * The name is a hash of the text, so one name never stands for two statements.
 */
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** The prefix of a statement that asks for a kept plan (a comment: harmless to any database). */
export const KEEP_PLAN = '/* keep plan */ ';

/** A statement that only reads: SELECT first, after KEEP_PLAN when there is one (pglite.ts counts every other statement as a change). */
export const READ_ONLY = new RegExp(`^\\s*(?:${KEEP_PLAN.trim().replace(/[*/]/g, '\\$&')}\\s*)?select\\s`, 'i');

/** SQLSTATE of "cached plan must not change result type" (a table changed shape under a kept statement). */
export const STALE_PLAN = '0A000';

/** Statement names by text: the kept statements are few (a list shape per resource), hashing each once. */
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    if (names.size >= 1000) names.clear();
    name = `k_${createHash('sha1').update(text).digest('hex')}`;
    names.set(text, name);
  }
  return name;
}

/** What node-postgres keeps of the statements a connection has parsed (no public API forgets one). */
type Parsed = { connection?: { parsedStatements?: Record<string, string> } };

async function runNamed(client: pg.PoolClient, text: string, values: unknown[]): Promise<pg.QueryResult> {
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

/** A Kysely pool over `pool` whose clients run KEEP_PLAN statements as named statements. */
export function keptPlansPool(pool: pg.Pool): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      return {
        query: ((text: unknown, values?: unknown[]) =>
          typeof text === 'string' && text.startsWith(KEEP_PLAN)
            ? runNamed(client, text, values ?? [])
            : client.query(text as string, values)) as unknown as PostgresPoolClient['query'],
        release: (...args: unknown[]) => client.release(...(args as [])),
      };
    },
    end: () => pool.end(),
  };
}
