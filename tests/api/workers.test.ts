/**
 * Operators and their certificates (/zyrygl): the identity-card rule and the date rules
 * refuse with the catalogue's messages and store nothing; each using unit sees only its own
 * people; a sub-account without the menu is refused; the legacy operator paths answer; the
 * warning window and the overview count what the list shows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { workersFeature } from '../../src/server/domain/workers/index';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { idCardCheckChar } from '../../validators/identifiers';
import { appSuite, call, dbTargets, sessionOf } from './helpers';

type Row = Record<string, unknown> & { id: string };

const VALID_ID = `330212199001011${'23'}`;
const idCard = `${VALID_ID}${idCardCheckChar(VALID_ID)}`;

describe.each(dbTargets())('operators and certificates (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { first: 'nbadmin', second: 'bladmin' } });
  const today = todayIn();

  beforeAll(async () => {
    await seedDemoRecords(app, { features: [workersFeature] });
  });

  const post = (sid: string, path: string, body: Record<string, unknown> = {}) => call<Row>(app, sid, 'POST', path, body);
  const count = async (sid: string, resource: string, query: Record<string, unknown> = {}) =>
    Number((await call<Page<Row>>(app, sid, 'POST', `/r/${resource}/list`, { pageSize: 1, ...query })).body.data!.count);

  it('refuses a wrong identity card with the catalogue message, storing nothing', async () => {
    const before = await count(session.first, 'operator');
    const { body } = await post(session.first, '/r/operator/save', { name: '测试工', idCard: '330212199001011239', mobile: '13905741234' });
    expect(body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请输入有效的身份证号', data: { field: 'idCard' } });
    expect(await count(session.first, 'operator')).toBe(before);
  });

  it('keeps a certificate’s expiry after its issue, naming both fields', async () => {
    const person = (await post(session.first, '/r/operator/save', { name: '测试工', idCard, mobile: '13905741234' })).body.data!;
    const { body } = await post(session.first, '/r/operator-certificate/save', {
      operator: person.id,
      certNo: 'TS-TEST-1',
      items: ['Q2'],
      issuer: '宁波市市场监督管理局',
      issueDate: today,
      expiryDate: addToDate(today, -1, 'd'),
    });
    expect(body).toMatchObject({ result: 'false', message: '有效期至不能早于发证日期', data: { field: 'expiryDate' } });
    const saved = await post(session.first, '/r/operator-certificate/save', {
      operator: person.id,
      name: '测试工',
      idCard,
      certNo: 'TS-TEST-1',
      items: ['Q2'],
      issuer: '宁波市市场监督管理局',
      issueDate: addToDate(today, -4, 'y'),
      expiryDate: addToDate(today, 30, 'd'),
    });
    expect(saved.body.result, saved.body.message).toBe('true');
    expect(saved.body.data).toMatchObject({ operator: person.id, certNo: 'TS-TEST-1', items: ['Q2'] });
  });

  it('shows each unit only its own people and certificates', async () => {
    const mine = (await call<Page<Row>>(app, session.second, 'POST', '/r/operator/list', { pageSize: 100 })).body.data!;
    const theirs = (await call<Page<Row>>(app, session.first, 'POST', '/r/operator/list', { pageSize: 100 })).body.data!;
    expect(mine.count).toBeGreaterThan(0);
    const ids = new Set(theirs.list.map((r) => r.id));
    expect(mine.list.some((r) => ids.has(r.id))).toBe(false);
    const foreign = theirs.list[0];
    expect((await call<Row>(app, session.second, 'GET', `/r/operator/get/${foreign.id}`)).body.result).toBe('false');
    const write = await post(session.second, '/r/operator/save', { ...foreign, name: '改名' });
    expect(write.body.result).toBe('false');
    expect((await call<Row>(app, session.first, 'GET', `/r/operator/get/${foreign.id}`)).body.data!.name).toBe(foreign.name);
  });

  it('refuses a sub-account whose role has not the workers menu', async () => {
    const sub = await sessionOf(app, 'nbsub');
    const { status, body } = await call(app, sub, 'POST', '/r/operator/list', {});
    expect(body.result).toBe('false');
    expect(status).toBe(403);
  });

  it('answers the legacy operator paths', async () => {
    const added = await call<Row>(app, session.first, 'POST', '/a/stone/operator/add', {
      name: '旧接口',
      idCard: `${'33021219850505'}${'321'}${idCardCheckChar('33021219850505321')}`,
      mobile: '13905749999',
    });
    expect(added.body.result, added.body.message).toBe('true');
    const listed = await call<Page<Row>>(app, session.first, 'POST', '/a/stone/operator/list', { name: '旧接口' });
    expect(listed.body.data!.list.map((r) => r.id)).toContain(added.body.data!.id);
    const overview = await call<{ total: number }>(app, session.first, 'POST', '/a/stone/operator/overview', {});
    expect(overview.body.data!.total).toBe(await count(session.first, 'operator-certificate'));
    expect(overview.body.data!.total).toBeGreaterThan(0);
  });

  it('warns of certificates expired or expiring within 90 days', async () => {
    const window = await count(session.first, 'operator-certificate', { expiryDate_lte: addToDate(today, 90, 'd') });
    const expired = await count(session.first, 'operator-certificate', { expiryDate_lte: addToDate(today, -1, 'd') });
    expect(expired).toBeGreaterThan(0);
    expect(window).toBeGreaterThan(expired);
  });
});
