/**
 * `npm run screens:changed` signs each demo account in over HTTP to learn the demo roles. On a
 * server where someone changed a demo password (the weak-password account is made to change its
 * own at its first login), that account is skipped with a line in the log, and its role is still
 * found through another account that has it: the tool does not fail on a server that was used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRoles } from '../../scripts/screens-changed/render';
import { API } from '../../src/shared/contract';
import { api, dbTargets, demo, makeApp, sessionOf, type TestApp, withSession } from './helpers';

describe.each(dbTargets())('demo roles of a used server (%s)', (target) => {
  let t: TestApp;
  let baseURL: string;
  beforeAll(async () => {
    t = await makeApp(target);
    baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t?.close());

  it('skips an account whose demo password no longer signs in, keeping its role', async () => {
    const before = await demoRoles(baseURL);
    const weak = demo('nbweak');
    const sid = await sessionOf(t.app, 'nbweak');
    const changed = await withSession(t.app, sid, {
      method: 'POST',
      url: api(API.updatePwd),
      payload: { oldPassword: weak.password, newPassword: 'Changed@2026' },
    });
    expect(changed.json()).toMatchObject({ result: 'true' });

    const lines: string[] = [];
    const after = await demoRoles(baseURL, (line) => lines.push(line));
    expect(lines).toEqual([expect.stringMatching(/skipped nbweak: login of nbweak failed/)]);
    const names = (roles: typeof before) => roles.map((r) => `${r.roleName} (${r.account.loginName})`).sort();
    expect(names(after)).toEqual(names(before));
    expect(names(after)).toContain('使用单位经办人 (nbsub)');
  });
});
