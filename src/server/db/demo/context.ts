/**
 * What a domain feature's demo seed works with (DomainFeature.seed): the transaction, the compiled
 * resources, the two demo users as the engine sees their sessions, today, a seeded PRNG (repeatable
 * demo data) and the rows earlier seeds wrote. Seeds write through the resource engine
 * (saveRecord / runAction / insertRecord) as those users, so server hooks run as they do for people.
 */
import { sql } from 'kysely';
import { todayIn } from '../../../shared/dates';
import { idCardCheckChar } from '../../../../validators/identifiers';
import { loadConfig } from '../../config';
import type { CompiledResource } from '../../resources/records';
import type { AnyDb, Row } from '../../resources/repository';
import type { Actor } from '../../resources/scope';
import { DEMO_UNITS, userId } from '../seed';

/** What the seed needs of the app: the database and the compiled resources (a FastifyInstance has both). */
export interface SeedTarget {
  db: unknown;
  resources: ReadonlyMap<string, CompiledResource>;
}

export interface DemoOptions {
  /** Equipment rows of the demo using unit (default 300). */
  equipment?: number;
  /** Equipment rows of the second using unit (default 50). */
  secondEquipment?: number;
  /** PRNG seed (default 20261123). */
  seed?: number;
  /** Hears each step (what is being written), for the terminal. */
  progress?: (message: string) => void;
}

export interface DemoContext {
  db: AnyDb;
  /** The compiled resource `name` (a programming error when it is not loaded). */
  resource(name: string): CompiledResource;
  /** The demo using unit's administrator (nbadmin). */
  unit: Actor;
  /** The second using unit's administrator (bladmin), another district: cross-unit rules. */
  secondUnit: Actor;
  /** The demo authority's auditor (jgadmin). */
  authority: Actor;
  today: string;
  /** Seeded, so the demo data is the same on every machine for a given day. */
  random: () => number;
  options: DemoOptions;
  progress(message: string): void;
  /** Rows earlier seeds wrote, by resource name (later seeds build on them). */
  rows: Map<string, Row[]>;
}

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function resourceOf(app: SeedTarget, name: string): CompiledResource {
  const compiled = app.resources.get(name);
  if (!compiled) throw new Error(`resource '${name}' is not loaded`);
  return compiled;
}

/** The acting demo user as the engine sees a session of it. */
export async function demoActor(db: AnyDb, loginName: string, unit: keyof typeof DEMO_UNITS, roleKey: string): Promise<Actor> {
  const { rows } = await sql<{ name: string; role_type: string; menu_ids: string[] | string }>`
    SELECT u.name, r.role_type, r.menu_ids FROM sys_user u JOIN sys_user_role ur ON ur.user_id = u.id JOIN sys_role r ON r.id = ur.role_id
    WHERE u.id = ${userId(loginName)} ORDER BY (r.role_type = ${roleKey}) DESC LIMIT 1`.execute(db);
  if (!rows[0]) throw new Error(`demo user ${loginName} is missing: seed the demo accounts first`);
  const menuIds = typeof rows[0].menu_ids === 'string' ? (JSON.parse(rows[0].menu_ids) as string[]) : rows[0].menu_ids;
  return {
    userId: userId(loginName),
    userName: rows[0].name,
    unitId: DEMO_UNITS[unit].id,
    areaCode: DEMO_UNITS[unit].areacode,
    roleType: rows[0].role_type,
    menuIds,
    oversees: loadConfig().oversightRoleTypes.includes(rows[0].role_type),
  };
}

/** The context the seeds of one run share. */
export async function demoContext(app: SeedTarget, db: AnyDb, options: DemoOptions): Promise<DemoContext> {
  return {
    db,
    resource: (name) => resourceOf(app, name),
    unit: await demoActor(db, 'nbadmin', 'using', 'unit'),
    secondUnit: await demoActor(db, 'bladmin', 'second', 'unit'),
    authority: await demoActor(db, 'jgadmin', 'authority', 'authority'),
    today: todayIn(),
    random: prng(options.seed ?? 20261123),
    options,
    progress: options.progress ?? (() => undefined),
    rows: new Map(),
  };
}

/** A contact and a form attachment as the demo applications carry them. */
export const DEMO_CONTACT = { contactPerson: '张伟', contactMobile: '13805740001' };
export const demoForm = (name: string) => [{ name, url: '' }];

/** A valid identity-card number (GB 11643) of someone born in `area` on `birth` (YYYYMMDD). */
export function demoIdCard(area: string, birth: string, sequence: number): string {
  const first17 = `${area}${birth}${String(sequence).padStart(3, '0')}`;
  return `${first17}${idCardCheckChar(first17)}`;
}
