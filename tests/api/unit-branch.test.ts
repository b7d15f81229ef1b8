/**
 * The unit's branches (分支机构, the original API /a/stone/unit branch; /company-info/branch): kept by the
 * unit like its safety departments — save, list, get and delete through /r/unit-branch and the
 * legacy paths; the credit-code and mobile rules refuse with the catalogue's messages and store
 * nothing; the name is unique within the unit only; the two demo using units never see or touch
 * each other's branches; neither the authority nor a sub-account without the menu reach them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { makeUscc } from '../../src/server/db/uscc';
import { companyFeature } from '../../src/server/domain/company-info/index';
import { addToDate, todayIn } from '../../src/shared/dates';
import { messages } from '../../validators';
import { appSuite, call, dbTargets, resourceCalls, sessionOf } from './helpers';

type Row = Record<string, unknown> & { id: string; version: number };
type Page = { list: Row[]; count: number };

describe.each(dbTargets())('unit branches (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();

  beforeAll(async () => {
    await seedDemoRecords(app, { features: [companyFeature] });
  });

  const list = async (sid: string, query: Record<string, unknown> = {}) =>
    (await call<Page>(app, sid, 'GET', '/r/unit-branch/list', { pageSize: '100', ...query })).body.data!;
  const get = (sid: string, id: string) => call<Row>(app, sid, 'GET', `/r/unit-branch/get/${id}`);
  const branch = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    creditCode: makeUscc('91', '330213', 'MA2K3P7Q'),
    head: '林海',
    headMobile: '13805749901',
    phone: '0574-88776655',
    area: '330213',
    address: '浙江省宁波市奉化区岳林街道南山路1号',
    establishedDate: addToDate(today, -200, 'd'),
    businessScope: '特种设备使用管理',
    ...extra,
  });

  it('seeds each demo using unit its own branches, in its own districts', async () => {
    const mine = await list(session.unit);
    const theirs = await list(session.other);
    expect(mine.list.map((r) => r.name).sort()).toEqual(['宁波甬江特种设备使用有限公司余姚分公司', '宁波甬江特种设备使用有限公司慈溪分公司'].sort());
    expect(theirs.list.map((r) => r.name)).toEqual(['宁波北仑港城起重设备使用有限公司镇海分公司']);
    for (const row of [...mine.list, ...theirs.list]) {
      expect(String(row.area).slice(0, 4)).toBe('3302');
      expect(row.creditCode).toMatch(/^913302/);
      expect(row.licence).toHaveLength(1);
    }
    expect(mine.list.every((r) => r.unitId === DEMO_UNITS.using.id)).toBe(true);
    expect(theirs.list.every((r) => r.unitId === DEMO_UNITS.second.id)).toBe(true);
  });

  it('saves, lists, reads, updates and deletes a branch through /r/unit-branch', async () => {
    const saved = await ok(session.unit, '/r/unit-branch/save', branch('宁波甬江特种设备使用有限公司奉化分公司'));
    expect(saved).toMatchObject({ name: '宁波甬江特种设备使用有限公司奉化分公司', head: '林海', area: '330213' });
    const found = await list(session.unit, { name: '奉化' });
    expect(found.list.map((r) => r.id)).toEqual([saved.id]);
    expect((await get(session.unit, saved.id)).body.data).toMatchObject({ id: saved.id, headMobile: '13805749901' });

    const updated = await ok(session.unit, '/r/unit-branch/save', {
      ...branch('宁波甬江特种设备使用有限公司奉化分公司'),
      id: saved.id,
      version: saved.version,
      head: '林涛',
    });
    expect(updated.head).toBe('林涛');
    expect((await get(session.unit, saved.id)).body.data?.head).toBe('林涛');

    expect((await post(session.unit, `/r/unit-branch/delete/${saved.id}`)).body).toMatchObject({ result: 'true' });
    expect((await get(session.unit, saved.id)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await list(session.unit, { name: '奉化' })).count).toBe(0);
  });

  it('places a new branch in the platform city when no area is given', async () => {
    const { area: _area, ...rest } = branch('宁波甬江特种设备使用有限公司默认地区测试点');
    const saved = await ok(session.unit, '/r/unit-branch/save', rest);
    expect(saved.area).toBe('330200');
    await ok(session.unit, `/r/unit-branch/delete/${saved.id}`);
  });

  it('answers the legacy /a/stone/unit/branch paths', async () => {
    const saved = await post(session.unit, '/a/stone/unit/branch/save', branch('宁波甬江特种设备使用有限公司象山办事处', { area: '330225' }));
    expect(saved.body.result, saved.body.message).toBe('true');
    const id = saved.body.data!.id;
    const listed = await call<Page>(app, session.unit, 'GET', '/a/stone/unit/branch/list', { name: '象山' });
    expect(listed.body.data?.list.map((r) => r.id)).toEqual([id]);
    const got = await call<Row>(app, session.unit, 'GET', '/a/stone/unit/branch/get', { id });
    expect(got.body.data).toMatchObject({ id, area: '330225' });
    expect((await post(session.unit, '/a/stone/unit/branch/delete', { id })).body.result).toBe('true');
    expect((await get(session.unit, id)).body.result).toBe('false');
  });

  it('refuses a bad credit code and a bad mobile with the catalogue messages, storing nothing', async () => {
    const before = (await list(session.unit)).count;
    const badCode = await post(session.unit, '/r/unit-branch/save', branch('校验测试分公司', { creditCode: '91330213MA2K3P7Q00' }));
    expect(badCode.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: messages.unifiedCreditCode, data: { field: 'creditCode' } });
    expect(messages.unifiedCreditCode).toBe('请输入有效的统一社会信用代码');
    const badMobile = await post(session.unit, '/r/unit-branch/save', branch('校验测试分公司', { headMobile: '1380574990' }));
    expect(badMobile.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: messages.mobile, data: { field: 'headMobile' } });
    expect(messages.mobile).toBe('请输入有效的手机号码');
    const badPhone = await post(session.unit, '/r/unit-branch/save', branch('校验测试分公司', { phone: '12345' }));
    expect(badPhone.body).toMatchObject({ result: 'false', message: messages.phoneOrLandline, data: { field: 'phone' } });
    const future = await post(session.unit, '/r/unit-branch/save', branch('校验测试分公司', { establishedDate: addToDate(today, 1, 'd') }));
    expect(future.body).toMatchObject({ result: 'false', data: { field: 'establishedDate' } });
    const noHead = await post(session.unit, '/r/unit-branch/save', branch('校验测试分公司', { head: '' }));
    expect(noHead.body).toMatchObject({ result: 'false', data: { field: 'head' } });
    expect((await list(session.unit)).count).toBe(before);
  });

  it('keeps the name unique within the unit only', async () => {
    const [seeded] = (await list(session.unit)).list;
    const duplicate = await post(session.unit, '/r/unit-branch/save', branch(String(seeded.name)));
    expect(duplicate.body).toMatchObject({ result: 'false', message: '分支机构名称已存在，不能重复' });
    const elsewhere = await ok(session.other, '/r/unit-branch/save', branch(String(seeded.name)));
    await ok(session.other, `/r/unit-branch/delete/${elsewhere.id}`);
  });

  it("never lets one using unit see or touch the other's branches", async () => {
    const mine = await list(session.unit);
    const theirs = await list(session.other);
    const myIds = new Set(mine.list.map((r) => r.id));
    expect(theirs.list.some((r) => myIds.has(r.id))).toBe(false);

    const foreign = mine.list[0];
    const sid = session.other;
    expect((await get(sid, foreign.id)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await call<Row>(app, sid, 'GET', '/a/stone/unit/branch/get', { id: foreign.id })).body.result).toBe('false');
    const { id: _id, version: _v, unitId: _u, areaCode: _a, createDate: _cd, updateDate: _ud, createBy: _cb, updateBy: _ub, ...listed } = foreign;
    // Valid numbers in place of the list's masked ones: the refusal is about whose record it is.
    const values = { ...listed, headMobile: '13905740000', phone: '0574-88000000' };
    const overwrite = await post(sid, '/r/unit-branch/save', { ...values, id: foreign.id, version: foreign.version, head: '冒名' });
    expect(overwrite.body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await post(sid, '/a/stone/unit/branch/save', { ...values, id: foreign.id, version: foreign.version, head: '冒名' })).body.result).toBe('false');
    expect((await post(sid, `/r/unit-branch/delete/${foreign.id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await post(sid, '/a/stone/unit/branch/delete', { id: foreign.id })).body.result).toBe('false');
    expect((await get(session.unit, foreign.id)).body.data).toMatchObject({ id: foreign.id, head: foreign.head, version: foreign.version });
    expect((await list(session.unit)).count).toBe(mine.count);
    expect((await list(session.other)).count).toBe(theirs.count);
  });

  it('refuses the authority and a sub-account without the menu, as it does for the safety department', async () => {
    const [row] = (await list(session.unit)).list;
    const sub = await sessionOf(app, 'nbsub');
    for (const sid of [session.authority, sub]) {
      expect((await call(app, sid, 'GET', '/r/safety-dept/list')).status).toBe(403);
      expect((await call(app, sid, 'GET', '/r/unit-branch/list')).status).toBe(403);
      expect((await call(app, sid, 'GET', '/a/stone/unit/branch/list')).status).toBe(403);
      expect((await call(app, sid, 'GET', `/r/unit-branch/get/${row.id}`)).status).toBe(403);
      expect((await call(app, sid, 'POST', '/r/unit-branch/save', branch('越权分公司'))).status).toBe(403);
      expect((await call(app, sid, 'POST', `/r/unit-branch/delete/${row.id}`)).status).toBe(403);
    }
    expect((await get(session.unit, row.id)).body.data?.id).toBe(row.id);
  });
});
