/**
 * Which role types oversee their area is configuration (PORTAL_OVERSIGHT_ROLE_TYPES, default
 * `authority`), not a constant: with an empty list the authority's session sees no unit's row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import type { Page } from '../../src/shared/contract';
import { makeApp, sessionOf, type TestApp } from './helpers';
import { call, unitUser } from './fixtures/resource-users';

const R = '/r/demo-notice';

describe('oversight role types come from configuration', () => {
  let withOversight: TestApp;
  let withoutOversight: TestApp;
  beforeAll(async () => {
    [withOversight, withoutOversight] = await Promise.all([makeApp('pglite'), makeApp('pglite', { oversightRoleTypes: [] })]);
  });
  afterAll(() => Promise.all([withOversight?.close(), withoutOversight?.close()]));

  it('reads PORTAL_OVERSIGHT_ROLE_TYPES as a comma-separated list, authority by default', () => {
    expect(loadConfig({}).oversightRoleTypes).toEqual(['authority']);
    expect(loadConfig({ PORTAL_OVERSIGHT_ROLE_TYPES: ' authority, inspector ,' }).oversightRoleTypes).toEqual(['authority', 'inspector']);
  });

  it.each([
    ['authority configured', true],
    ['no oversight role type', false],
  ] as const)('%s: the authority sees a submitted row of a unit of its area: %s', async (_case, sees) => {
    const { app } = sees ? withOversight : withoutOversight;
    const unit = await unitUser(app, '330212');
    const saved = await call<{ id: string }>(app, unit.sid, 'POST', `${R}/save`, { title: '报送', content: '正文', isCommit: true });
    expect(saved.body.result).toBe('true');
    const authority = await sessionOf(app, 'jgadmin');
    const listed = (await call<Page<{ id: string }>>(app, authority, 'GET', `${R}/list`, { pageSize: 100 })).body.data!.list.map((r) => r.id);
    expect(listed.includes(saved.body.data!.id)).toBe(sees);
    const read = await call(app, authority, 'GET', `${R}/get/${saved.body.data!.id}`);
    expect(read.body.result).toBe(sees ? 'true' : 'false');
  });
});
