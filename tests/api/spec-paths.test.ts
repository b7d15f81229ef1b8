/**
 * The original API: every path of the table in spec-paths.ts answers (a bound route, whatever it says to
 * an empty call) unless it is marked as not built yet (`owner`) — and a marked one does not answer
 * yet, so the mark goes when its feature lands. The count of unbound paths is printed.
 */
import { describe, expect, it } from 'vitest';
import { appSuite, dbTargets, sessionOf, withSession } from './helpers';
import { SPEC_PATHS, type SpecPath } from './spec-paths';

/** Whether the server has a route for the path: anything but the envelope 404 of an unknown address. */
function answers(res: { statusCode: number; headers: Record<string, unknown>; body: string }): boolean {
  if (!String(res.headers['content-type'] ?? '').includes('json')) return res.statusCode !== 404;
  const body = JSON.parse(res.body) as { code?: string };
  return !(res.statusCode === 404 && body.code === 'NOT_FOUND');
}

describe.each(dbTargets())('the original API paths (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { user: 'nbadmin' } });

  const probe = async ({ method, path }: SpecPath) => {
    // Signing out ends the session it is called with: it gets its own.
    const sid = path === '/a/logout' ? await sessionOf(app, 'nbadmin') : session.user;
    return answers(await withSession(app, sid, { method, url: `/espServer${path.replace(/\{[^}]+\}/g, 'x')}`, ...(method === 'POST' ? { payload: {} } : {}) }));
  };

  it('answers every path not marked as unbuilt', async () => {
    const silent: string[] = [];
    for (const row of SPEC_PATHS.filter((r) => !r.owner)) if (!(await probe(row))) silent.push(`${row.method} ${row.path}`);
    expect(silent).toEqual([]);
  });

  it('a path marked as unbuilt does not answer yet (remove the mark when it does)', async () => {
    const answering: string[] = [];
    for (const row of SPEC_PATHS.filter((r) => r.owner)) if (await probe(row)) answering.push(`${row.method} ${row.path} (owner ${row.owner})`);
    expect(answering).toEqual([]);
    const owned = SPEC_PATHS.filter((r) => r.owner);
    console.log(`the original API: ${SPEC_PATHS.length - owned.length} of ${SPEC_PATHS.length} paths bound; unbound: ${owned.length}`);
  });

  it('lists each path once', () => {
    const keys = SPEC_PATHS.map((r) => `${r.method} ${r.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});
