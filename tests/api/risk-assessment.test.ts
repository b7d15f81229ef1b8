/**
 * Equipment risk grading (/implementation selfAssessment): the total and the grade are
 * computed fields — recomputed by the server on every save whatever a request says — and a high
 * score needs control measures; another unit sees none of it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';
import { match } from '../support/match';

type Row = Record<string, unknown> & { id: string; version: number };

describe.each(dbTargets())('risk grading (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  let equipment = '';

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 8, secondEquipment: 4 });
    equipment = (await call<{ list: Row[] }>(app, session.unit, 'GET', '/r/equipment/list', { pageSize: '1' })).body.data!.list[0].id;
  }, 180_000);

  const sheet = (scores: number[], extra: Record<string, unknown> = {}) => {
    const [ageScore, inspectionScore, hazardScore, environmentScore, managementScore, populationScore] = scores;
    return {
      equipment,
      assessDate: todayIn(),
      nextAssessDate: addToDate(todayIn(), 365, 'd'),
      ageScore,
      inspectionScore,
      hazardScore,
      environmentScore,
      managementScore,
      populationScore,
      ...extra,
    };
  };

  it('computes the total and the grade on the server, ignoring what the request says', async () => {
    const row = await ok(session.unit, '/r/risk-assessment/save', sheet([5, 0, 3, 4, 2, 1], { totalScore: 99, riskGrade: 'major' }));
    expect(row).toMatchObject({ totalScore: 15, riskGrade: 'low', assessor: '张伟' });
    const raised = await ok(session.unit, '/r/risk-assessment/save', { ...sheet([5, 10, 3, 4, 2, 1]), id: row.id, version: row.version });
    expect(raised).toMatchObject({ totalScore: 25, riskGrade: 'medium' });
  });

  it('asks for control measures from a score of 40', async () => {
    const high = sheet([15, 15, 5, 3, 2, 1]);
    expect((await post(session.unit, '/r/risk-assessment/save', high)).body).toMatchObject({ result: 'false', message: '请填写管控措施' });
    const row = await ok(session.unit, '/r/risk-assessment/save', { ...high, measures: '缩短检验周期，专人巡检' });
    expect(row).toMatchObject({ totalScore: 41, riskGrade: 'high' });
    expect((await call(app, session.other, 'GET', `/r/risk-assessment/get/${row.id}`)).body.result).toBe('false');
  });

  it('refuses a score out of its range and a next date before the assessment', async () => {
    expect((await post(session.unit, '/r/risk-assessment/save', sheet([25, 0, 0, 0, 0, 0]))).body.result).toBe('false');
    const early = await post(session.unit, '/r/risk-assessment/save', sheet([1, 1, 1, 1, 1, 1], { nextAssessDate: addToDate(todayIn(), -3, 'd') }));
    expect(early.body).toMatchObject({ result: 'false', message: match.stringContaining('下次评估日期') });
  });

  it('has the demo gradings, one of each grade', async () => {
    const { list } = (await call<{ list: Row[] }>(app, session.unit, 'GET', '/r/risk-assessment/list', { pageSize: '50' })).body.data!;
    expect(new Set(list.map((r) => r.riskGrade))).toEqual(new Set(['major', 'high', 'medium', 'low']));
  });
});
