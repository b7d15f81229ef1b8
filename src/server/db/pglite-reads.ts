/**
 * The reads of the embedded database as named prepared statements (PreparedReads), which the
 * driver in pglite.ts sends every plain SELECT through.
 */
import { parse as pgliteResults, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import { STALE_PLAN } from './pg-prepared';

/** Named statements kept prepared at most; the least recently used is closed beyond it. */
const PREPARED_LIMIT = 200;

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

/**
 * The reads of the embedded database as named prepared statements, each planned once.
 * PGlite's `query` parses and plans every statement anew: for a list page that was more than half
 * of the statement's 3 ms, planning included (it also asks the file system for the size of every
 * table and index the planner looks at, a system call each through PGlite's file layer). A named
 * statement is parsed once and PostgreSQL keeps its plan, re-planning by itself after a schema
 * change. The messages are those PGlite's own `query` sends (parse, describe, bind, execute,
 * sync), with a statement name; values are serialised by the parameter types the server
 * described, as `query` does.
 *
 * The gain is the plan kept: with `plan_cache_mode=force_custom_plan` (parse saved, plan made
 * every time) the list served no more than before. A kept (generic) plan does not see the values,
 * which on large skewed tables can choose worse: on PostgreSQL with 1,000,000 rows the filtered
 * list page ran at 0.77× the hand-written route with named statements against 1.37× with a plan per
 * request, so PostgreSQL's connections keep nothing prepared. The embedded database serves the small
 * data sets (README: when to move to PostgreSQL), where one plan fits every value.
 */
export class PreparedReads {
  readonly #statements = new Map<string, { name: string; types: readonly number[] }>();
  #named = 0;
  #ready = false;

  constructor(private readonly pg: PGlite) {}

  async query<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    // As PGlite's own query does: nothing may reach the protocol before the database is ready.
    if (!this.#ready) {
      await this.pg.waitReady;
      this.#ready = true;
    }
    try {
      return await this.#run<R>(text, params);
    } catch (err) {
      // A table a kept statement reads changed shape (`SELECT *` after a migration): prepare it anew, once.
      if ((err as { code?: unknown }).code !== STALE_PLAN) throw err;
      const stale = this.#statements.get(text);
      this.#statements.delete(text);
      if (stale) await this.pg.runExclusive(() => this.#close(stale.name));
      return this.#run<R>(text, params);
    }
  }

  #run<R>(text: string, params: readonly unknown[]): Promise<Results<R>> {
    return this.pg.runExclusive(async () => {
      const messages: BackendMessage[] = [];
      try {
        const { name, types } = this.#statements.get(text) ?? (await this.#prepare(text));
        // Most recently used last: the first entry is the one to close.
        this.#statements.delete(text);
        this.#statements.set(text, { name, types });
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const serialize = this.pg.serializers[types[i]];
          return serialize ? serialize(value) : String(value);
        });
        messages.push(...(await this.#send(protocol.serialize.bind({ statement: name, values }))));
        messages.push(...(await this.#send(protocol.serialize.describe({ type: 'P' }))));
        messages.push(...(await this.#send(protocol.serialize.execute({}))));
      } finally {
        messages.push(...(await this.#send(protocol.serialize.sync())));
      }
      return pgliteResults.parseResults(messages, this.pg.parsers)[0] as Results<R>;
    });
  }

  async #prepare(text: string): Promise<{ name: string; types: readonly number[] }> {
    if (this.#statements.size >= PREPARED_LIMIT) {
      const [oldest, { name }] = this.#statements.entries().next().value!;
      this.#statements.delete(oldest);
      await this.#close(name);
    }
    const name = `read_${++this.#named}`;
    await this.#send(protocol.serialize.parse({ name, text }));
    const described = await this.#send(protocol.serialize.describe({ type: 'S', name }));
    const parameters = described.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    return { name, types: parameters?.dataTypeIDs ?? [] };
  }

  async #close(name: string): Promise<void> {
    await this.#send(protocol.serialize.close({ type: 'S', name }));
    await this.#send(protocol.serialize.sync());
  }

  async #send(message: Uint8Array): Promise<BackendMessage[]> {
    return (await this.pg.execProtocol(message, { syncToFs: false })).messages;
  }
}
