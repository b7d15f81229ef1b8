/**
 * Random inspection plans (双随机、一公开): the draw is reproducible from its recorded seed (the same
 * seed and candidates give the same units and officers, a different seed its own recorded draw),
 * only the authority reads plans, a 责令整改 check issues an order the unit reads and answers, and
 * the open results show only finished plans' results without personal data.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { drawPlan } from '../../src/server/domain/inspection-plan/draw';
import { inspectionPlanFeature } from '../../src/server/domain/inspection-plan/index';
import { supervisionFeature } from '../../src/server/domain/supervision/index';
import type { AnyDb } from '../../src/server/resources/repository';
import { api, appSuite, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const PLANS = '/r/inspection-plan';
const CHECKS = '/r/inspection-check';
const ALL_CATEGORIES = ['1000', '2000', '3000', '4000', '5000', '6000', '8000', '9000'];

describe.each(dbTargets())('inspection plans (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 6, features: [equipmentFeature, supervisionFeature, inspectionPlanFeature] });
  }, 180_000);

  const newPlan = (extra: Record<string, unknown> = {}) =>
    ok(session.authority, `${PLANS}/save`, {
      title: '测试抽查计划',
      area: '330200',
      categories: ALL_CATEGORIES,
      unitCount: 2,
      inspectorsPerCheck: 2,
      periodStart: today,
      periodEnd: addToDate(today, 20, 'd'),
      ...extra,
    });
  const checksOf = async (planId: string) =>
    (await ok<Page<Row>>(session.authority, `${CHECKS}/list`, { plan: planId, pageSize: 50 })).list.sort((a, b) => Number(a.drawOrder) - Number(b.drawOrder));
  const drawn = async (planId: string) => (await checksOf(planId)).map((c) => [c.creditCode, c.inspectorCertNos]);
  /** The candidates as the draw sees them, from the tables (ids). */
  const candidates = async () => {
    const db = app.db as AnyDb;
    const equipment = app.resources.get('equipment')!.model;
    const { rows: units } = await sql<{
      id: string;
    }>`SELECT DISTINCT u.id FROM sys_unit u JOIN ${sql.table(equipment.table)} e ON e.unit_id = u.id WHERE u.unit_type = 'use' AND u.areacode LIKE '3302%'`.execute(
      db,
    );
    const { rows: officers } = await sql<{ id: string }>`SELECT id FROM plan_inspector WHERE unit_id = ${DEMO_UNITS.authority.id} AND active = true`.execute(
      db,
    );
    return { units: units.map((u) => u.id), officers: officers.map((o) => o.id) };
  };

  it('draws the same units and officers from the same seed, and records a different draw for another seed', async () => {
    const a = await newPlan({ seed: 'AUDIT-SEED-1' });
    const b = await newPlan({ seed: 'AUDIT-SEED-1' });
    const c = await newPlan({ seed: 'AUDIT-SEED-2' });
    const pa = await ok(session.authority, `${PLANS}/draw/${a.id}`);
    const pb = await ok(session.authority, `${PLANS}/draw/${b.id}`);
    const pc = await ok(session.authority, `${PLANS}/draw/${c.id}`);
    expect(pa).toMatchObject({ status: 'drawn', seed: 'AUDIT-SEED-1', candidateCount: 2, inspectorPool: 6, drawnCount: 2 });
    expect(pc).toMatchObject({ status: 'drawn', seed: 'AUDIT-SEED-2', candidateCount: 2, inspectorPool: 6, drawnCount: 2 });
    expect(await drawn(a.id)).toEqual(await drawn(b.id));
    expect(pa.drawDigest).toBe(pb.drawDigest);
    expect(pc.drawDigest).not.toBe(pa.drawDigest);
    // Anyone can redo each draw from its recorded seed and the ordered candidates.
    const { units, officers } = await candidates();
    expect(units.length).toBe(2);
    const redoA = drawPlan('AUDIT-SEED-1', units, 2, officers, 2);
    const redoC = drawPlan('AUDIT-SEED-2', units, 2, officers, 2);
    expect(redoA.digest).toBe(pa.drawDigest);
    expect(redoC.digest).toBe(pc.drawDigest);
    expect((await checksOf(a.id)).map((r) => r.targetUnitId)).toEqual(redoA.checks.map((x) => x.unit));
    expect((await checksOf(c.id)).map((r) => r.targetUnitId)).toEqual(redoC.checks.map((x) => x.unit));
    expect(await drawn(c.id)).not.toEqual(await drawn(a.id));
    // Each check: its officers (2 distinct), a planned date within the period, waiting.
    for (const check of await checksOf(a.id)) {
      expect(String(check.inspectors).split('、')).toHaveLength(2);
      expect(new Set(String(check.inspectorCertNos).split('、')).size).toBe(2);
      expect(check).toMatchObject({ status: 'pending', planTitle: '测试抽查计划' });
      expect(String(check.plannedDate) >= today && String(check.plannedDate) <= addToDate(today, 20, 'd')).toBe(true);
    }
    // A drawn plan is drawn once.
    expect((await post(session.authority, `${PLANS}/draw/${a.id}`)).body.result).toBe('false');
  });

  it('generates and records a seed when none was typed, from which the draw is redone', async () => {
    const plan = await newPlan({ unitCount: 1, inspectorsPerCheck: 3 });
    const done = await ok(session.authority, `${PLANS}/draw/${plan.id}`);
    expect(String(done.seed)).toMatch(/^[0-9a-f]{16}$/);
    const { units, officers } = await candidates();
    const redo = drawPlan(String(done.seed), units, 1, officers, 3);
    expect(redo.digest).toBe(done.drawDigest);
    expect((await checksOf(plan.id)).map((r) => r.targetUnitId)).toEqual(redo.checks.map((x) => x.unit));
  });

  it("refuses a plan outside the authority's area and a draw without candidates", async () => {
    expect(
      (
        await post(session.authority, `${PLANS}/save`, {
          title: '全省',
          area: '330000',
          categories: ['3000'],
          unitCount: 1,
          inspectorsPerCheck: 2,
          periodStart: today,
          periodEnd: today,
        })
      ).body,
    ).toMatchObject({
      result: 'false',
      message: '抽查区域不在本机构辖区内',
    });
    const empty = await newPlan({ area: '330281' });
    expect((await post(session.authority, `${PLANS}/draw/${empty.id}`)).body).toMatchObject({
      result: 'false',
      message: '抽查区域内没有持有所选种类设备的使用单位，无法抽取',
    });
  });

  it('keeps plans, checks and inspectors from a using unit', async () => {
    for (const path of [`${PLANS}/list`, `${CHECKS}/list`, '/r/plan-inspector/list']) {
      const { status, body } = await post(session.unit, path);
      expect(status, path).toBe(403);
      expect(body.result).toBe('false');
    }
  });

  it('issues a rectification order on 责令整改, which the unit reads and answers; publishes when all are recorded', async () => {
    const plan = await newPlan({ seed: 'RECTIFY-1' });
    await ok(session.authority, `${PLANS}/draw/${plan.id}`);
    const checks = await checksOf(plan.id);
    const mine = checks.find((c) => c.creditCode === DEMO_UNITS.using.orgcode)!;
    const other = checks.find((c) => c.creditCode !== DEMO_UNITS.using.orgcode)!;
    // Publishing waits for every check.
    expect((await post(session.authority, `${PLANS}/publish/${plan.id}`)).body).toMatchObject({
      result: 'false',
      message: '本计划还有未登记结果的检查，全部检查完成后才能完成并公开',
    });
    // 责令整改 needs its requirement and deadline.
    const missing = await post(session.authority, `${CHECKS}/save`, {
      id: mine.id,
      version: mine.version,
      checkDate: today,
      result: 'rectify',
      findings: '电梯应急照明失效',
      isCommit: true,
    });
    expect(missing.body.result).toBe('false');
    const recorded = await ok(session.authority, `${CHECKS}/save`, {
      id: mine.id,
      version: mine.version,
      checkDate: today,
      result: 'rectify',
      findings: '电梯应急照明失效，张三身份证330203199001011234',
      requirement: '修复应急照明',
      rectifyDeadline: addToDate(today, 15, 'd'),
      isCommit: true,
    });
    expect(recorded).toMatchObject({ status: 'checked' });
    expect(String(recorded.orderNo)).toMatch(/^ZG\d{9}$/);
    const order = await ok(session.unit, `/r/supervision-order/get/${String(recorded.orderId)}`);
    expect(order).toMatchObject({
      status: 'issued',
      category: 'check',
      useUnitName: DEMO_UNITS.using.orgname,
      orderNo: recorded.orderNo,
      issueDate: today,
      deadline: addToDate(today, 15, 'd'),
    });
    expect(String(order.problem)).toContain('测试抽查计划');
    const answered = await ok(session.unit, `/r/supervision-order/reply/${order.id}`, {
      rectifyMeasures: '已修复应急照明',
      rectifyFinishDate: today,
      evidence: [{ name: '修复后.jpg', url: '/files/after.jpg' }],
    });
    expect(answered.status).toBe('submitted');

    await ok(session.authority, `${CHECKS}/save`, {
      id: other.id,
      version: other.version,
      checkDate: today,
      result: 'pass',
      findings: '未发现问题',
      isCommit: true,
    });
    expect(await ok(session.authority, `${PLANS}/publish/${plan.id}`)).toMatchObject({ status: 'done', publishDate: today });

    // The open results: this plan's two checks, plan/unit/date/result only.
    const res = await app.inject({ method: 'GET', url: api('/open/inspection-results'), query: { q: '测试抽查计划', pageSize: '50' } });
    expect(res.statusCode).toBe(200);
    const page = res.json<{ data: Page<Record<string, unknown>> }>().data;
    expect(page.count).toBe(2);
    for (const row of page.list)
      expect(Object.keys(row).sort()).toEqual(['checkDate', 'planNo', 'planTitle', 'publishDate', 'result', 'resultLabel', 'unitName']);
    expect(page.list.map((r) => r.resultLabel).sort()).toEqual(['合格', '责令整改']);
    const text = res.body;
    for (const secret of ['330203199001011234', '应急照明', String(mine.inspectors).split('、')[0], String(mine.inspectorCertNos).split('、')[0]])
      expect(text).not.toContain(secret);
  });

  it("publishes only finished plans: the demo's done plan, never a drawn one", async () => {
    const res = await app.inject({ method: 'GET', url: api('/open/inspection-results'), query: { pageSize: '100' } });
    const page = res.json<{ data: Page<Record<string, unknown>> }>().data;
    const titles = new Set(page.list.map((r) => r.planTitle));
    expect(titles.has('2026年第四季度电梯及起重机械使用单位双随机抽查')).toBe(true);
    expect(titles.has('2026年12月压力容器及锅炉专项抽查')).toBe(false);
    expect(page.list.every((r) => r.result !== null && r.checkDate !== null)).toBe(true);
    const { list: plans } = await ok<Page<Row>>(session.authority, `${PLANS}/list`, { pageSize: 50, q: '2026年12月' });
    expect(plans[0].status).toBe('drawn');
  });
});
