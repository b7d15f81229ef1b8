/** Reads a PostgreSQL database from a test through a client of its own (the servers under test hold theirs). */
import pg from 'pg';

/** The rows `text` (with `$1`… `values`) returns, on a connection opened and closed for it. */
export async function queryRows<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
