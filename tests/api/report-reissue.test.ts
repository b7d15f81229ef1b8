/**
 * Re-issue of inspection reports and certificates (report-reissue): the unit applies about one of
 * its own inspection records (report number and equipment from the record, never the request), a
 * posted delivery needs the address, recipient and phone to submit; the commit routes it by the
 * inspection-routing table (鄞州 → the city institute nbjy, 北仑 → the provincial branch zjjy; no
 * rule: refused); the serving body (party, role type inspection) sees only the rows routed to it
 * and never a draft, accepts, issues a PDF the unit then downloads (or posts it with a tracking
 * number), or returns it with an opinion for the unit to edit and resubmit; it never saves or
 * deletes, and the unit never runs the body's actions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_UNITS } from '../../src/server/db/seed';
import { todayIn } from '../../src/shared/dates';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { reportReissueFeature } from '../../src/server/domain/report-reissue/index';
import { insertRecord } from '../../src/server/resources/writer';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets, downloadFile, resourceCalls, uploadFile } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const R = '/r/report-reissue';
const NOT_FOUND = '记录不存在或无权访问';
const NOT_PERMITTED = '当前角色无权执行此操作';

describe.each(dbTargets())('report and certificate re-issue (%s)', (target) => {
  const {
    app,
    units: [far],
    session,
  } = appSuite(target, {
    units: ['330106'],
    sessions: { unit: 'nbadmin', other: 'bladmin', city: 'nbjy', branch: 'zjjy', authority: 'jgadmin', district: 'yzjg' },
  });
  const { post, ok } = resourceCalls<Row>(() => app);
  const refused = async (sid: string, path: string, body: Record<string, unknown> = {}) => {
    const reply = (await post(sid, path, body)).body;
    expect(reply.result, path).toBe('false');
    return reply.message;
  };
  const get = async (sid: string, id: string) => (await call<Row>(app, sid, 'GET', `${R}/get/${id}`)).body;
  const list = async (sid: string, params: Record<string, unknown> = {}) => ok<Page<Row>>(sid, `${R}/list`, { pageSize: 100, ...params });
  let seeded: Record<string, number> = {};
  let mine: Row[] = [];
  let theirs: Row[] = [];

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 40, secondEquipment: 20, features: [equipmentFeature, reportReissueFeature] });
    mine = (await ok<Page<Row>>(session.unit, '/r/inspection-record/list', { pageSize: 20 })).list.filter((r) => r.reportNo);
    theirs = (await ok<Page<Row>>(session.other, '/r/inspection-record/list', { pageSize: 20 })).list.filter((r) => r.reportNo);
  }, 180_000);

  const online = (record: Row, extra: Record<string, unknown> = {}) => ({
    kind: 'report',
    inspectionRecord: record.id,
    reason: 'lost',
    delivery: 'online',
    ...extra,
  });

  const upload = (sid: string, name: string) => uploadFile(app, sid, name, PDF);
  const download = (sid: string, id: string) => downloadFile(app, sid, id);

  it('seeds re-issues of both units in every state, each routed to its body', async () => {
    expect(seeded.reportReissues).toBe(11);
    const first = (await list(session.unit)).list;
    expect(new Set(first.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'accepted', 'issued', 'returned']));
    expect(first.every((r) => /^BF\d{10}$/.test(String(r.applyNo)))).toBe(true);
    expect(first.filter((r) => r.status !== 'draft').every((r) => r.bodyId === DEMO_UNITS.inspection.id && r.bodyName === DEMO_UNITS.inspection.orgname)).toBe(
      true,
    );
    const second = (await list(session.other)).list;
    expect(second.length).toBe(4);
    expect(second.every((r) => r.bodyId === DEMO_UNITS.inspectionSecond.id)).toBe(true);
    // Each body's queue: its own rows, never a draft; the other body's rows are not there.
    const city = (await list(session.city)).list;
    expect(city.length).toBe(first.length - 1);
    expect(city.every((r) => r.bodyId === DEMO_UNITS.inspection.id && r.status !== 'draft')).toBe(true);
    const branch = (await list(session.branch)).list;
    expect(branch.map((r) => r.id).sort()).toEqual(second.map((r) => r.id).sort());
    // An issued online one carries its document, a posted one its tracking number.
    const issued = first.filter((r) => r.status === 'issued');
    expect(issued.some((r) => r.delivery === 'online' && Array.isArray(r.document) && r.document.length === 1)).toBe(true);
    expect(issued.some((r) => r.delivery === 'post' && typeof r.trackingNo === 'string' && r.trackingNo !== '')).toBe(true);
    // Dated back as history: inspected, then applied, then issued, before today.
    for (const r of issued) {
      expect(String(r.issuedDate) < todayIn()).toBe(true);
      expect(String(r.inspectionDate) < String(r.createDate).slice(0, 10)).toBe(true);
      expect(String(r.createDate).slice(0, 10) < String(r.issuedDate)).toBe(true);
    }
  });

  it('applies about an own record: the record fills the report number, a posted one needs the address to submit', async () => {
    const record = mine[0];
    const draft = await ok(session.unit, `${R}/save`, online(record, { reportNo: 'FAKE-001', equipmentName: '伪造设备' }));
    expect(draft).toMatchObject({
      status: 'draft',
      applicant: DEMO_UNITS.using.orgname,
      reportNo: record.reportNo,
      equipmentName: record.equipmentName,
      equcode: record.equcode,
      inspectionDate: record.inspectionDate,
    });
    expect(draft.contactPerson).toBeTruthy();
    // Online: nothing about posting is needed; the commit routes it to the city institute.
    const committed = await ok(session.unit, `${R}/commit/${draft.id}`);
    expect(committed).toMatchObject({ status: 'submitted', bodyId: DEMO_UNITS.inspection.id, bodyName: DEMO_UNITS.inspection.orgname });

    // Posted: a draft may lack the address, the commit may not.
    const posted = await ok(session.unit, `${R}/save`, online(record, { delivery: 'post', reason: 'damaged' }));
    expect(await refused(session.unit, `${R}/commit/${posted.id}`)).toBe('请填写邮寄地址');
    const addressed = await ok(session.unit, `${R}/save`, {
      ...online(record, { delivery: 'post', reason: 'damaged', postalAddress: '宁波市鄞州区测试路1号' }),
      id: posted.id,
      version: posted.version,
    });
    expect(await refused(session.unit, `${R}/commit/${posted.id}`)).toBe('请填写收件人');
    await ok(session.unit, `${R}/save`, {
      ...online(record, { delivery: 'post', reason: 'damaged', postalAddress: '宁波市鄞州区测试路1号', recipient: '张伟', recipientPhone: '0574-87654321' }),
      id: posted.id,
      version: addressed.version,
      isCommit: true,
    });
    expect((await get(session.unit, posted.id)).data).toMatchObject({ status: 'submitted', delivery: 'post', recipient: '张伟' });

    // 其他 needs the reason in words; the posting fields of an online one, and the words of a lost one, are not stored.
    const other = await ok(session.unit, `${R}/save`, online(record, { reason: 'other', postalAddress: '不应保存' }));
    expect(other.postalAddress ?? null).toBeNull();
    expect((await ok(session.unit, `${R}/save`, online(record, { reason: 'lost', reasonText: '不应保存' }))).reasonText ?? null).toBeNull();
    expect(await refused(session.unit, `${R}/commit/${other.id}`)).toBe('请填写原因说明');

    // Another unit's record does not exist for this unit.
    expect((await post(session.unit, `${R}/save`, online(theirs[0]))).body.result).toBe('false');
  });

  it('routes by the unit area: 鄞州 to nbjy, 北仑 to zjjy, an area without a rule is refused', async () => {
    const yinzhou = await ok(session.unit, `${R}/save`, { ...online(mine[1]), isCommit: true });
    expect(yinzhou.bodyId).toBe(DEMO_UNITS.inspection.id);
    const beilun = await ok(session.other, `${R}/save`, { ...online(theirs[0]), isCommit: true });
    expect(beilun).toMatchObject({ status: 'submitted', bodyId: DEMO_UNITS.inspectionSecond.id, bodyName: DEMO_UNITS.inspectionSecond.orgname });

    // A Hangzhou unit: no rule covers 330106.
    const actor = { userId: far.userId, userName: 'far', unitId: far.unitId, areaCode: '330106', roleType: 'unit', menuIds: [], oversees: false };
    const recordId = await insertRecord(
      app.db,
      app.resources.get('inspection-record')!,
      actor,
      { equipmentName: '杭州电梯', equclacode: '3000', inspectionType: 'periodic', inspectionDate: '2026-01-10', conclusion: '1', reportNo: 'HZ-2026-0001' },
      { trusted: true },
    );
    const draft = await ok(far.sid, `${R}/save`, {
      kind: 'report',
      inspectionRecord: recordId,
      reason: 'lost',
      delivery: 'online',
      contactMobile: '13805741234',
    });
    expect(await refused(far.sid, `${R}/commit/${draft.id}`)).toBe('本单位所在地区暂无受理补发的检验机构，请联系属地特种设备检验机构');
    expect((await get(far.sid, draft.id)).data).toMatchObject({ status: 'draft', bodyId: null });
  });

  it("keeps each body to the rows routed to it: another body's and drafts answer RECORD_NOT_FOUND", async () => {
    const beilun = await ok(session.other, `${R}/save`, { ...online(theirs[1]), isCommit: true });
    expect((await get(session.branch, beilun.id)).data?.id).toBe(beilun.id);
    expect(await get(session.city, beilun.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND', message: NOT_FOUND });
    expect(await refused(session.city, `${R}/accept/${beilun.id}`)).toBe(NOT_FOUND);

    const draft = await ok(session.unit, `${R}/save`, online(mine[2]));
    expect(await get(session.city, draft.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
    // A revoked one goes back to draft and out of the queue.
    await ok(session.unit, `${R}/commit/${draft.id}`);
    expect((await get(session.city, draft.id)).data?.status).toBe('submitted');
    expect((await ok(session.unit, `${R}/revoke/${draft.id}`)).status).toBe('draft');
    expect(await get(session.city, draft.id)).toMatchObject({ code: 'RECORD_NOT_FOUND' });
  });

  it("lets the authority read its area's re-issues past the draft, whoever serves them, and only leave a 督办 note", async () => {
    const applied = await ok(session.other, `${R}/save`, { ...online(theirs[2]), isCommit: true });
    const city = await list(session.authority);
    expect(city.list.some((r) => r.unitId === DEMO_UNITS.using.id)).toBe(true);
    expect(city.list.some((r) => r.id === applied.id)).toBe(true);
    // The district authority (鄞州) reads its district's only.
    const district = await list(session.district);
    expect(district.list.length).toBeGreaterThan(0);
    expect(district.list.every((r) => r.unitId === DEMO_UNITS.using.id)).toBe(true);
    expect(await get(session.district, applied.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
    expect(await refused(session.authority, `${R}/accept/${applied.id}`)).toBe(NOT_PERMITTED);
    expect((await get(session.branch, applied.id)).data?.status).toBe('submitted');
    // A unit's draft stays its own.
    const draft = await ok(session.unit, `${R}/save`, online(mine[4]));
    expect(await get(session.authority, draft.id)).toMatchObject({ result: 'false', code: 'RECORD_NOT_FOUND' });
    expect(city.list.every((r) => r.status !== 'draft')).toBe(true);
    // 督办 leaves a note in the flow log and changes nothing else.
    await ok(session.authority, `${R}/supervise/${applied.id}`, { opinion: '请尽快办理' });
    expect((await get(session.branch, applied.id)).data?.status).toBe('submitted');
  });

  it('lets the body only run its actions, and the unit none of them', async () => {
    const applied = await ok(session.unit, `${R}/save`, { ...online(mine[3]), isCommit: true });
    const stored = (await get(session.city, applied.id)).data!;
    // The body never saves or deletes.
    expect(await refused(session.city, `${R}/save`, { ...online(mine[3]), id: applied.id, version: stored.version })).not.toBe('保存成功');
    expect(await refused(session.city, `${R}/delete/${applied.id}`)).toBeTruthy();
    expect(await refused(session.city, `${R}/save`, online(mine[3]))).toBeTruthy();
    // The unit runs none of the body's actions.
    for (const action of ['accept', 'reissue', 'reissue-post', 'return'])
      expect(await refused(session.unit, `${R}/${action}/${applied.id}`, { opinion: '自己办' }), action).toBe(NOT_PERMITTED);
    expect((await get(session.unit, applied.id)).data?.status).toBe('submitted');
  });

  it('issues a PDF the unit downloads; a posted one needs its tracking number', async () => {
    const applied = await ok(session.unit, `${R}/save`, { ...online(mine[4]), isCommit: true });
    const file = await upload(session.city, '补发检验报告.pdf');
    const document = [{ id: file.id, name: file.name, url: file.url }];
    expect(await refused(session.city, `${R}/reissue/${applied.id}`, { document })).toBe('当前状态不允许此操作');
    expect((await ok(session.city, `${R}/accept/${applied.id}`, { opinion: '予以受理' })).status).toBe('accepted');
    expect(await refused(session.city, `${R}/reissue/${applied.id}`)).toBe('请上传补发文件');
    expect(await refused(session.city, `${R}/reissue-post/${applied.id}`, { trackingNo: 'SF1234567890' })).toBe('该申请选择在线下载，请使用“补发”上传补发文件');
    const issued = await ok(session.city, `${R}/reissue/${applied.id}`, { opinion: '已补发', document });
    expect(issued).toMatchObject({ status: 'issued', bodyOpinion: '已补发' });
    expect(typeof issued.issuedDate).toBe('string');

    const seen = (await get(session.unit, applied.id)).data!;
    expect(seen.status).toBe('issued');
    const files = seen.document as { id: string; name: string }[];
    expect(files.map((d) => d.name)).toEqual(['补发检验报告.pdf']);
    const res = await download(session.unit, files[0].id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    expect(res.rawPayload.equals(PDF)).toBe(true);
    // Another unit cannot.
    expect((await download(session.other, files[0].id)).statusCode).not.toBe(200);
    // Finished: nothing moves it.
    expect(await refused(session.city, `${R}/return/${applied.id}`, { opinion: '再退' })).toBe('当前状态不允许此操作');
    expect(await refused(session.unit, `${R}/revoke/${applied.id}`)).toBe('当前状态不允许此操作');

    // Posted: the tracking number, not a download.
    const posted = await ok(session.unit, `${R}/save`, {
      ...online(mine[5], { delivery: 'post', postalAddress: '宁波市鄞州区测试路1号', recipient: '张伟', recipientPhone: '13805740001' }),
      isCommit: true,
    });
    await ok(session.city, `${R}/accept/${posted.id}`);
    expect(await refused(session.city, `${R}/reissue/${posted.id}`, { document })).toBe('该申请选择邮寄领取，请使用“邮寄补发”并填写快递单号');
    expect(await refused(session.city, `${R}/reissue-post/${posted.id}`)).toBe('请填写快递单号');
    expect(await ok(session.city, `${R}/reissue-post/${posted.id}`, { trackingNo: 'SF1234567890' })).toMatchObject({
      status: 'issued',
      trackingNo: 'SF1234567890',
    });
  });

  it('returns with a required opinion; the unit edits and resubmits', async () => {
    const draft = await ok(session.unit, `${R}/save`, online(mine[6], { reason: 'incorrect' }));
    expect(await refused(session.unit, `${R}/commit/${draft.id}`)).toBe('请填写原因说明');
    const applied = await ok(session.unit, `${R}/save`, {
      ...online(mine[6], { reason: 'incorrect', reasonText: '使用单位名称有误' }),
      id: draft.id,
      version: draft.version,
      isCommit: true,
    });
    expect(await refused(session.city, `${R}/return/${applied.id}`)).toBe('请填写审核意见');
    expect(await ok(session.city, `${R}/return/${applied.id}`, { opinion: '请写明需更正的内容' })).toMatchObject({
      status: 'returned',
      bodyOpinion: '请写明需更正的内容',
    });
    // Still in the body's view (its action led there), but only the unit may edit it.
    expect((await get(session.city, applied.id)).data?.status).toBe('returned');
    const returned = (await get(session.unit, applied.id)).data!;
    const resubmitted = await ok(session.unit, `${R}/save`, {
      ...online(mine[6], { reason: 'incorrect', reasonText: '使用单位名称应为现名称' }),
      id: applied.id,
      version: returned.version,
      isCommit: true,
    });
    expect(resubmitted).toMatchObject({ status: 'submitted', bodyId: DEMO_UNITS.inspection.id, reasonText: '使用单位名称应为现名称' });
    const flow = await ok<FlowLogEntry[]>(session.unit, `${R}/flowLog/${applied.id}`);
    expect(flow.filter((e) => e.action === 'commit')).toHaveLength(2);
    expect(flow.some((e) => e.action === 'return' && e.opinion === '请写明需更正的内容')).toBe(true);
    expect(flow.at(-1)?.action).toBe('commit');
  });
});
