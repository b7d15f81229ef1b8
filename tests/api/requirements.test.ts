/**
 * What a form requires, the server refuses when the body is posted directly (src/schema/
 * requirements.ts, read from the resource JSON by both sides): conditional requirements
 * (requiredWhen), requirements of a commit only (requiredOn: a draft may be incomplete), sub-tables
 * that need a row, date bounds (notBefore / notAfter, relative or another field), and relevance
 * (`when`: a field that does not apply is not stored). Each refusal changes nothing and answers
 * VALIDATION_FAILED with the field and a Chinese message naming it.
 */
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';

type Row = Record<string, unknown> & { id: string; status?: string };

const FILE = [{ name: '登记表.pdf', url: '' }];
const CONTACT = { contactPerson: '张伟', contactMobile: '13805740001' };

describe.each(dbTargets())('field requirements enforced by the server (%s)', (target) => {
  const {
    app,
    units: [unit],
    session,
  } = appSuite(target, { units: ['330212'], sessions: { authority: 'jgadmin' } });
  const today = todayIn();
  /**
   * Runs a check of a bound relative to today with China's date; a check that failed while midnight
   * passed in China (the server read the new day, the test the old) runs once more on the new day.
   * The exact boundaries at fixed instants are in tests/unit/requirements.test.ts.
   */
  const onOneDay = async (check: (day: string) => Promise<void>) => {
    const day = todayIn();
    try {
      await check(day);
    } catch (error) {
      if (todayIn() === day) throw error;
      await check(todayIn());
    }
  };

  const post = (path: string, body: Record<string, unknown> = {}, sid = unit.sid) => call<Row>(app, sid, 'POST', path, body);
  const saved = async (path: string, body: Record<string, unknown>) => {
    const { body: envelope } = await post(path, body);
    expect(envelope.result, envelope.message).toBe('true');
    return envelope.data!;
  };
  /** Posts and expects the refusal of `field` with `message`; returns nothing was stored (count unchanged). */
  const refused = async (resource: string, body: Record<string, unknown>, field: string, message: string) => {
    const count = async () => (await call<Page<Row>>(app, unit.sid, 'POST', `/r/${resource}/list`, { pageSize: 1 })).body.data!.count;
    const before = await count();
    const { body: envelope } = await post(`/r/${resource}/save`, body);
    expect(envelope).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message, data: { field } });
    expect(await count()).toBe(before);
  };
  const equipment = (fields: Record<string, unknown> = {}) =>
    saved('/r/equipment/save', {
      equipmentName: '测试电梯',
      equclacode: '3000',
      subCategory: '3100',
      useStatus: '0',
      locationArea: '330212',
      address: '宁波市鄞州区测试路1号',
      ...fields,
    });

  describe('conditional requirements (requiredWhen) and relevance (when)', () => {
    it('demo notice: an urgent notice needs its reason; a reason without urgency is not stored', async () => {
      await refused('demo-notice', { title: '紧急通知', content: '正文', urgent: true }, 'urgentReason', '请填写紧急原因');
      const row = await saved('/r/demo-notice/save', { title: '普通通知', content: '正文', urgent: false, urgentReason: '不该保存' });
      expect(row.urgentReason).toBeNull();
      expect((await saved('/r/demo-notice/save', { title: '紧急', content: '正文', urgent: true, urgentReason: '停电检修' })).urgentReason).toBe('停电检修');
    });

    it('change registration: the new unit for a change of unit, the new address for a change of address', async () => {
      const base = { useUnitName: '单位', effectiveDate: today, reason: '变更', ...CONTACT };
      await refused('use-change-apply', { ...base, changeType: 'unit' }, 'newUseUnitName', '请填写变更后使用单位');
      await refused('use-change-apply', { ...base, changeType: 'unit', newUseUnitName: '新单位' }, 'newUseUnitCreditCode', '请填写变更后单位统一社会信用代码');
      await refused('use-change-apply', { ...base, changeType: 'address' }, 'newLocationArea', '请选择变更后所在区域');
      await refused('use-change-apply', { ...base, changeType: 'address', newLocationArea: '330206' }, 'newAddress', '请填写变更后使用地点');
      const stop = await saved('/r/use-change-apply/save', { ...base, changeType: 'stop', newUseUnitName: '不相关', newAddress: '不相关' });
      expect([stop.newUseUnitName, stop.newAddress, stop.status]).toEqual([null, null, 'draft']);
    });

    it('use registration by unit names the category; by sets it does not', async () => {
      const base = {
        useUnitName: '单位',
        useUnitCreditCode: '91330212MA2CL8F54L',
        useUnitAddress: '地址',
        locationArea: '330212',
        useStartDate: today,
        reason: '投入使用',
        ...CONTACT,
      };
      await refused('use-regist-apply', { ...base, registMode: 'regByUnit' }, 'equclacode', '请选择设备种类');
      expect((await saved('/r/use-regist-apply/save', { ...base, registMode: 'regBySets', equclacode: '3000' })).equclacode).toBeNull();
    });

    it('on-site check: a check to rectify needs the problems, the measures’ deadline, and a deadline not before the check', async () => {
      const item = await equipment();
      const base = { equipment: item.id, checkDate: today, checker: '王建国' };
      await refused('self-check', { ...base, conclusion: 'rectify' }, 'problems', '请填写发现问题');
      await refused('self-check', { ...base, conclusion: 'rectify', problems: '限位失灵' }, 'rectifyDeadline', '请选择整改期限');
      await refused(
        'self-check',
        { ...base, conclusion: 'rectify', problems: '限位失灵', rectifyDeadline: addToDate(today, -1, 'd') },
        'rectifyDeadline',
        '整改期限不能早于检查日期',
      );
      const pass = await saved('/r/self-check/save', { ...base, conclusion: 'pass', rectification: '无需整改', rectifyDeadline: addToDate(today, 7, 'd') });
      expect([pass.rectification, pass.rectifyDeadline]).toEqual([null, null]);
    });

    it('pressure piping needs its sub-category; other equipment may leave it out', async () => {
      const { body } = await post('/r/equipment/save', {
        equipmentName: '蒸汽管道',
        equclacode: '8000',
        useStatus: '0',
        locationArea: '330212',
        address: '厂区',
      });
      expect(body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请选择设备类别', data: { field: 'subCategory' } });
      expect((await equipment({ subCategory: null })).subCategory).toBeNull();
    });
  });

  describe('date bounds (notBefore / notAfter)', () => {
    it('an on-site check cannot be dated in the future', async () => {
      const item = await equipment();
      await onOneDay((day) =>
        refused(
          'self-check',
          { equipment: item.id, checkDate: addToDate(day, 1, 'd'), checker: '王建国', conclusion: 'pass' },
          'checkDate',
          '检查日期不能晚于今天',
        ),
      );
    });

    it('an online inspection cannot be expected in the past; a sub-table needs a row', async () => {
      const base = { applicant: '单位', ...CONTACT, inspectionAddress: '地址' };
      await onOneDay(async (day) => {
        await refused('online-apply', { ...base, expectedDate: addToDate(day, -1, 'd'), items: [] }, 'expectedDate', '期望检验日期不能早于今天');
        await refused('online-apply', { ...base, expectedDate: day, items: [] }, 'items', '请至少选择一台报检设备');
      });
    });

    it('an old date does not block an edit of other fields (bounds are checked when the value changes)', async () => {
      const item = await equipment();
      const check = await saved('/r/self-check/save', { equipment: item.id, checkDate: today, checker: '王建国', conclusion: 'pass' });
      await app.db
        .updateTable('self_check' as never)
        .set({ check_date: '2030-01-01' } as never)
        .where('id' as never, '=', check.id as never)
        .execute();
      expect(
        (await saved('/r/self-check/save', { id: check.id, equipment: item.id, checkDate: '2030-01-01', checker: '李四', conclusion: 'pass' })).checker,
      ).toBe('李四');
    });
  });

  describe('requirements of a commit (requiredOn)', () => {
    const registration = {
      registMode: 'regBySets',
      useUnitName: '单位',
      useUnitCreditCode: '91330212MA2CL8F54L',
      useUnitAddress: '地址',
      locationArea: '330212',
      useStartDate: today,
      reason: '投入使用',
      ...CONTACT,
    };

    it('a draft may lack the equipment list and the form; its commit may not, and nothing changes', async () => {
      const draft = await saved('/r/use-regist-apply/save', registration);
      expect(draft.status).toBe('draft');
      const commit = await post(`/r/use-regist-apply/commit/${draft.id}`);
      expect(commit.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '请至少添加一条设备清单', data: { field: 'items' } });
      const item = await equipment();
      const withItems = await saved('/r/use-regist-apply/save', { ...registration, id: draft.id, items: [{ equipment: item.id }] });
      expect((await post(`/r/use-regist-apply/commit/${draft.id}`)).body).toMatchObject({
        result: 'false',
        message: '请上传使用登记表',
        data: { field: 'applyForm' },
      });
      expect(withItems.status).toBe('draft');
      // Save and commit in one request is held to the same requirements, all or nothing.
      const { body } = await post('/r/use-regist-apply/save', { ...registration, items: [{ equipment: item.id }], isCommit: true });
      expect(body).toMatchObject({ result: 'false', message: '请上传使用登记表' });
      expect((await saved('/r/use-regist-apply/save', { ...registration, id: draft.id, applyForm: FILE, isCommit: true })).status).toBe('submitted');
    });

    it('the authority never sees the incomplete draft, and approves only what was committed complete', async () => {
      const draft = await saved('/r/use-change-apply/save', { changeType: 'stop', useUnitName: '单位', effectiveDate: today, reason: '停产', ...CONTACT });
      expect((await post(`/r/use-change-apply/accept/${draft.id}`, {}, session.authority)).body.code).toBe('RECORD_NOT_FOUND');
      expect((await post(`/r/use-change-apply/commit/${draft.id}`)).body).toMatchObject({ result: 'false', data: { field: 'items' } });
    });
  });
});
