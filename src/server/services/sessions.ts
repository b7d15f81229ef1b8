/**
 * Sessions live in `sys_session`, so any server process over the same database accepts them.
 * A session expires after `ttlMinutes` without a request; `last_seen_at` slides forward at most
 * once per TOUCH_INTERVAL_MS so ordinary requests do not each cost a write.
 *
 * The browser holds the tokens; the table holds only their digests (crypto-suite tokenDigest,
 * migration 0020), so a copy of it opens no session. Requests are looked up by the digest of the
 * token they carry, and `CurrentSession.id` / `extendId` are those digests (the row's keys).
 */
import { sql } from 'kysely';
import { inTransaction, type Db } from '../db/index';
import { newId } from '../db/ids';
import { KEEP_PLAN } from '../db/pg-prepared';
import { embeddedChanges, urgently } from '../db/pglite';
import { tokenDigest, type CryptoMode } from './crypto-suite';
import { passwordChangeReason, type PasswordChangeReason } from './password-policy';

export const TOUCH_INTERVAL_MS = 30_000;

export interface SessionUser {
  id: string;
  loginName: string;
  name: string;
  unitId: string;
  unitAreacode: string;
  isUserSeed: 0 | 1;
  basicUnitFlag: 0 | 1;
  officeId: string | null;
}

export interface SessionRole {
  id: string;
  name: string;
  roleType: string;
  menuIds: string[];
}

/** The authenticated state of a request (`request.session`). */
export interface CurrentSession {
  /** The digest of the session token (sys_session.id), never the token itself. */
  id: string;
  /** The digest of the extension token (sys_session.extend_id). */
  extendId: string;
  user: SessionUser;
  /** The current role; null if the user no longer holds the stored role. */
  role: SessionRole | null;
  simplePwd: boolean;
  /** The password must be changed first (passwordChangeReason): only the password change is allowed. */
  passwordMustChange: boolean;
  /** Why: set by someone else (migration 0018) or older than PORTAL_PASSWORD_MAX_AGE_DAYS; null when not. */
  passwordChangeReason: PasswordChangeReason | null;
  lastSeenAt: Date;
}

export interface NewSession {
  userId: string;
  roleId: string | null;
  simplePwd: boolean;
  data?: Record<string, unknown>;
  /** One session per account (PORTAL_SINGLE_SESSION): the account's other sessions end (reason `superseded`). */
  single?: boolean;
}

/** Why the system ended a session (sys_session_end), told to its next request. */
export type SessionEndReason = 'superseded';

/** The tokens of a new session, for the browser only: the table keeps their digests. */
export interface SessionTokens {
  token: string;
  extendToken: string;
}

export async function createSession(db: Db, input: NewSession, mode: CryptoMode): Promise<SessionTokens> {
  const tokens = { token: newId(), extendToken: newId() };
  const values = {
    id: tokenDigest(mode, tokens.token),
    extend_id: tokenDigest(mode, tokens.extendToken),
    user_id: input.userId,
    role_id: input.roleId,
    simple_pwd: input.simplePwd,
    data: JSON.stringify(input.data ?? {}),
  };
  if (!input.single) {
    await db.insertInto('sys_session').values(values).execute();
    return tokens;
  }
  await inTransaction(db, async (trx) => {
    // Logins of one account queue here, so two at once cannot both keep their session.
    await trx.selectFrom('sys_user').select('id').where('id', '=', input.userId).forUpdate().execute();
    await endUserSessions(trx, input.userId, 'superseded');
    await trx.insertInto('sys_session').values(values).execute();
  });
  return tokens;
}

/** Ends every session of a user and remembers why, for their next request (sessionEndReason). */
export async function endUserSessions(db: Db, userId: string, reason: SessionEndReason, now = new Date()): Promise<number> {
  const ended = await db.deleteFrom('sys_session').where('user_id', '=', userId).returning(['id', 'extend_id']).execute();
  if (ended.length === 0) return 0;
  await db
    .insertInto('sys_session_end')
    .values(ended.flatMap((s) => [s.id, s.extend_id]).map((digest) => ({ digest, reason, ended_at: now })))
    .onConflict((oc) => oc.column('digest').doUpdateSet({ reason, ended_at: now }))
    .execute();
  return ended.length;
}

/** What the request's token is looked up by: the digest of its session or extension token. */
export type SessionLookup = { digest: string } | { extendDigest: string };

export function sessionLookupOf(mode: CryptoMode, carried: { token: string } | { extendToken: string }): SessionLookup {
  return 'token' in carried ? { digest: tokenDigest(mode, carried.token) } : { extendDigest: tokenDigest(mode, carried.extendToken) };
}

const lookupDigest = (lookup: SessionLookup): string => ('digest' in lookup ? lookup.digest : lookup.extendDigest);

/** Why the session a request names was ended by the system, if it was (and not long ago). */
export async function sessionEndReason(db: Db, lookup: SessionLookup): Promise<SessionEndReason | null> {
  const row = await db.selectFrom('sys_session_end').select('reason').where('digest', '=', lookupDigest(lookup)).executeTakeFirst();
  return (row?.reason as SessionEndReason | undefined) ?? null;
}

export interface SessionPolicy {
  ttlMinutes: number;
  /** PORTAL_PASSWORD_MAX_AGE_DAYS (0: passwords do not age). */
  passwordMaxAgeDays: number;
}

/**
 * Finds a live session by its token digest (or extension token digest), deleting it when it has
 * expired and sliding its inactivity window when due. Returns null for unknown, expired or disabled sessions.
 */
export async function resolveSession(db: Db, lookup: SessionLookup, policy: SessionPolicy, now = new Date()): Promise<CurrentSession | null> {
  const { ttlMinutes } = policy;
  const row = await db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .innerJoin('sys_unit as un', 'un.id', 'u.unit_id')
    .leftJoin('sys_user_role as ur', (join) => join.onRef('ur.user_id', '=', 's.user_id').onRef('ur.role_id', '=', 's.role_id'))
    .leftJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select([
      's.id',
      's.extend_id',
      's.simple_pwd',
      's.last_seen_at',
      'u.id as user_id',
      'u.login_name',
      'u.name',
      'u.unit_id',
      'u.is_user_seed',
      'u.basic_unit_flag',
      'u.office_id',
      'u.status',
      'u.password_must_change',
      'u.password_changed_at',
      'un.areacode',
      'r.id as role_id',
      'r.name as role_name',
      'r.role_type',
      'r.menu_ids',
    ])
    .where('digest' in lookup ? 's.id' : 's.extend_id', '=', lookupDigest(lookup))
    .executeTakeFirst();
  if (!row) return null;

  const idleMs = now.getTime() - row.last_seen_at.getTime();
  if (idleMs > ttlMinutes * 60_000 || row.status !== '0') {
    await deleteSession(db, row.id);
    return null;
  }
  let lastSeenAt = row.last_seen_at;
  if (idleMs > TOUCH_INTERVAL_MS) {
    await db.updateTable('sys_session').set({ last_seen_at: now }).where('id', '=', row.id).execute();
    lastSeenAt = now;
  }
  const changeReason = passwordChangeReason(row, policy.passwordMaxAgeDays, now);
  return {
    id: row.id,
    extendId: row.extend_id,
    simplePwd: row.simple_pwd,
    passwordMustChange: changeReason !== null,
    passwordChangeReason: changeReason,
    lastSeenAt,
    user: {
      id: row.user_id,
      loginName: row.login_name,
      name: row.name,
      unitId: row.unit_id,
      unitAreacode: row.areacode,
      isUserSeed: row.is_user_seed === 1 ? 1 : 0,
      basicUnitFlag: row.basic_unit_flag === 1 ? 1 : 0,
      officeId: row.office_id,
    },
    role: row.role_id ? { id: row.role_id, name: row.role_name!, roleType: row.role_type!, menuIds: row.menu_ids ?? [] } : null,
  };
}

export async function setSessionRole(db: Db, sessionId: string, roleId: string): Promise<void> {
  await db.updateTable('sys_session').set({ role_id: roleId }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.deleteFrom('sys_session').where('id', '=', sessionId).execute();
}

/** Ends every session of a user (after a password change). */
export async function deleteUserSessions(db: Db, userId: string): Promise<void> {
  await db.deleteFrom('sys_session').where('user_id', '=', userId).execute();
}

/**
 * Removes sessions idle for longer than the TTL, and the end reasons older than that (a session
 * ended then would have expired by now anyway). Called at login and by housekeeping.
 */
export async function purgeExpiredSessions(db: Db, ttlMinutes: number, now = new Date()): Promise<void> {
  const before = new Date(now.getTime() - ttlMinutes * 60_000);
  await db.deleteFrom('sys_session').where('last_seen_at', '<', before).execute();
  await db.deleteFrom('sys_session_end').where('ended_at', '<', before).execute();
}

/** How many sessions a process keeps resolved; beyond it the least recently used are dropped. */
const CACHE_LIMIT = 10_000;

/**
 * Resolved sessions of this process, valid while the database's session epoch (migration 0014)
 * is the one they were read under. Any change that can alter or end a session moves the epoch, in
 * the same transaction, whichever process (or SQL session) makes it; a process that sees a new
 * epoch drops everything it holds. A request then costs one primary-key read instead of the
 * five-table lookup. A column added to resolveSession's lookup must be added to the
 * migration's trigger list.
 */
export class SessionCache {
  private epoch: string | null = null;
  private readonly entries = new Map<string, CurrentSession>();
  /** The epoch read under way, and the one that starts when it ends (shared by the requests waiting for it). */
  private reading: Promise<string> | null = null;
  private next: Promise<string> | null = null;
  /** The embedded driver's change count when the epoch was last read (undefined on PostgreSQL). */
  private readAtChanges: number | undefined;
  /** Full lookups under way, by cache key, with the epoch they were started under. */
  readonly lookups = new Map<string, { epoch: string; session: Promise<CurrentSession | null> }>();

  get size(): number {
    return this.entries.size;
  }

  /**
   * Reads the database's epoch; forgets every entry when it moved. Requests that ask while a read
   * is under way share the next read, which starts once that one ends, so after each of them
   * arrived: it sees every change committed before they came, as a read of their own would. Under
   * load one read serves every request that came in meanwhile instead of each queueing its own (on
   * the embedded database all statements of the process queue for one connection).
   */
  sync(db: Db): Promise<string> {
    // The embedded database changes only through this process: while its driver has run nothing
    // but reads since the epoch was read, the epoch cannot have moved.
    const changes = embeddedChanges(db);
    if (changes !== undefined && changes === this.readAtChanges && this.epoch !== null) return Promise.resolve(this.epoch);
    if (!this.reading) return this.read(db);
    const after = () => {
      this.next = null;
      return this.read(db);
    };
    return (this.next ??= this.reading.then(after, after));
  }

  private read(db: Db): Promise<string> {
    const reading = (async () => {
      const changes = embeddedChanges(db);
      // Ahead of the queued statements on the embedded database: every request waits for this read.
      const { rows } = await urgently(() =>
        sql<{ version: string }>`${sql.raw(KEEP_PLAN)}SELECT version::text AS version FROM sys_session_epoch WHERE id = 1`.execute(db),
      );
      const epoch = rows[0]?.version ?? '';
      if (epoch !== this.epoch) {
        this.entries.clear();
        this.epoch = epoch;
      }
      this.readAtChanges = changes;
      return epoch;
    })().finally(() => {
      if (this.reading === reading) this.reading = null;
    });
    this.reading = reading;
    return reading;
  }

  get(key: string): CurrentSession | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // Most recently used last (Map keeps insertion order).
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  /** Keeps `session` if the epoch is still the one read before it was looked up. */
  set(key: string, session: CurrentSession, epoch: string): void {
    if (epoch !== this.epoch) return;
    this.entries.set(key, session);
    if (this.entries.size > CACHE_LIMIT) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}

const cacheKey = (lookup: SessionLookup): string => ('digest' in lookup ? `t:${lookup.digest}` : `e:${lookup.extendDigest}`);

/**
 * resolveSession through `cache`: a cached session is used while the epoch is unchanged and its
 * last request is less than TOUCH_INTERVAL_MS ago (so expiry and the sliding window are decided
 * by the database, as before); otherwise the full lookup runs and its result is cached. The epoch
 * is read before the lookup, so a cached session is never older than the epoch it is kept under.
 */
export async function resolveSessionCached(
  db: Db,
  cache: SessionCache,
  lookup: SessionLookup,
  policy: SessionPolicy,
  now = new Date(),
): Promise<CurrentSession | null> {
  const { ttlMinutes } = policy;
  const epoch = await cache.sync(db);
  const key = cacheKey(lookup);
  const hit = cache.get(key);
  if (hit && now.getTime() - hit.lastSeenAt.getTime() <= Math.min(TOUCH_INTERVAL_MS, ttlMinutes * 60_000)) return hit;
  // Requests of one session arriving together (a page's parallel calls, the moment its cached entry
  // is due for the sliding window) share one lookup begun under the epoch they read: no change to
  // sessions, users or roles committed between its start and their epoch read, so its answer is theirs.
  const pending = cache.lookups.get(key);
  if (pending && pending.epoch === epoch) return pending.session;
  const session = resolveSession(db, lookup, policy, now)
    .then((found) => {
      if (found) cache.set(key, found, epoch);
      else cache.delete(key);
      return found;
    })
    .finally(() => {
      if (cache.lookups.get(key)?.session === session) cache.lookups.delete(key);
    });
  cache.lookups.set(key, { epoch, session });
  return session;
}
