/**
 * RBAC sweep: every operation of the OpenAPI document, called by every seeded role, is
 * allowed exactly where the role's menu ids say (`x-access`: any signed-in user, or one of the
 * resource's menu access ids; `x-seed-only`: the unit's main account). Refused means 403 FORBIDDEN;
 * allowed means anything but that (a missing record, a bad body, a workflow rule are other answers).
 */
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { api, appSuite, dbTargets } from '../api/helpers';
import { documentedOperations, fillPath, Tally, type Operation } from './support';

const ACCOUNTS = ['nbadmin', 'nbsub', 'bladmin', 'jgadmin', 'nbjy', 'wbadmin'] as const;
/** A well-formed id no row has. */
const NO_ROW = '0'.repeat(32);

describe.each(dbTargets())('RBAC sweep (%s)', (target) => {
  const { app, session } = appSuite(target, {
    sessions: { nbadmin: 'nbadmin', nbsub: 'nbsub', bladmin: 'bladmin', jgadmin: 'jgadmin', nbjy: 'nbjy', wbadmin: 'wbadmin' },
  });
  const tally = new Tally(`rbac (${target})`);
  afterAll(() => console.log(tally.line()));

  /** The current role's menu ids and whether the user is the unit's main account, as stored. */
  async function grantsOf(sid: string): Promise<{ menuIds: string[]; seed: boolean }> {
    const row = await sql<{ menu_ids: string[] | string; is_user_seed: number }>`
      SELECT r.menu_ids, u.is_user_seed FROM sys_session s JOIN sys_role r ON r.id = s.role_id JOIN sys_user u ON u.id = s.user_id WHERE s.id = ${tokenDigest(app.config.crypto, sid)}`.execute(
      app.db,
    );
    const { menu_ids, is_user_seed } = row.rows[0];
    return { menuIds: typeof menu_ids === 'string' ? (JSON.parse(menu_ids) as string[]) : menu_ids, seed: is_user_seed === 1 };
  }

  const allowedFor = (op: Operation, grants: { menuIds: string[]; seed: boolean }): boolean =>
    (op.access === 'session' || op.access === 'public' || op.access.some((id) => grants.menuIds.includes(id))) && (!op.seedOnly || grants.seed);

  it('allows every route exactly to the roles whose menu ids name it', async () => {
    // Logging out or switching roles would change the session under test.
    const ops = (await documentedOperations(app)).filter((op) => op.access !== 'public' && !/\/(logout|changeRole)$/.test(op.path));
    const restricted = ops.filter((op) => op.access !== 'session');
    expect(restricted.length).toBeGreaterThan(200);
    const outcomes = new Map<string, { allowed: number; refused: number; outsideUnitMenus: string[] }>();
    for (const account of ACCOUNTS) {
      const sid = session[account];
      const grants = await grantsOf(sid);
      const outcome = { allowed: 0, refused: 0, outsideUnitMenus: [] as string[] };
      for (const op of ops) {
        tally.requests++;
        const res = await app.inject({
          method: op.method,
          url: fillPath(op.path, NO_ROW),
          query: { __sid: sid },
          ...(op.method === 'GET' ? {} : { payload: {} }),
        });
        // An export or a template answers with the file itself: only a JSON answer carries a code.
        const code = String(res.headers['content-type'] ?? '').includes('json') ? res.json<{ code?: string }>().code : undefined;
        const refused = res.statusCode === 403 && code === 'FORBIDDEN';
        const expected = allowedFor(op, grants);
        tally.check(res.statusCode !== 401, () => `${account} ${op.method} ${op.path}: 401 with a live session`);
        tally.check(
          refused === !expected,
          () =>
            `${account} ${op.method} ${op.path}: ${expected ? 'allowed by its menu ids, but refused' : `not in its menu ids, but answered ${res.statusCode} ${code ?? ''}`}`,
        );
        if (refused) outcome.refused++;
        // A using unit's main account is refused only routes of the authority's (account, area, stats, plan), the analysts' and the serving parties' menus.
        if (
          refused &&
          !(typeof op.access === 'string' ? [op.access] : op.access).every((id) => /^(account|area|stats|plan|dev|inspection|maintenance):/.test(id))
        )
          outcome.outsideUnitMenus.push(`${op.method} ${op.path}`);
        else outcome.allowed++;
      }
      outcomes.set(account, outcome);
    }
    // The sweep tells the roles apart: a main account reaches every route of a using unit, an
    // operator, the authority and an inspection body are refused many.
    for (const [account, { allowed, refused, outsideUnitMenus }] of outcomes) {
      const narrow = account === 'nbsub' || account === 'jgadmin' || account === 'nbjy' || account === 'wbadmin';
      tally.check(
        allowed > 0 && (narrow ? refused > 50 : outsideUnitMenus.length === 0),
        () => `${account}: ${allowed} allowed, ${refused} refused (${outsideUnitMenus.slice(0, 3).join(', ')})`,
      );
    }
    expect(tally.sample()).toEqual([]);
  });

  it('refuses the system menu to a sub-account and the authority, by menu id', async () => {
    for (const account of ['nbsub', 'jgadmin'] as const) {
      tally.requests++;
      const res = await app.inject({ method: 'GET', url: api('/a/stone/unit/bypassAccount/list'), query: { __sid: session[account] } });
      expect(tally.check(res.statusCode === 403, () => `${account} reached the sub-account list`)).toBe(true);
    }
  });
});
