/**
 * The yearly safety commitment letter (/implementation SafetyResponsibility): the unit's
 * name and code are its own, one letter a year per unit, and the commit needs the signing date and
 * the signed scan.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { appSuite, call, dbTargets, resourceCalls, sessionOf } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string };

describe.each(dbTargets())('safety commitment letters (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin' } });
  const { post } = resourceCalls<Row>(() => app);

  it('takes the unit from the session, whatever the body says, and the default text', async () => {
    const { body } = await post(session.unit, '/r/safety-commitment/save', { year: 2031, principal: '陈国华', unitName: '别的单位' });
    expect(body.result, body.message).toBe('true');
    expect(body.data).toMatchObject({ unitName: DEMO_UNITS.using.orgname, creditCode: DEMO_UNITS.using.orgcode, status: 'draft' });
    expect(String(body.data!.content)).toContain('本单位郑重承诺');
  });

  it('keeps one letter a year per unit', async () => {
    expect((await post(session.unit, '/r/safety-commitment/save', { year: 2031, principal: '陈国华' })).body).toMatchObject({
      result: 'false',
      message: '承诺年度已存在，不能重复',
    });
    expect((await post(session.other, '/r/safety-commitment/save', { year: 2031, principal: '周建平' })).body.result).toBe('true');
  });

  it('commits only with the signing date and the signed scan', async () => {
    const draft = (await post(session.unit, '/r/safety-commitment/save', { year: 2032, principal: '陈国华' })).body.data!;
    expect((await post(session.unit, `/r/safety-commitment/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请选择签署日期' });
    const signed = (
      await post(session.unit, '/r/safety-commitment/save', { id: draft.id, version: draft.version, year: 2032, principal: '陈国华', signDate: '2026-01-10' })
    ).body.data!;
    expect((await post(session.unit, `/r/safety-commitment/commit/${signed.id}`)).body).toMatchObject({ result: 'false', message: '请上传签字盖章扫描件' });
    expect((await call<Row>(app, session.unit, 'GET', `/r/safety-commitment/get/${draft.id}`)).body.data!.status).toBe('draft');
  });

  it('lets neither another unit nor a sub-account without the menu delete or commit it, and refuses a committed letter', async () => {
    const draft = (
      await post(session.unit, '/r/safety-commitment/save', {
        year: 2033,
        principal: '陈国华',
        signDate: '2026-01-10',
        scan: [{ name: '承诺书.pdf', url: '' }],
      })
    ).body.data!;
    expect((await post(session.other, `/r/safety-commitment/delete/${draft.id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    const sub = await sessionOf(app, 'nbsub');
    expect((await call(app, sub, 'POST', `/r/safety-commitment/commit/${draft.id}`, {})).status).toBe(403);
    const done = await post(session.unit, `/r/safety-commitment/commit/${draft.id}`);
    expect(done.body.result, done.body.message).toBe('true');
    expect((await post(session.unit, `/r/safety-commitment/delete/${draft.id}`)).body).toMatchObject({ result: 'false', message: '当前状态不允许此操作' });
    expect((await call<Row>(app, session.unit, 'GET', `/r/safety-commitment/get/${draft.id}`)).body.data!.status).toBe('committed');
  });
});
