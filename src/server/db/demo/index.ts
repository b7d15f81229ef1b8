/**
 * Demo records for `npm start` on an empty database and `npm run seed`: each domain feature's seed
 * (DomainFeature.seed, in the order of src/server/domain/index.ts) writes its records through the
 * resource engine as the demo users, so server hooks run as they do for people: due dates are
 * derived, approvals issue certificate numbers, approved changes reach the equipment.
 */
import { sql } from 'kysely';
import { FEATURES } from '../../domain/index';
import type { DomainFeature } from '../../domain/feature';
import { refreshOverdueMonths } from '../../domain/equipment/overdue-months';
import type { AnyDb } from '../../resources/repository';
import { sealAccountColumns } from '../../resources/sealed-fields';
import { inTransaction, type Db } from '../index';
import { DEMO_UNITS, isEmpty, seedDemoData } from '../seed';
import { demoContext, type DemoOptions, type SeedTarget } from './context';

export type { DemoOptions, SeedTarget } from './context';

export interface DemoRecordOptions extends DemoOptions {
  /** A transaction to write in (default: a new one on app.db). */
  db?: AnyDb;
  /** The features whose seeds run (default: all). */
  features?: readonly DomainFeature[];
}

/** Whether the demo using unit already has records in any of its unit-scoped resources (the records are seeded once). */
export async function hasDemoRecords(app: SeedTarget): Promise<boolean> {
  for (const { model } of app.resources.values()) {
    if (model.ownerColumn !== 'unit_id') continue;
    const { rows } = await sql<{
      found: boolean;
    }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(model.table)} WHERE unit_id = ${DEMO_UNITS.using.id}) AS found`.execute(app.db as AnyDb);
    if (rows[0].found) return true;
  }
  return false;
}

/** The demo accounts (seed.ts) and records, in one transaction: what an empty database gets. */
export function seedDemo(app: SeedTarget, options: Omit<DemoRecordOptions, 'db'> = {}): Promise<Record<string, number>> {
  return inTransaction(app.db as AnyDb, async (trx) => {
    await seedDemoData(trx as never);
    // sm mode: the accounts' mobiles and ID cards are sealed like those the start converted (the resource models carry the cipher).
    const cipher = [...app.resources.values()].find((r) => r.model.cipher)?.model.cipher;
    if (cipher) await sealAccountColumns(trx, cipher);
    return seedDemoRecords(app, { ...options, db: trx });
  });
}

/**
 * Runs the features' demo seeds in one transaction (all or nothing, and one commit instead of a
 * thousand); returns counts by kind.
 */
export function seedDemoRecords(app: SeedTarget, options: DemoRecordOptions = {}): Promise<Record<string, number>> {
  return inTransaction(options.db ?? (app.db as AnyDb), async (trx) => {
    const demo = await demoContext(app, trx, options);
    const counts: Record<string, number> = {};
    for (const feature of options.features ?? FEATURES) if (feature.seed) Object.assign(counts, await feature.seed(demo));
    await spreadFinishedHistory(trx, app);
    // The kept monthly overdue figures: this month's and an estimate of the eleven before, from the records just written.
    await refreshOverdueMonths(trx);
    return counts;
  });
}

/**
 * `seedDemo` when the database has no account yet, however many processes start together on it:
 * the check and the seeding run in one transaction holding an advisory lock, so one process writes
 * the demo and the others, once it committed, find accounts and write nothing (concurrent seeds
 * collided on unique values and failed the start). A process finding the lock taken retries every
 * second rather than wait in one statement, which PORTAL_PG_STATEMENT_TIMEOUT_MS would cancel
 * during a long seed. Resolves with the counts by kind, or null when the database had accounts.
 */
export async function seedDemoOnce(app: SeedTarget, options: Omit<DemoRecordOptions, 'db'> = {}): Promise<Record<string, number> | null> {
  for (let attempt = 0; ; attempt++) {
    const outcome = await inTransaction(app.db as AnyDb, async (trx) => {
      const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext('portal:demo-seed')) AS locked`.execute(trx);
      if (!rows[0].locked) return 'busy' as const;
      if (!(await isEmpty(trx as Db))) return null;
      options.progress?.('空数据库：写入演示账号与演示数据（一个事务）…');
      return seedDemo({ db: trx, resources: app.resources }, options);
    });
    if (outcome !== 'busy') return outcome;
    if (attempt === 0) options.progress?.('另一个进程正在写入演示数据：等它完成…');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * The demo's finished applications as history. The seeds move each record through its workflow in
 * one instant; a record that reached a final state (other than by cancel) gets its flow log spread
 * back over the past year — its last step 15 to 315 days ago, each earlier step a few days before
 * the next, at a pace of its own workflow (1 to 9 days a step) varied per record (0.5 to 2.5 times),
 * so the officer's 办理时效 tells the desks apart — and its created and updated times with it.
 * Records still under way keep today's times: they are waiting now; so do records a seed dated
 * itself (created more than an hour before the seed's transaction began). The spread follows the
 * ids, so the same demo spreads the same way.
 */
async function spreadFinishedHistory(db: AnyDb, app: SeedTarget): Promise<void> {
  for (const { model } of app.resources.values()) {
    const finals = (model.workflow?.finals ?? []).filter((state) => state !== 'cancelled');
    if (finals.length === 0) continue;
    const table = sql.table(model.table);
    const { rows } = await sql<{ n: number }>`
      WITH finished AS (
        SELECT DISTINCT l.record_id FROM sys_flow_log l JOIN ${table} t ON t.id = l.record_id
        WHERE l.resource = ${model.name} AND l.to_state IN (${sql.join(finals)}) AND l.action <> 'cancel' AND t.created_at > now() - interval '1 hour'
      ), steps AS (
        SELECT l.id,
          count(*) OVER (PARTITION BY l.record_id) - row_number() OVER (PARTITION BY l.record_id ORDER BY l.created_at, l.id) AS before_last,
          abs(('x' || substr(l.record_id, 1, 8))::bit(32)::int) AS h
        FROM sys_flow_log l JOIN finished f ON f.record_id = l.record_id
        WHERE l.resource = ${model.name}
      )
      UPDATE sys_flow_log l
      SET created_at = now()
        - make_interval(days => 15 + s.h % 301, mins => s.h % 600)
        - s.before_last * make_interval(hours => (1 + abs(hashtext(${model.name})) % 9) * (12 + s.h % 49))
      FROM steps s WHERE l.id = s.id
      RETURNING 1 AS n`.execute(db);
    if (rows.length === 0) continue;
    await sql`
      UPDATE ${table} AS t SET created_at = span.first - interval '2 hours', updated_at = span.last
      FROM (SELECT record_id, min(created_at) AS first, max(created_at) AS last FROM sys_flow_log WHERE resource = ${model.name} GROUP BY record_id) AS span
      WHERE span.record_id = t.id AND span.last < now() - interval '14 days'`.execute(db);
  }
}
