/**
 * Fixed-window request counters in `sys_rate_counter`, so every server process behind a balancer
 * counts against the same limit. One upsert per counted request: the window restarts when it has
 * expired, otherwise the count goes up; the row returns the count and when the window ends.
 *
 * `RateLimitStore(db)` plugs the same counters into @fastify/rate-limit (its custom-store contract:
 * `incr(key, cb, timeWindow, max)` and `child(routeOptions)`), so route limits are shared as well.
 */
import { sql } from 'kysely';
import type { Db } from '../db/index';

export interface Hit {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/** The longest window any limit uses (the daily text-message limit, services/sms.ts); counters older than this are pruned. */
export const LONGEST_WINDOW_MS = 24 * 60 * 60_000;

/** Keys are bounded: a long login name cannot grow a row or the primary-key index without limit. */
const KEY_LENGTH = 300;

/** Counts one request under `key` in a window of `windowMs`. */
export async function countHit(db: Db, key: string, windowMs: number, now = new Date()): Promise<Hit> {
  const cutoff = new Date(now.getTime() - windowMs);
  const expired = sql<boolean>`sys_rate_counter.window_start <= ${cutoff}`;
  const row = await db
    .insertInto('sys_rate_counter')
    .values({ key: key.slice(0, KEY_LENGTH), window_start: now, count: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${expired} then 1 else sys_rate_counter.count + 1 end`,
        window_start: sql<Date>`case when ${expired} then ${now}::timestamptz else sys_rate_counter.window_start end`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { count: row.count, ttl: Math.max(0, new Date(row.window_start).getTime() + windowMs - now.getTime()) };
}

/** Deletes counters whose window ended long ago (the housekeeping job). */
export async function pruneRateCounters(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('sys_rate_counter')
    .where('window_start', '<', new Date(now.getTime() - LONGEST_WINDOW_MS))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

interface StoreOptions {
  groupId?: string;
  routeInfo?: { method?: string | string[]; url?: string };
}

type StoreCallback = (err: Error | null, res?: { current: number; ttl: number }) => void;

/** A @fastify/rate-limit store over `sys_rate_counter`; each route (or `groupId`) counts apart. */
export function RateLimitStore(db: Db) {
  return class DbRateLimitStore {
    private readonly scope: string;

    constructor(options: object = {}) {
      const { groupId, routeInfo: route } = options as StoreOptions;
      this.scope = groupId ?? (route?.url ? `${String(route.method)} ${route.url}` : 'global');
    }

    incr(key: string, cb: StoreCallback, timeWindow: number): void {
      countHit(db, `rl:${this.scope}:${key}`, timeWindow).then(
        (hit) => cb(null, { current: hit.count, ttl: hit.ttl }),
        (err: Error) => cb(err),
      );
    }

    child(routeOptions: object): DbRateLimitStore {
      return new DbRateLimitStore(routeOptions);
    }
  };
}
