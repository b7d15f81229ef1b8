/**
 * Demo records for `npm start` on an empty database and `npm run seed`: each domain feature's seed
 * (DomainFeature.seed, in the order of src/server/domain/index.ts) writes its records through the
 * resource engine as the demo users, so server hooks run as they do for people: due dates are
 * derived, approvals issue certificate numbers, approved changes reach the equipment.
 */
import { sql } from 'kysely';
import { FEATURES } from '../../domain/index';
import type { DomainFeature } from '../../domain/feature';
import type { AnyDb } from '../../resources/repository';
import { sealAccountColumns } from '../../resources/sealed-fields';
import { inTransaction } from '../index';
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
    const { rows } = await sql<{ found: boolean }>`SELECT EXISTS (SELECT 1 FROM ${sql.table(model.table)} WHERE unit_id = ${DEMO_UNITS.using.id}) AS found`.execute(app.db as AnyDb);
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
      if (!(await isEmpty(trx))) return null;
      options.progress?.('空数据库：写入演示账号与演示数据（一个事务）…');
      return seedDemo({ db: trx, resources: app.resources }, options);
    });
    if (outcome !== 'busy') return outcome;
    if (attempt === 0) options.progress?.('另一个进程正在写入演示数据：等它完成…');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
