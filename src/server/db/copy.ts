/**
 * Bulk loading through `COPY <table> (<columns>) FROM` in the text format: no bind parameters and
 * one statement for many rows, far faster than multi-row INSERTs.
 *
 * - PostgreSQL: the rows stream over `COPY ... FROM STDIN` on a connection of the pool, while they
 *   are being produced (pg-copy-streams: node-postgres has no COPY API of its own). One statement:
 *   all rows or none.
 * - PGlite has no STDIN: the rows go as a Blob read from `/dev/blob`, one COPY of `PGLITE_CHUNK_ROWS`
 *   rows at a time (a chunk is committed when its COPY ends), each run on the driver's one connection.
 *
 * The raw handle under a Kysely instance is registered by createDatabase (registerCopyTarget).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { quote } from '../resources/naming';

/** Rows per COPY on PGlite: a Blob of about 10 MB for rows of a few hundred bytes. */
export const PGLITE_CHUNK_ROWS = 20_000;
/** Characters gathered before a write to the COPY stream. */
const STREAM_CHUNK_CHARS = 256 * 1024;

export type CopyTarget = { kind: 'pg'; pool: pg.Pool } | { kind: 'pglite'; pg: PGlite };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's query layer
type AnyKysely = Kysely<any>;

const targets = new WeakMap<AnyKysely, CopyTarget>();

/** Records the connection pool or PGlite instance behind `db` (done by createDatabase). */
export function registerCopyTarget(db: AnyKysely, target: CopyTarget): void {
  targets.set(db, target);
}

/**
 * Whether the database behind `db` runs in a process of its own (PostgreSQL), so it works on a row
 * beside this process preparing the next, rather than on this process's thread (PGlite).
 */
export function databaseRunsBeside(db: AnyKysely): boolean {
  return targets.get(db)?.kind === 'pg';
}

/** Escapes a text-format field: backslash, and the row and field separators. */
const escapeText = (text: string): string =>
  /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!) : text;

/** An array as a PostgreSQL array literal (`{"a","b",NULL}`). */
const arrayLiteral = (items: readonly unknown[]): string =>
  `{${items.map((v) => (v === null || v === undefined ? 'NULL' : `"${(Array.isArray(v) ? arrayLiteral(v) : plain(v)).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`;

function plain(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * One field of a COPY row: `\N` for null; a JSON value (column named in `json`) as its JSON text,
 * another array as an array literal, a date as its ISO instant, a boolean as t/f.
 */
export function copyField(value: unknown, json = false): string {
  if (typeof value === 'string' && !json) return escapeText(value);
  if (value === null || value === undefined) return '\\N';
  if (json) return escapeText(JSON.stringify(value));
  return escapeText(Array.isArray(value) ? arrayLiteral(value) : plain(value));
}

/** One row as a line of the text format (a loop, not map and join: a bulk load writes ~60 million fields). */
export function copyLine(row: readonly unknown[], json: readonly boolean[]): string {
  let line = row.length ? copyField(row[0], json[0]) : '';
  for (let i = 1; i < row.length; i++) line += `\t${copyField(row[i], json[i])}`;
  return `${line}\n`;
}

export interface CopyOptions {
  /** Columns holding JSON (jsonb): their values are written as JSON text, arrays included. */
  jsonColumns?: ReadonlySet<string>;
  /** Rows per COPY on PGlite (default PGLITE_CHUNK_ROWS). */
  chunkRows?: number;
}

/** Rows handed over a batch at a time: one turn of an async iterator per batch, not per row (a tenth of a bulk load's CPU went to those turns). */
export type RowBatches = AsyncIterable<readonly (readonly unknown[])[]> | Iterable<readonly (readonly unknown[])[]>;

/** Batches of rows' text lines, each about `size` rows (PGlite) or characters (stream). */
async function* linesOf(
  batches: RowBatches,
  json: readonly boolean[],
  rowsPerChunk: number,
  charsPerChunk: number,
): AsyncGenerator<{ text: string; rows: number }> {
  let parts: string[] = [];
  let chars = 0;
  for await (const batch of batches) {
    for (const row of batch) {
      const line = copyLine(row, json);
      parts.push(line);
      chars += line.length;
      if (parts.length >= rowsPerChunk || chars >= charsPerChunk) {
        yield { text: parts.join(''), rows: parts.length };
        parts = [];
        chars = 0;
      }
    }
  }
  if (parts.length) yield { text: parts.join(''), rows: parts.length };
}

/**
 * Copies the rows of `batches` (values in the order of `columns`) into `table`; returns the number
 * of rows. The batches may query the database while they are produced (never inside a PGlite COPY).
 */
export async function copyRows(db: AnyKysely, table: string, columns: readonly string[], batches: RowBatches, options: CopyOptions = {}): Promise<number> {
  const target = targets.get(db);
  if (!target) throw new Error('copyRows: this query layer was not opened by createDatabase (no COPY target)');
  const json = columns.map((c) => options.jsonColumns?.has(c) ?? false);
  const statement = `COPY ${quote(table)} (${columns.map(quote).join(', ')}) FROM`;
  let count = 0;
  if (target.kind === 'pglite') {
    for await (const chunk of linesOf(batches, json, options.chunkRows ?? PGLITE_CHUNK_ROWS, Infinity)) {
      const blob = new Blob([chunk.text]);
      // On the driver's connection, so no other query of this process runs inside the COPY.
      await db.connection().execute(() => target.pg.query(`${statement} '/dev/blob'`, [], { blob }));
      count += chunk.rows;
    }
    return count;
  }
  // Loaded here: only bulk loads need it, never the server's start.
  const { from: copyFrom } = await import('pg-copy-streams');
  const client = await target.pool.connect();
  let failure: unknown;
  try {
    const source = Readable.from(
      (async function* () {
        for await (const chunk of linesOf(batches, json, Infinity, STREAM_CHUNK_CHARS)) {
          count += chunk.rows;
          yield chunk.text;
        }
      })(),
    );
    await pipeline(source, client.query(copyFrom(`${statement} STDIN`)));
    return count;
  } catch (err) {
    failure = err;
    throw err;
  } finally {
    // A connection whose COPY failed half-way is not given back to the pool.
    client.release(failure instanceof Error ? failure : undefined);
  }
}
