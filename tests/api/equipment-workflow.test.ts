/**
 * The equipment domain on the engine: deadlines derived on save from the interval dictionaries,
 * the fixed relative-date filters of the query screens, and the use-registration workflow whose
 * approval issues a certificate number and puts the equipment in use (server hooks in one
 * transaction with the state change).
 */
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, resourceCalls, unitUser } from './helpers';

type Row = Record<string, unknown> & { id: string; status?: string; version: number };

const FILE = [{ name: '使用登记表.pdf', url: '/files/x' }];

describe.each(dbTargets())('equipment, deadlines and use registration (%s)', (target) => {
  const {
    app,
    units: [unit, other],
    session,
  } = appSuite(target, { units: ['330212', '330203'], sessions: { authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const equipment = (sid: string, fields: Record<string, unknown>) =>
    ok(sid, '/r/equipment/save', { equipmentName: '测试设备', useStatus: '0', locationArea: '330212', address: '宁波市鄞州区测试路1号', ...fields });

  describe('deadlines derived on save', () => {
    it.each([
      ['elevator: every year', { equclacode: '3000', subCategory: '3100', lastInspectionDate: '2025-03-01' }, '2026-03-01'],
      ['crane: every 2 years', { equclacode: '4000', subCategory: '4100', lastInspectionDate: '2025-03-01' }, '2027-03-01'],
      ['tower crane: every year', { equclacode: '4000', subCategory: '4300', lastInspectionDate: '2025-03-01' }, '2026-03-01'],
      [
        'crane lifting molten metal: every year',
        { equclacode: '4000', subCategory: '4100', liftsMoltenMetal: true, lastInspectionDate: '2025-03-01' },
        '2026-03-01',
      ],
      ['vessel of grade 1: every 6 years', { equclacode: '2000', subCategory: '2100', safetyGrade: '1', lastInspectionDate: '2024-05-31' }, '2030-05-31'],
      ['vessel of grade 3: every 3 years', { equclacode: '2000', subCategory: '2100', safetyGrade: '3', lastInspectionDate: '2024-05-31' }, '2027-05-31'],
      ['vessel never inspected: 3 years after it was put into use', { equclacode: '2000', subCategory: '2100', putIntoUseDate: '2025-01-31' }, '2028-01-31'],
      ['no basis: no date', { equclacode: '3000', subCategory: '3100' }, null],
    ])('%s', async (_name, fields, next) => {
      const row = await equipment(unit.sid, fields);
      expect(row.nextInspectionDate).toBe(next);
    });

    it('load tests: by sub-category or category interval; none for categories without one', async () => {
      expect((await equipment(unit.sid, { equclacode: '4000', subCategory: '4300', lastLoadTestDate: '2026-01-31' })).nextLoadTestDate).toBe('2027-01-31');
      expect((await equipment(unit.sid, { equclacode: '1000', subCategory: '1100', lastLoadTestDate: '2026-01-31' })).nextLoadTestDate).toBeNull();
    });

    it('recomputes on update and ignores a due date sent by the client (it is readonly)', async () => {
      const row = await equipment(unit.sid, { equclacode: '3000', subCategory: '3100', lastInspectionDate: '2025-03-01', nextInspectionDate: '2099-01-01' });
      expect(row.nextInspectionDate).toBe('2026-03-01');
      const updated = await ok(unit.sid, '/r/equipment/save', { ...row, lastInspectionDate: '2026-02-10' });
      expect(updated.nextInspectionDate).toBe('2027-02-10');
    });
  });

  describe('relative-date filters', () => {
    it('lists what is overdue, due within 30 days, and rejects a malformed relative date', async () => {
      const today = todayIn();
      const sid = (await unitUser(app, '330212')).sid;
      const last = (monthsAgo: number, days: number) => addToDate(addToDate(today, -monthsAgo, 'm'), days, 'd');
      const overdue = await equipment(sid, { equclacode: '3000', subCategory: '3100', useStatus: '1', lastInspectionDate: last(12, -3) });
      const soon = await equipment(sid, { equclacode: '3000', subCategory: '3100', useStatus: '1', lastInspectionDate: last(12, 10) });
      const later = await equipment(sid, { equclacode: '3000', subCategory: '3100', useStatus: '1', lastInspectionDate: last(12, 90) });
      const ids = async (query: Record<string, unknown>) =>
        (await call<Page<Row>>(app, sid, 'GET', '/r/equipment/list', query)).body.data!.list.map((r) => r.id).sort();

      expect(await ids({ nextInspectionDate_lte: 'today-1d', useStatus: '1' })).toEqual([overdue.id]);
      expect(await ids({ nextInspectionDate_gte: 'today', nextInspectionDate_lte: 'today+30d' })).toEqual([soon.id]);
      expect(await ids({ nextInspectionDate_gte: 'today+31d' })).toEqual([later.id]);
      const bad = await call(app, sid, 'GET', '/r/equipment/list', { nextInspectionDate_lte: 'tomorrow' });
      expect(bad.body.result).toBe('false');
    });

    it('q searches any of the resource search fields (what reference pickers send)', async () => {
      const sid = (await unitUser(app, '330212')).sid;
      const a = await equipment(sid, { equclacode: '3000', subCategory: '3100', equipmentName: '东门货梯', equcode: 'DT0001' });
      const b = await equipment(sid, { equclacode: '3000', subCategory: '3100', equipmentName: '西门客梯', internalNo: 'XM-货-02' });
      await equipment(sid, { equclacode: '3000', subCategory: '3100', equipmentName: '南门客梯' });
      const ids = async (q: string) => (await call<Page<Row>>(app, sid, 'GET', '/r/equipment/list', { q })).body.data!.list.map((r) => r.id).sort();
      expect(await ids('货')).toEqual([a.id, b.id].sort());
      expect(await ids('dt0001')).toEqual([a.id]);
      expect(await ids('%')).toEqual([]);
    });
  });

  describe('use registration', () => {
    const APPLICATION = {
      registMode: 'regBySets',
      useUnitName: '测试单位',
      contactPerson: '张三',
      contactMobile: '13805741234',
      useStartDate: '2026-11-01',
      locationArea: '330212',
      applyForm: FILE,
      isCommit: true,
    };
    const apply = async (sid: string, equipmentId: string) =>
      ok(sid, '/r/use-regist-apply/save', {
        ...APPLICATION,
        items: [{ equipment: equipmentId, equclacode: '3000', subCategory: '3100', equipmentName: '乘客电梯' }],
      });

    it('the authority accepts and approves: a certificate number by the convention, the equipment in use', async () => {
      const elevator = await equipment(unit.sid, { equclacode: '3000', subCategory: '3100', equipmentName: '1号乘客电梯' });
      const application = await apply(unit.sid, elevator.id);
      expect(application.status).toBe('submitted');

      await ok(session.authority, `/r/use-regist-apply/accept/${application.id}`);
      const approved = await ok(session.authority, `/r/use-regist-apply/audit-agree/${application.id}`, { opinion: '材料齐全，准予登记' });
      expect(approved.status).toBe('approved');
      expect(approved.certNo).toMatch(/^梯31浙B\d{5}\(\d{2}\)$/);
      expect(String(approved.certNo).endsWith(`(${todayIn().slice(2, 4)})`)).toBe(true);
      expect(approved.issueDate).toBe(todayIn());
      expect(approved.auditOpinion).toBe('材料齐全，准予登记');

      const after = await ok(unit.sid, `/r/equipment/get/${elevator.id}`);
      expect(after.useCertNo).toBe(approved.certNo);
      expect(after.useStatus).toBe('1');
      expect(after.putIntoUseDate).toBe('2026-11-01');
      expect(after.nextInspectionDate).toBe('2027-11-01');

      // The sequence counts per prefix and year.
      const second = await apply(unit.sid, (await equipment(unit.sid, { equclacode: '3000', subCategory: '3100' })).id);
      await ok(session.authority, `/r/use-regist-apply/accept/${second.id}`);
      const next = await ok(session.authority, `/r/use-regist-apply/audit-agree/${second.id}`);
      const seq = (certNo: unknown) => Number(String(certNo).slice(5, 10));
      expect(seq(next.certNo)).toBe(seq(approved.certNo) + 1);
    });

    it('an application without equipment cannot be committed (the equipment list is required on commit)', async () => {
      const { body } = await post(unit.sid, '/r/use-regist-apply/save', { ...APPLICATION, items: [], isCommit: true });
      expect(body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请至少添加一条设备清单' });
    });

    it('a failing effect undoes the whole action: no certificate, equipment untouched, state unchanged', async () => {
      const elevator = await equipment(unit.sid, { equclacode: '3000', subCategory: '3100', equipmentName: '省级地址电梯' });
      // The province has no city letter for a certificate number: the approval's effect fails.
      const application = await ok(unit.sid, '/r/use-regist-apply/save', { ...APPLICATION, locationArea: '330000', items: [{ equipment: elevator.id }] });
      await ok(session.authority, `/r/use-regist-apply/accept/${application.id}`);
      const refused = await post(session.authority, `/r/use-regist-apply/audit-agree/${application.id}`);
      expect(refused.body.result).toBe('false');
      expect(refused.body.message).toBe('区域 330000 未配置登记证编号的省市简称');
      const still = await ok(unit.sid, `/r/use-regist-apply/get/${application.id}`);
      expect(still.status).toBe('accepted');
      expect(still.certNo).toBeNull();
      expect(await ok(unit.sid, `/r/equipment/get/${elevator.id}`)).toMatchObject({ useStatus: '0', useCertNo: null });
    });

    it('a unit cannot approve its own application, and another unit cannot see it', async () => {
      const application = await apply(unit.sid, (await equipment(unit.sid, { equclacode: '3000', subCategory: '3100' })).id);
      expect((await post(unit.sid, `/r/use-regist-apply/accept/${application.id}`)).body.result).toBe('false');
      expect((await post(other.sid, `/r/use-regist-apply/get/${application.id}`)).body.result).toBe('false');
      expect((await ok(unit.sid, `/r/use-regist-apply/get/${application.id}`)).status).toBe('submitted');
    });

    it('an approved stop (停用) application puts the equipment out of use', async () => {
      const elevator = await equipment(unit.sid, { equclacode: '3000', subCategory: '3100', useStatus: '1' });
      const change = await ok(unit.sid, '/r/use-change-apply/save', {
        changeType: 'stop',
        useUnitName: '测试单位',
        effectiveDate: '2026-12-01',
        reason: '设备停产检修',
        contactPerson: '张三',
        contactMobile: '13805741234',
        applyForm: FILE,
        items: [{ equipment: elevator.id }],
        isCommit: true,
      });
      await ok(session.authority, `/r/use-change-apply/accept/${change.id}`);
      await ok(session.authority, `/r/use-change-apply/audit-agree/${change.id}`);
      expect((await ok(unit.sid, `/r/equipment/get/${elevator.id}`)).useStatus).toBe('2');
    });
  });

  describe('inspection history and on-site checks', () => {
    it('inspection records are read-only through the API (written by the server only)', async () => {
      const refused = await post(unit.sid, '/r/inspection-record/save', { inspectionType: 'periodic', inspectionDate: '2026-01-01', conclusion: '1' });
      expect(refused.status).toBe(404);
      expect(refused.body.result).toBe('false');
      expect((await call<Page<Row>>(app, unit.sid, 'GET', '/r/inspection-record/list')).body.result).toBe('true');
    });

    it('a unit records an on-site check with its checklist; another unit cannot see it', async () => {
      const crane = await equipment(unit.sid, { equclacode: '4000', subCategory: '4300', equipmentName: '2号塔吊' });
      const check = await ok(unit.sid, '/r/self-check/save', {
        equipment: crane.id,
        equipmentName: '2号塔吊',
        checkDate: '2026-11-20',
        checker: '李海峰',
        conclusion: 'rectify',
        problems: '限位器失灵',
        rectifyDeadline: '2026-12-05',
        items: [{ checkItem: 'safety-device', result: 'issue', remark: '起升高度限位器失灵' }, { checkItem: 'operator' }],
      });
      expect((check.items as Row[]).map((r) => r.result)).toEqual(['issue', 'ok']);
      expect((await post(other.sid, `/r/self-check/get/${check.id}`)).body.result).toBe('false');
    });
  });
});
