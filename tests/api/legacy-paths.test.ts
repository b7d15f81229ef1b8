/**
 * The original clients' paths beyond a resource's own aliases (the original API): the pre-filtered
 * equipment lists answer exactly what their query screens show (the screen's fixed conditions
 * always, its filter defaults until the caller sends a value), each with an export of the screen's
 * columns; the pipeline lists by category; a use registration's attachments and steps; and the
 * online inspection application's legacy identifiers (onlinelsh, authCode) and isPc.
 */
import { describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import { XLSX_CONTENT_TYPE } from '../../src/server/resources/xlsx/export';
import { api, appSuite, call, dbTargets, resourceCalls, unitUser, withSession } from './helpers';

type Row = Record<string, unknown> & { id: string; version: number; status?: string };

describe.each(dbTargets())('legacy paths (%s)', (target) => {
  const { app } = appSuite(target);
  const { ok } = resourceCalls<Row>(() => app);
  const equipment = (sid: string, fields: Record<string, unknown>) =>
    ok(sid, '/r/equipment/save', {
      equipmentName: '测试设备',
      useStatus: '1',
      locationArea: '330212',
      address: '宁波市鄞州区测试路1号',
      equclacode: '3000',
      subCategory: '3100',
      ...fields,
    });
  const ids = async (sid: string, path: string, query: Record<string, string> = {}) =>
    (await call<Page<Row>>(app, sid, 'GET', path, { pageSize: '100', ...query })).body.data!.list.map((r) => r.id).sort();

  it("the inspection lists answer what their query screens show, with the caller's range over the default", async () => {
    const { sid } = await unitUser(app, '330212');
    const lastFor = (days: number) => addToDate(addToDate(todayIn(), -12, 'm'), days, 'd'); // elevators: every year
    const overdue = await equipment(sid, { lastInspectionDate: lastFor(-3) });
    const soon = await equipment(sid, { lastInspectionDate: lastFor(10) });
    const later = await equipment(sid, { lastInspectionDate: lastFor(90) });
    await equipment(sid, { lastInspectionDate: lastFor(10), useStatus: '2' }); // stopped: on no inspection list
    const crane = await equipment(sid, { equclacode: '4000', subCategory: '4300', lastLoadTestDate: addToDate(addToDate(todayIn(), -12, 'm'), 5, 'd') });

    expect(await ids(sid, '/a/stone/eqm/detectDueList')).toEqual([soon.id]);
    expect(await ids(sid, '/a/stone/eqm/detectExtendedList')).toEqual([overdue.id]);
    // The caller's own window replaces the default one (a bound of the range replaces both); the overdue list's condition is fixed.
    expect(await ids(sid, '/a/stone/eqm/detectDueList', { nextInspectionDate_gte: 'today', nextInspectionDate_lte: 'today+120d' })).toEqual(
      [soon.id, later.id].sort(),
    );
    expect(await ids(sid, '/a/stone/eqm/detectDueList', { nextInspectionDate_lte: 'today+120d' })).toEqual([overdue.id, soon.id, later.id].sort());
    expect(await ids(sid, '/a/stone/eqm/detectExtendedList', { nextInspectionDate_lte: 'today+120d' })).toEqual([overdue.id]);
    expect(await ids(sid, '/a/stone/eqm/loadTestList')).toContain(crane.id);
    expect(await ids(sid, '/a/stone/eqm/loadTestList')).not.toContain(soon.id);

    const exported = await withSession(app, sid, { method: 'GET', url: api('/a/stone/eqm/detectDueList/export') });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toContain(XLSX_CONTENT_TYPE);
    expect(exported.headers['content-disposition']).toContain(encodeURIComponent('即将到期设备'));
  });

  it('the pressure piping list holds category 8000, the pipeline list its long-distance pipelines only', async () => {
    const { sid } = await unitUser(app, '330212');
    const pipeline = await equipment(sid, { equclacode: '8000', subCategory: '8100', equipmentName: '长输管道' });
    const industrial = await equipment(sid, { equclacode: '8000', subCategory: '8300', equipmentName: '工业管道' });
    await equipment(sid, {});
    expect(await ids(sid, '/a/stone/eqm/pressurePipingList')).toEqual([pipeline.id, industrial.id].sort());
    expect(await ids(sid, '/a/stone/eqm/pipelineList')).toEqual([pipeline.id]);
    // A caller cannot lift the fixed category.
    expect(await ids(sid, '/a/stone/eqm/pipelineList', { subCategory: '3100' })).toEqual([pipeline.id]);
  });

  it("a use registration's detail, attachments and steps under both legacy path sets, for its own unit only", async () => {
    const unit = await unitUser(app, '330212');
    const other = await unitUser(app, '330212');
    const elevator = await equipment(unit.sid, { useStatus: '0' });
    const form = [{ name: '使用登记表.pdf', url: '/files/x' }];
    const application = await ok(unit.sid, '/r/use-regist-apply/save', {
      registMode: 'regBySets',
      useUnitName: '测试单位',
      contactPerson: '张三',
      contactMobile: '13805741234',
      useStartDate: '2026-11-01',
      locationArea: '330212',
      applyForm: form,
      isCommit: true,
      items: [{ equipment: elevator.id, equclacode: '3000', subCategory: '3100', equipmentName: '乘客电梯' }],
    });
    for (const base of ['/a/stone/useManage', '/a/stone/epPemUseregistApply']) {
      const files = (await call<Array<{ field: string; label: string; files: unknown[] }>>(app, unit.sid, 'GET', `${base}/attachments`, { id: application.id }))
        .body.data!;
      expect(files.find((f) => f.field === 'applyForm')).toMatchObject({ label: '使用登记表', files: form });
      expect(files.map((f) => f.label)).toEqual(expect.arrayContaining(['产品合格证', '监督检验报告']));
      expect((await call<Row>(app, unit.sid, 'GET', `${base}/detail`, { id: application.id })).body.data!.id).toBe(application.id);
      const steps = (await call<Array<{ action: string }>>(app, unit.sid, 'GET', `${base}/processSteps`, { id: application.id })).body.data!;
      expect(steps.map((s) => s.action)).toContain('commit');
      expect((await call(app, other.sid, 'GET', `${base}/attachments`, { id: application.id })).body).toMatchObject({
        result: 'false',
        message: '记录不存在或无权访问',
      });
    }
  });

  it('an online inspection application carries onlinelsh (its number), the authCode its client sends (checked on later saves), and isPc', async () => {
    const unit = await unitUser(app, '330212');
    const elevator = await equipment(unit.sid, {});
    const body = { expectedDate: addToDate(todayIn(), 7, 'd'), contactMobile: '13805741234', items: [{ equipment: elevator.id }] };
    const fromPc = await ok(unit.sid, '/a/stone/appOnline/save', { ...body, authCode: '482913' });
    expect(fromPc.onlinelsh).toBe(fromPc.applyNo);
    expect(fromPc.authCode).toBe('482913');
    expect(fromPc.isPc).toBe(true);
    expect((await call<Row>(app, unit.sid, 'GET', '/a/stone/appOnline/detail', { id: fromPc.id })).body.data!.authCode).toBe('482913');
    // The same code again, or none, keeps it; another one is refused and changes nothing.
    const again = await ok(unit.sid, '/a/stone/appOnline/save', { ...body, id: fromPc.id, version: fromPc.version, authCode: '482913', onlinelsh: 'X' });
    expect(again).toMatchObject({ authCode: '482913', onlinelsh: fromPc.applyNo });
    const without = await ok(unit.sid, '/a/stone/appOnline/save', { ...body, id: fromPc.id, version: again.version });
    expect(without.authCode).toBe('482913');
    const foreign = await call(app, unit.sid, 'POST', '/a/stone/appOnline/save', { ...body, id: fromPc.id, version: without.version, authCode: '000000' });
    expect(foreign.body).toMatchObject({ result: 'false', code: 'AUTH_CODE_MISMATCH', message: '报检授权码与该申请不符' });
    expect((await call<Row>(app, unit.sid, 'GET', '/a/stone/appOnline/detail', { id: fromPc.id })).body.data!).toMatchObject({
      authCode: '482913',
      version: without.version,
    });
    const malformed = await call(app, unit.sid, 'POST', '/a/stone/appOnline/save', { ...body, authCode: '12ab' });
    expect(malformed.body).toMatchObject({ result: 'false', code: 'AUTH_CODE_INVALID' });
    // Without a code of its own the client gets one drawn by the server.
    const fromPhone = await ok(unit.sid, '/a/stone/appOnline/save', { ...body, isPc: false });
    expect(fromPhone.isPc).toBe(false);
    expect(fromPhone.authCode).toMatch(/^\d{6}$/);
    expect(fromPhone.onlinelsh).not.toBe(fromPc.onlinelsh);
  });

  it("legacy names are read as the engine's on every legacy path of a resource, query or body", async () => {
    const unit = await unitUser(app, '330212');
    const other = await unitUser(app, '330212');
    const elevator = await equipment(unit.sid, { equipmentName: '一号梯' });
    // The detail under the original identifier, by query and by body.
    expect((await call<Row>(app, unit.sid, 'GET', '/a/stone/eqm/getDetailBy', { equdatasysid: elevator.id })).body.data!.id).toBe(elevator.id);
    expect((await call<Row>(app, unit.sid, 'POST', '/a/stone/eqm/getDetailBy', { equdatasysid: elevator.id })).body.data!.equipmentName).toBe('一号梯');
    // The engine's own name wins when both are sent; the scope still holds under the legacy name.
    expect((await call(app, unit.sid, 'GET', '/a/stone/eqm/getDetailBy', { id: elevator.id, equdatasysid: 'f'.repeat(32) })).body).toMatchObject({
      result: 'true',
    });
    expect((await call(app, other.sid, 'GET', '/a/stone/eqm/getDetailBy', { equdatasysid: elevator.id })).body).toMatchObject({ result: 'false' });
    // A save under the legacy identifier updates that record (a feature's legacy row as well as the resource's alias).
    const fields = { useStatus: '1', locationArea: '330212', address: '宁波市鄞州区测试路1号', equclacode: '3000', subCategory: '3100' };
    const renamed = await ok(unit.sid, '/a/stone/eqm/addEqm', { ...fields, equdatasysid: elevator.id, version: elevator.version, equipmentName: '二号梯' });
    expect(renamed).toMatchObject({ id: elevator.id, equipmentName: '二号梯' });
    const changed = await ok(unit.sid, '/a/stone/eqm/changeEqm', { ...fields, equdatasysid: elevator.id, version: renamed.version, equipmentName: '三号梯' });
    expect(changed).toMatchObject({ id: elevator.id, equipmentName: '三号梯' });
    // A sub-table's rows under its own legacy names: the online inspection items name their equipment by equdatasysid.
    const application = await ok(unit.sid, '/a/stone/appOnline/save', {
      expectedDate: addToDate(todayIn(), 7, 'd'),
      contactMobile: '13805741234',
      items: [{ equdatasysid: elevator.id }],
    });
    expect((application.items as Row[]).map((i) => [i.equipment, i.fee])).toEqual([[elevator.id, 700]]);
    // The canonical routes take only the engine's names.
    expect((await call(app, unit.sid, 'GET', '/r/equipment/get', { equdatasysid: elevator.id })).body).toMatchObject({ result: 'false' });
    expect(
      (
        await call(app, unit.sid, 'POST', '/r/online-apply/save', {
          expectedDate: addToDate(todayIn(), 7, 'd'),
          contactMobile: '13805741234',
          items: [{ equdatasysid: elevator.id }],
        })
      ).body,
    ).toMatchObject({ result: 'false' });
  });
});
