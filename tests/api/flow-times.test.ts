/**
 * How long workflows take (`GET /r/<resource>/flow-times`, src/server/resources/flow-times.ts):
 * use-registration applications are moved commit → accept → audit-agree through the API by a unit
 * and the authority, then their flow-log times are set to known instants (in months of their own,
 * so nothing else in the database is counted) and the counts, mean and 90th percentile checked;
 * each reader counts only the rows its list shows; bad months and resources without a workflow are
 * refused.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/dates';
import { monthsAround } from '../../src/server/resources/stats';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

interface FlowTimes {
  submitted: number;
  finished: number;
  avgDays: number | null;
  p90Days: number | null;
}

const R = '/r/use-regist-apply';
const FILE = [{ name: '使用登记表.pdf', url: '/files/x' }];

describe.each(dbTargets())('flow times (%s)', (target) => {
  const {
    app,
    units: [other],
    session,
  } = appSuite(target, { units: ['330203'], sessions: { unit: 'nbadmin', authority: 'jgadmin' } });
  const { ok } = resourceCalls<Row>(() => app);
  const flowTimes = (sid: string, query: Record<string, string> = {}, resource = R) => call<FlowTimes>(app, sid, 'GET', `${resource}/flow-times`, query);

  /** `YYYY-MM` of the month `offset` months from this one (portal time zone). */
  const month = (offset: number) => monthsAround(todayIn(), [offset, offset])[0];
  /** An instant in the portal's time zone (UTC+8, no daylight saving). */
  const at = (day: string, time = '12:00:00') => `${day}T${time}+08:00`;
  /** Day `day` of the month `offset` months from this one, as `YYYY-MM-DD`. */
  const dayOf = (offset: number, day: number) => `${month(offset)}-${String(day).padStart(2, '0')}`;

  /** A committed application of a new piece of equipment of the unit `sid`. */
  const commit = async (sid: string, areaCode = '330212'): Promise<Row> => {
    const piece = await ok(sid, '/r/equipment/save', {
      equclacode: '3000',
      subCategory: '3100',
      equipmentName: '测试乘客电梯',
      useStatus: '0',
      locationArea: areaCode,
      address: '宁波市测试路1号',
    });
    const row = await ok(sid, `${R}/save`, {
      registMode: 'regBySets',
      useUnitName: '测试单位',
      contactPerson: '张三',
      contactMobile: '13805741234',
      useStartDate: todayIn(),
      locationArea: areaCode,
      applyForm: FILE,
      isCommit: true,
      items: [{ equipment: piece.id, equclacode: '3000', subCategory: '3100', equipmentName: '测试乘客电梯' }],
    });
    expect(row.status).toBe('submitted');
    return row;
  };
  /** Accepted and approved by the authority. */
  const approve = async (id: string) => {
    await ok(session.authority, `${R}/accept/${id}`);
    expect((await ok(session.authority, `${R}/audit-agree/${id}`, { opinion: '准予登记' })).status).toBe('approved');
  };
  /** Every entry of the row at `submitted`, its approval (if any) at `finished` (SQL timestamptz expressions). */
  const retime = async (id: string, submitted: ReturnType<typeof sql>, finished?: ReturnType<typeof sql>) => {
    await sql`UPDATE sys_flow_log SET created_at = ${submitted} WHERE record_id = ${id} AND action <> 'audit-agree'`.execute(app.db);
    if (finished) await sql`UPDATE sys_flow_log SET created_at = ${finished} WHERE record_id = ${id} AND action = 'audit-agree'`.execute(app.db);
  };
  const instant = (text: string) => sql`${text}::timestamptz`;

  /** Days from submission to approval of the unit's finished rows in month -2. */
  const DURATIONS = [1, 2, 3, 4, 10];

  beforeAll(async () => {
    // nbadmin: five approved applications submitted on the 5th of month -2, one only accepted, one
    // returned and cancelled (cancel is no 办结), one draft (never submitted).
    for (const days of DURATIONS) {
      const row = await commit(session.unit);
      await approve(row.id);
      await retime(row.id, instant(at(dayOf(-2, 5))), sql`${at(dayOf(-2, 5))}::timestamptz + make_interval(days => ${days})`);
    }
    const accepted = await commit(session.unit);
    await ok(session.authority, `${R}/accept/${accepted.id}`);
    await retime(accepted.id, instant(at(dayOf(-2, 6))));
    const cancelled = await commit(session.unit);
    await ok(session.authority, `${R}/audit-disagree/${cancelled.id}`, { opinion: '材料不全' });
    const returned = (await call<Row>(app, session.unit, 'GET', `${R}/get/${cancelled.id}`)).body.data!;
    await ok(session.unit, `${R}/cancel/${cancelled.id}`, { version: returned.version });
    await retime(cancelled.id, instant(at(dayOf(-2, 7))));
    const draft = await ok(session.unit, `${R}/save`, { registMode: 'regBySets', useUnitName: '草稿单位', useStartDate: todayIn(), locationArea: '330212' });
    expect(draft.status).toBe('draft');
    await retime(draft.id, instant(at(dayOf(-2, 8))));
    // The last evening of month -3 in the portal's time zone (still that month, though UTC says the same day).
    const lateEvening = await commit(session.unit);
    await approve(lateEvening.id);
    const firstOfMonth = `${month(-2)}-01`;
    await retime(
      lateEvening.id,
      sql`(${firstOfMonth}::timestamp AT TIME ZONE 'Asia/Shanghai') - interval '30 minutes'`,
      sql`(${firstOfMonth}::timestamp AT TIME ZONE 'Asia/Shanghai') + interval '1 day'`,
    );
    // The other unit (another district of the city): submitted 10 days ago, approved 2 days ago.
    const theirs = await commit(other.sid, '330203');
    await approve(theirs.id);
    await retime(theirs.id, sql`now() - interval '10 days'`, sql`now() - interval '2 days'`);
  });

  it("counts the unit's submissions of a month, the finished ones, their mean and 90th-percentile days", async () => {
    const res = await flowTimes(session.unit, { months: '-2,-2' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // 1,2,3,4,10 days: mean 4.0; p90 = 4 + 0.6 × (10 − 4) = 7.6 (linear interpolation).
    expect(res.body).toMatchObject({ result: 'true', data: { submitted: 7, finished: 5, avgDays: 4, p90Days: 7.6 } });
  });

  it('places a submission in its month by the portal time zone', async () => {
    expect((await flowTimes(session.unit, { months: '-3,-3' })).body.data).toEqual({ submitted: 1, finished: 1, avgDays: 1, p90Days: 1 });
    expect((await flowTimes(session.unit, { months: '-3,-2' })).body.data).toMatchObject({ submitted: 8, finished: 6 });
  });

  it('answers zero and nulls for months without submissions', async () => {
    expect((await flowTimes(session.unit, { months: '-40,-30' })).body.data).toEqual({ submitted: 0, finished: 0, avgDays: null, p90Days: null });
  });

  it('a unit counts only its own rows: fractional days to one decimal over the default twelve months', async () => {
    const res = await flowTimes(other.sid);
    expect(res.body.data).toEqual({ submitted: 1, finished: 1, avgDays: 8, p90Days: 8 });
    // nbadmin's rows of months -3 and -2 are in its default window, the other unit's never.
    const mine = (await flowTimes(session.unit)).body.data!;
    expect(mine).toMatchObject({ submitted: 8, finished: 6 });
  });

  it("the authority counts its area's rows, every unit's; never more than its list shows", async () => {
    const res = await flowTimes(session.authority, { months: '-3,0' });
    expect(res.status).toBe(200);
    // Both units' rows: nbadmin's six finished and one accepted, the other unit's one finished. The
    // authority lists neither the draft nor the application the unit cancelled: neither is counted.
    expect(res.body.data).toMatchObject({ submitted: 8, finished: 7 });
    const listed = Number((await call<Page<Row>>(app, session.authority, 'POST', `${R}/list`, { pageSize: 1 })).body.data!.count);
    expect(res.body.data!.submitted).toBeLessThanOrEqual(listed);
    expect(res.body.data!.finished).toBeLessThanOrEqual(res.body.data!.submitted);
  });

  it('fractional durations are rounded to one decimal', async () => {
    const row = await commit(other.sid, '330203');
    await approve(row.id);
    // 36 hours: 1.5 days, in month -4 (alone there).
    await retime(row.id, instant(at(dayOf(-4, 10), '08:00:00')), instant(at(dayOf(-4, 11), '20:00:00')));
    expect((await flowTimes(other.sid, { months: '-4,-4' })).body.data).toEqual({ submitted: 1, finished: 1, avgDays: 1.5, p90Days: 1.5 });
  });

  it('refuses malformed or reversed months, and months ahead', async () => {
    for (const months of ['0', '-1,-2', 'a,b', '-1,1', '-61,0', '-1,0,1', '1.5,2', ',0']) {
      const res = await flowTimes(session.unit, { months });
      expect(res.status, months).toBe(400);
      expect(res.body, months).toMatchObject({ result: 'false', code: 'BAD_REQUEST' });
    }
  });

  it('has no flow times for a resource without a workflow, and refuses a role without access', async () => {
    const none = await call(app, session.unit, 'GET', '/r/equipment/flow-times');
    expect(none.status).toBe(404);
    // The declarations are the authority's desk: a unit may not list them.
    const refused = await flowTimes(session.unit, {}, '/r/simple-declaration');
    expect(refused.status).toBe(403);
    expect((await flowTimes(session.authority, {}, '/r/simple-declaration')).status).toBe(200);
  });
});
