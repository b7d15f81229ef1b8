/**
 * Emergency plans and drills (/implementation reservePlan, drill): publishing needs the
 * plan text and its date, a published version can no longer change and is retired rather than
 * deleted, and drills belong to the unit's own plans.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/dates';
import { dbTargets, makeApp, sessionOf, type TestApp } from './helpers';
import { call } from './fixtures/resource-users';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

describe.each(dbTargets())('emergency plans and drills (%s)', (target) => {
  let t: TestApp;
  let app: FastifyInstance;
  let unit: string;
  let other: string;
  const plan = { planName: '叉车事故专项应急预案', planType: 'special', equclacode: '5000', planVersion: 'V1.0' };

  beforeAll(async () => {
    t = await makeApp(target);
    app = t.app;
    unit = await sessionOf(app, 'nbadmin');
    other = await sessionOf(app, 'bladmin');
  });
  afterAll(() => t.close());

  const post = (sid: string, path: string, body: Record<string, unknown> = {}) => call<Row>(app, sid, 'POST', path, body);

  it('publishes a plan only with its text and date; then it is retired, not edited or deleted', async () => {
    const draft = (await post(unit, '/r/emergency-plan/save', plan)).body.data!;
    expect(draft).toMatchObject({ status: 'draft', author: '张伟' });
    expect((await post(unit, `/r/emergency-plan/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请选择发布日期' });
    const ready = (
      await post(unit, '/r/emergency-plan/save', {
        ...plan,
        id: draft.id,
        version: draft.version,
        issueDate: todayIn(),
        document: [{ name: '预案.pdf', url: '' }],
      })
    ).body.data!;
    expect((await post(unit, `/r/emergency-plan/commit/${ready.id}`)).body.result).toBe('true');
    expect((await post(unit, '/r/emergency-plan/save', { ...plan, id: ready.id, version: ready.version + 1, summary: '改' })).body).toMatchObject({
      result: 'false',
      message: '当前状态不允许此操作',
    });
    expect((await post(unit, `/r/emergency-plan/delete/${ready.id}`)).body.result).toBe('false');
    expect((await post(unit, `/r/emergency-plan/retire/${ready.id}`)).body.result).toBe('true');
    expect((await call<Row>(app, unit, 'GET', `/r/emergency-plan/get/${ready.id}`)).body.data!.status).toBe('retired');
  });

  it('records drills of the unit’s own plans; another unit sees none of them', async () => {
    const mine = (await post(unit, '/r/emergency-plan/save', { ...plan, planName: '电梯困人现场处置方案' })).body.data!;
    const drill = await post(unit, '/r/emergency-drill/save', {
      plan: mine.id,
      planName: mine.planName,
      drillDate: todayIn(),
      location: '1号楼电梯',
      participants: 8,
      scenario: '停电困人',
    });
    expect(drill.body.result, drill.body.message).toBe('true');
    expect((await call<Row>(app, other, 'GET', `/r/emergency-drill/get/${drill.body.data!.id}`)).body.result).toBe('false');
    const foreign = await post(other, '/r/emergency-drill/save', { plan: mine.id, drillDate: todayIn(), location: '别处', participants: 3, scenario: '演练' });
    expect(foreign.body).toMatchObject({ result: 'false', message: '演练预案不存在或不属于本单位', data: { field: 'plan' } });
  });
});
