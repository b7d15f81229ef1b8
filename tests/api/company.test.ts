/**
 * The unit's own information (/company-info): the profile is written by the server only;
 * a change application records what differs, commits only with a change and while none other
 * waits, and on the authority's approval becomes the profile's next version (history, the login
 * unit's contact); the unit type changes the same way; another unit and a sub-account without the
 * menu change nothing; safety personnel keep the identity rules; the legacy paths answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { appSuite, call, dbTargets, resourceCalls, sessionOf } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };
type Page = { list: Row[]; count: number };

describe.each(dbTargets())('company information (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 6, secondEquipment: 4 });
  }, 180_000);

  const list = async (sid: string, resource: string, query: Record<string, unknown> = {}) =>
    (await call<Page>(app, sid, 'GET', `/r/${resource}/list`, query)).body.data!;
  const profileOf = async (sid: string) => {
    const page = await list(sid, 'unit-profile');
    expect(page.count).toBe(1);
    // The edit view's read: the owner sees its masked fields (contact mobile, legal ID card) whole.
    return ok(sid, `/r/unit-profile/get/${page.list[0].id}`);
  };
  /** A new application starting from the profile, as the form does (ref with copy). */
  const changeFrom = (profile: Row, changes: Record<string, unknown>) => {
    const {
      id,
      version: _v,
      versionNo: _n,
      changedDate: _d,
      creditCode: _c,
      unitType: _t,
      unitId: _u,
      areaCode: _a,
      createDate: _cd,
      updateDate: _ud,
      createBy: _cb,
      updateBy: _ub,
      ...carried
    } = profile;
    return { ...carried, profile: id, reason: '联系人变更', ...changes };
  };

  it('has one profile per unit, written by the server only', async () => {
    const mine = await profileOf(session.unit);
    const theirs = await profileOf(session.other);
    expect(mine).toMatchObject({
      orgname: DEMO_UNITS.using.orgname,
      creditCode: DEMO_UNITS.using.orgcode,
      unitType: 'use',
      versionNo: 2,
      contactMobile: '13805740001',
    });
    expect(theirs.orgname).toBe(DEMO_UNITS.second.orgname);
    const write = await post(session.unit, '/r/unit-profile/save', { ...mine, contactMobile: '13900000000' });
    expect(write.body.result).toBe('false');
    expect((await profileOf(session.unit)).contactMobile).toBe('13805740001');
  });

  it('records the change, commits it once, and on approval makes it the next version', async () => {
    const profile = await profileOf(session.unit);
    const draft = await ok(session.unit, '/r/unit-change/save', changeFrom(profile, { contactMobile: '13905740002', landline: '0574-88990011' }));
    // Masked fields are recorded masked (their whole values are compared).
    expect(draft.changes).toBe('联系手机：138****0001 → 139****0002\n固定电话：0574-****3456 → 0574-****0011');
    await ok(session.unit, `/r/unit-change/commit/${draft.id}`);

    const second = await ok(session.unit, '/r/unit-change/save', changeFrom(profile, { email: 'new@yongjiang-tz.cn' }));
    expect((await post(session.unit, `/r/unit-change/commit/${second.id}`)).body).toMatchObject({
      result: 'false',
      message: '已有待审核的变更申请，请等待审核结果或撤回后再提交',
    });

    expect((await post(session.unit, `/r/unit-change/audit-agree/${draft.id}`)).body.result).toBe('false');
    await ok(session.authority, `/r/unit-change/audit-agree/${draft.id}`, { opinion: '同意' });
    const after = await profileOf(session.unit);
    expect(after).toMatchObject({ contactMobile: '13905740002', landline: '0574-88990011', versionNo: 3 });
    const versions = await list(session.unit, 'unit-version', { orderBy: 'versionNo desc' });
    expect(versions.list.map((v) => v.versionNo)).toEqual([3, 2, 1]);
    expect(versions.list[0]).toMatchObject({ contactMobile: '139****0002', changes: draft.changes });
    const unit = await call<{ contactPhone: string }>(app, session.unit, 'GET', '/a/stone/user/unit');
    expect(unit.body.data?.contactPhone).toBe('0574-88990011');
    // The waiting one is gone, so the second may go now.
    await ok(session.unit, `/r/unit-change/commit/${second.id}`);
  });

  it('refuses to submit an application that changes nothing', async () => {
    const profile = await profileOf(session.other);
    const draft = await ok(session.other, '/r/unit-change/save', changeFrom(profile, {}));
    expect(draft.changes ?? null).toBeNull();
    expect((await post(session.other, `/r/unit-change/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '未修改任何企业信息，无需提交' });
    expect((await call<Row>(app, session.other, 'GET', `/r/unit-change/get/${draft.id}`)).body.data?.status).toBe('draft');
  });

  it('lets neither another unit nor a sub-account without the menu touch it', async () => {
    const mine = await profileOf(session.unit);
    const theirs = await profileOf(session.other);
    const refused = await post(session.other, '/r/unit-change/save', changeFrom(mine, { contactMobile: '13700000000' }));
    expect(refused.body).toMatchObject({ result: 'false', code: 'VALIDATION_FAILED', message: '变更企业不存在或不属于本单位' });
    const draft = await ok(session.other, '/r/unit-change/save', changeFrom(theirs, { contactMobile: '13700000001' }));
    expect((await post(session.unit, `/r/unit-change/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    const sub = await sessionOf(app, 'nbsub');
    expect((await call(app, sub, 'GET', '/r/unit-profile/list')).status).toBe(403);
    expect((await call(app, sub, 'POST', '/r/unit-change/save', changeFrom(mine, { email: 'x@y.cn' }))).status).toBe(403);
  });

  it('changes the unit type through its own application', async () => {
    const profile = await profileOf(session.unit);
    const base = { profile: profile.id, orgname: profile.orgname, creditCode: profile.creditCode, reason: '新增充装业务' };
    const licence = [{ name: '维保资质.pdf', url: '' }];
    const same = await ok(session.unit, '/r/unit-type-change/save', { ...base, newUnitType: 'use', licence });
    expect(same.unitType).toBe('use');
    expect((await post(session.unit, `/r/unit-type-change/commit/${same.id}`)).body).toMatchObject({
      result: 'false',
      message: '变更后的单位类型与当前单位类型相同',
    });
    const incomplete = await post(session.unit, '/r/unit-type-change/save', { ...base, newUnitType: 'filling' });
    expect(incomplete.body).toMatchObject({ result: 'false', message: '请填写许可（资质）证书编号' });
    const draft = await ok(session.unit, '/r/unit-type-change/save', { ...base, newUnitType: 'maintenance' });
    expect((await post(session.unit, `/r/unit-type-change/commit/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请上传许可（资质）证书' });
    const ready = await ok(session.unit, '/r/unit-type-change/save', { ...base, id: draft.id, version: draft.version, newUnitType: 'maintenance', licence });
    await ok(session.unit, `/r/unit-type-change/commit/${ready.id}`);
    expect((await profileOf(session.unit)).unitType).toBe('use');
    await ok(session.authority, `/r/unit-type-change/audit-agree/${ready.id}`, { opinion: '同意' });
    const after = await profileOf(session.unit);
    expect(after).toMatchObject({ unitType: 'maintenance', versionNo: Number(profile.versionNo) + 1 });
    const versions = await list(session.unit, 'unit-version', { orderBy: 'versionNo desc' });
    expect(versions.list[0]).toMatchObject({ unitType: 'maintenance', changes: '单位类型：使用单位 → 维护保养单位' });
  });

  it('keeps safety personnel to the identity rules, per unit', async () => {
    const person = {
      name: '测试员',
      idCard: '330212199001011234',
      mobile: '13800001111',
      post: 'officer',
      certNo: 'TS-A-1',
      certExpiry: '2030-01-01',
      appointDate: '2024-01-01',
    };
    expect((await post(session.unit, '/r/safety-staff/save', person)).body).toMatchObject({ result: 'false', message: '请输入有效的身份证号' });
    const noCert = await post(session.unit, '/r/safety-staff/save', { ...person, idCard: '11010519491231002X', certNo: '' });
    expect(noCert.body).toMatchObject({ result: 'false', message: '请填写安全管理证书编号' });
    const principal = await ok(session.unit, '/r/safety-staff/save', {
      ...person,
      idCard: '11010519491231002X',
      post: 'principal',
      certNo: '',
      certExpiry: null,
    });
    expect((await call(app, session.other, 'GET', `/r/safety-staff/get/${principal.id}`)).body.result).toBe('false');
    const officers = await list(session.unit, 'safety-staff', { post: 'officer' });
    expect(officers.count).toBeGreaterThanOrEqual(3);
    expect(officers.list.every((r) => r.post === 'officer')).toBe(true);
  });

  it('reads the records a page refers to in one request by their ids, within the unit only', async () => {
    const staff = await list(session.unit, 'safety-staff', { pageSize: 100 });
    const depts = [...new Set(staff.list.map((r) => r.dept as string).filter(Boolean))];
    expect(depts.length).toBeGreaterThanOrEqual(1);
    const other = (await list(session.other, 'safety-dept')).list.map((r) => r.id);
    expect(other.length).toBeGreaterThanOrEqual(1);
    // Asked in one POST (as the screens do) and as repeated query parameters: the unit's own only.
    const asked = [...depts, ...other];
    const posted = (await call<Page>(app, session.unit, 'POST', '/r/safety-dept/list', { id: asked, pageSize: asked.length })).body.data!;
    expect(posted.list.map((r) => r.id).sort()).toEqual([...depts].sort());
    expect((await list(session.other, 'safety-dept', { id: asked })).list.map((r) => r.id).sort()).toEqual([...other].sort());
    expect((await list(session.unit, 'safety-dept', { id: depts[0] })).list.map((r) => r.id)).toEqual([depts[0]]);
    // A reference filter takes one id or several.
    const inDept = await list(session.unit, 'safety-staff', { dept: [depts[0], other[0]], pageSize: 100 });
    expect(inDept.count).toBe(staff.list.filter((r) => r.dept === depts[0]).length);
    // At most a page of ids: more is refused and nothing is read.
    const tooMany = await post(session.unit, '/r/safety-dept/list', { id: Array.from({ length: 101 }, (_, i) => String(i).padStart(32, '0')) });
    expect(tooMany.body.result).toBe('false');
  });

  it('answers the legacy paths', async () => {
    const depts = await call<Page>(app, session.unit, 'GET', '/a/stone/unit/dept/list');
    expect(depts.body.data?.list.map((d) => d.name)).toEqual(['安全生产管理部']);
    const units = await call<Page>(app, session.unit, 'GET', '/a/stone/unit/list');
    expect(units.body.data?.count).toBe(1);
    const changes = await call<Page>(app, session.unit, 'GET', '/api/unitchange/epQyUnitappchange/list');
    expect(changes.body.data?.count).toBeGreaterThanOrEqual(2);
    const profile = await profileOf(session.unit);
    const viaLegacy = await post(session.unit, '/a/stone/unit/changeUnit', changeFrom(profile, { email: 'legacy@yongjiang-tz.cn' }));
    expect(viaLegacy.body.result, viaLegacy.body.message).toBe('true');
    expect((viaLegacy.body.data as Row).changes).toContain('电子邮箱');
    const staff = await call<Page>(app, session.unit, 'GET', '/a/stone/work/person/safety/list');
    expect(staff.body.data?.count).toBeGreaterThanOrEqual(5);
  });
});
