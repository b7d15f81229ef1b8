/**
 * Hidden dangers (/implementation yhhzsb): a draft may be incomplete, 上报 needs the
 * measures, the person and the deadline; 整改完成 comes after 上报 and needs its date and result;
 * another unit and a sub-account without the menu change nothing; the legacy paths answer.
 */
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { appSuite, call, dbTargets, resourceCalls, sessionOf } from './helpers';
import { match } from '../support/match';

type Row = Record<string, unknown> & { id: string; status: string };

describe.each(dbTargets())('hidden dangers (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  const draft = { content: '电梯轿厢照明不亮', level: 'general', source: 'self', foundDate: addToDate(today, -2, 'd') };

  const get = async (id: string) => (await call<Row>(app, session.unit, 'GET', `/r/hidden-danger/get/${id}`)).body.data!;
  const saved = (body: Record<string, unknown>) => ok(session.unit, '/r/hidden-danger/save', body);

  it('saves an incomplete draft (the person filled from the session), but reports it only with measures and a deadline', async () => {
    const row = await saved({ ...draft, responsible: '' });
    expect(row).toMatchObject({ status: 'draft', responsible: '张伟' });
    const refused = await post(session.unit, `/r/hidden-danger/commit/${row.id}`);
    expect(refused.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请填写整改措施' });
    expect((await get(row.id)).status).toBe('draft');
    await saved({ ...draft, id: row.id, version: row.version, responsible: '王建国', measures: '更换照明灯具', rectifyDeadline: addToDate(today, 5, 'd') });
    const reported = await post(session.unit, `/r/hidden-danger/commit/${row.id}`);
    expect(reported.body.result, reported.body.message).toBe('true');
    expect((await get(row.id)).status).toBe('reported');
  });

  it('completes only a reported danger, with its date and result, never before it was found', async () => {
    const row = await saved({ ...draft, responsible: '王建国', measures: '更换', rectifyDeadline: addToDate(today, 5, 'd') });
    expect((await post(session.unit, `/r/hidden-danger/complete/${row.id}`, { completedDate: today, rectifyResult: '已更换' })).body).toMatchObject({
      result: 'false',
      message: '当前状态不允许此操作',
    });
    await post(session.unit, `/r/hidden-danger/commit/${row.id}`);
    expect((await post(session.unit, `/r/hidden-danger/complete/${row.id}`, { rectifyResult: '已更换' })).body).toMatchObject({
      result: 'false',
      message: '请选择整改完成日期',
    });
    expect(
      (await post(session.unit, `/r/hidden-danger/complete/${row.id}`, { completedDate: addToDate(today, -10, 'd'), rectifyResult: '已更换' })).body,
    ).toMatchObject({ result: 'false', message: match.stringContaining('整改完成日期不能早于') });
    expect((await get(row.id)).status).toBe('reported');
    const done = await post(session.unit, `/r/hidden-danger/complete/${row.id}`, { completedDate: today, rectifyResult: '已更换并复查' });
    expect(done.body.result, done.body.message).toBe('true');
    expect(await get(row.id)).toMatchObject({ status: 'completed', completedDate: today, rectifyResult: '已更换并复查' });
  });

  it('lets neither another unit nor a sub-account without the menu change it', async () => {
    const row = await saved({ ...draft, responsible: '王建国', measures: '更换', rectifyDeadline: addToDate(today, 5, 'd') });
    expect((await post(session.other, `/r/hidden-danger/commit/${row.id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await call(app, session.other, 'GET', `/r/hidden-danger/get/${row.id}`)).body.result).toBe('false');
    const sub = await sessionOf(app, 'nbsub');
    const refused = await call(app, sub, 'POST', `/r/hidden-danger/commit/${row.id}`, {});
    expect(refused.status).toBe(403);
    expect((await get(row.id)).status).toBe('draft');
  });

  it('answers the legacy paths', async () => {
    const { body } = await post(session.unit, '/a/safehiddendanger/epSafeHiddenDanger/save', {
      ...draft,
      responsible: '王建国',
      measures: '更换',
      rectifyDeadline: addToDate(today, 5, 'd'),
    });
    expect(body.result, body.message).toBe('true');
    const id = body.data!.id;
    expect((await post(session.unit, '/a/safehiddendanger/epSafeHiddenDanger/reportMis', { id })).body.result).toBe('true');
    expect(
      (await post(session.unit, '/a/safehiddendanger/epSafeHiddenDanger/complete', { id, completedDate: today, rectifyResult: '已整改' })).body.result,
    ).toBe('true');
    expect((await call<Row>(app, session.unit, 'GET', '/a/safehiddendanger/epSafeHiddenDanger/detail', { id })).body.data?.status).toBe('completed');
  });
});
