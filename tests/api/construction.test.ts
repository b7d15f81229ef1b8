/**
 * Construction notices (施工告知, /construction; legacy /a/stone/eqmBcwBasic): save and
 * commit (also save with isCommit), the authority accepts or returns with an opinion that
 * showOpinion shows; the end date may not precede the start, an expired installer licence is
 * refused on commit; an accepted notice is cancelled only by its unit before the planned start
 * (checkBcwCancell says why not, cancellationNotice cancels); the two demo using units never see or
 * change each other's notices; printSGGZD refuses a notice not yet accepted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { addToDate, todayIn } from '../../src/shared/dates';
import type { FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { constructionFeature } from '../../src/server/domain/construction/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { constructionNotice } from './construction-notice';
import { appSuite, call, dbTargets, resourceCalls } from './helpers';
import { match } from '../support/match';

type Row = Record<string, unknown> & { id: string; status: string; version: number; noticeNo: string };

const LEGACY = '/a/stone/eqmBcwBasic';

describe.each(dbTargets())('construction notices (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();
  let seeded: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 12, secondEquipment: 6, features: [equipmentFeature, constructionFeature] });
  });
  /** A complete notice of an installation by a licensed installer, starting in ten days. */
  const body = (extra: Record<string, unknown> = {}) => constructionNotice(today, extra);
  const get = async (sid: string, id: string) => (await call<Row>(app, sid, 'GET', `/r/eqm-bcw-basic/get/${id}`)).body;
  const opinions = async (sid: string, id: string) => (await ok<FlowLogEntry[]>(sid, `${LEGACY}/showOpinion`, { id })).map((e) => [e.action, e.opinion]);

  it('has the demo notices of both units in every state', async () => {
    expect(seeded.constructionNotices).toBe(7);
    const mine = await ok<Page<Row>>(session.unit, '/r/eqm-bcw-basic/list', { pageSize: 50 });
    expect(new Set(mine.list.map((r) => r.status))).toEqual(new Set(['draft', 'submitted', 'accepted', 'returned']));
    expect(mine.list.every((r) => /^SG\d{10}$/.test(r.noticeNo))).toBe(true);
    const returned = mine.list.find((r) => r.status === 'returned')!;
    expect((await opinions(session.unit, returned.id)).at(-1)).toEqual(['audit-disagree', '施工方案未加盖施工单位公章，请补正后重新提交']);
    const theirs = await ok<Page<Row>>(session.other, '/r/eqm-bcw-basic/list', { pageSize: 50 });
    expect(theirs.list.length).toBeGreaterThan(0);
    expect(theirs.list.some((r) => mine.list.some((m) => m.id === r.id))).toBe(false);
  });

  it('saves, commits, and is accepted through /r/eqm-bcw-basic; returned with an opinion shown by showOpinion', async () => {
    const draft = await ok(session.unit, '/r/eqm-bcw-basic/save', body());
    expect(draft).toMatchObject({ status: 'draft', useUnitName: '宁波甬江特种设备使用有限公司', contactPerson: '张伟' });
    expect(draft.noticeNo).toMatch(/^SG\d{4}\d{6}$/);
    expect((await ok(session.unit, `/r/eqm-bcw-basic/commit/${draft.id}`)).status).toBe('submitted');
    // The authority returns it (an opinion required), the unit corrects and commits again, it is accepted.
    expect((await post(session.authority, `/r/eqm-bcw-basic/audit-disagree/${draft.id}`)).body).toMatchObject({ result: 'false', message: '请填写审核意见' });
    expect((await ok(session.authority, `/r/eqm-bcw-basic/audit-disagree/${draft.id}`, { opinion: '许可证复印件不清晰' })).status).toBe('returned');
    expect(await opinions(session.unit, draft.id)).toEqual([
      ['save', null],
      ['commit', null],
      ['audit-disagree', '许可证复印件不清晰'],
    ]);
    const current = (await get(session.unit, draft.id)).data!;
    const again = await ok(session.unit, '/r/eqm-bcw-basic/save', {
      ...body({ licenceCopy: [{ name: '许可证.pdf', url: '/files/l.pdf' }] }),
      id: draft.id,
      version: current.version,
      isCommit: true,
    });
    expect(again.status).toBe('submitted');
    const before = todayIn();
    const accepted = await ok(session.authority, `/r/eqm-bcw-basic/accept/${draft.id}`, { opinion: '予以受理' });
    expect(accepted.status).toBe('accepted');
    // 受理 stamps the day it accepted (workflow `stamp`), printed under the authority's seal.
    expect([before, todayIn()]).toContain(accepted.acceptDate);
    expect((await opinions(session.unit, draft.id)).at(-1)).toEqual(['accept', '予以受理']);
    // The unit cannot accept its own notice.
    expect((await post(session.unit, `/r/eqm-bcw-basic/accept/${draft.id}`)).body.result).toBe('false');
  });

  it('answers the legacy paths: save (isCommit), commit, detail, list, delete, showOpinion, printSGGZD', async () => {
    const saved = await ok(session.unit, `${LEGACY}/save`, body());
    expect((await ok(session.unit, `${LEGACY}/commit`, { id: saved.id })).status).toBe('submitted');
    const detail = (await call<Row>(app, session.unit, 'GET', `${LEGACY}/detail`, { id: saved.id })).body.data!;
    expect(detail).toMatchObject({ id: saved.id, status: 'submitted', noticeNo: saved.noticeNo });
    // printSGGZD is the printed 告知书 (tests/api/documents.test.ts): not before the authority accepts.
    expect((await call(app, session.unit, 'GET', `${LEGACY}/printSGGZD`, { id: saved.id })).body).toMatchObject({
      result: 'false',
      message: '该记录尚未审核通过或提交，不能打印',
    });
    const committed = await ok(session.unit, `${LEGACY}/save`, { ...body(), isCommit: true });
    expect(committed.status).toBe('submitted');
    const list = await ok<Page<Row>>(session.unit, `${LEGACY}/list`, { noticeNo: committed.noticeNo });
    expect(list.list.map((r) => r.id)).toEqual([committed.id]);
    expect((await ok(session.authority, `/r/eqm-bcw-basic/audit-disagree/${committed.id}`, { opinion: '请补充施工合同' })).status).toBe('returned');
    expect((await opinions(session.unit, committed.id)).at(-1)).toEqual(['audit-disagree', '请补充施工合同']);
    // Only drafts are deleted.
    expect((await post(session.unit, `${LEGACY}/delete`, { id: committed.id })).body.result).toBe('false');
    const draft = await ok(session.unit, `${LEGACY}/save`, body());
    expect((await post(session.unit, `${LEGACY}/delete`, { id: draft.id })).body.result).toBe('true');
    expect((await get(session.unit, draft.id)).result).toBe('false');
  });

  it('refuses an end date before the start with a message naming the field', async () => {
    const { body: reply } = await post(session.unit, '/r/eqm-bcw-basic/save', body({ planEndDate: addToDate(today, 5, 'd') }));
    expect(reply).toMatchObject({ result: 'false', message: '计划竣工日期不能早于计划开工日期' });
    const legacy = await post(session.unit, `${LEGACY}/save`, { ...body({ planEndDate: addToDate(today, 5, 'd') }), isCommit: true });
    expect(legacy.body.message).toBe('计划竣工日期不能早于计划开工日期');
  });

  it('refuses an expired installer licence: when entered, and on commit of a draft whose licence has expired since', async () => {
    const entered = await post(session.unit, '/r/eqm-bcw-basic/save', body({ licenceExpiry: addToDate(today, -1, 'd') }));
    expect(entered.body).toMatchObject({ result: 'false', message: match.stringContaining('许可证有效期至不能早于') });
    // A draft saved while the licence was valid; the licence has expired since (written as the stored value).
    const draft = await ok(session.unit, '/r/eqm-bcw-basic/save', body());
    await app.db
      .updateTable('eqm_bcw_basic' as never)
      .set({ licence_expiry: addToDate(today, -1, 'd') } as never)
      .where('id' as never, '=', draft.id as never)
      .execute();
    const refused = await post(session.unit, `/r/eqm-bcw-basic/commit/${draft.id}`);
    expect(refused.body).toMatchObject({ result: 'false', message: '施工单位许可证已过期，不能提交施工告知' });
    expect((await get(session.unit, draft.id)).data!.status).toBe('draft');
    const current = (await get(session.unit, draft.id)).data!;
    const legacy = await post(session.unit, `${LEGACY}/save`, { id: draft.id, version: current.version, remarks: '补充说明', isCommit: true });
    expect(legacy.body).toMatchObject({ result: 'false', message: '施工单位许可证已过期，不能提交施工告知' });
  });

  it('cancels an accepted notice only by its unit and only before the planned start', async () => {
    const filed = (start: string) =>
      ok(session.unit, '/r/eqm-bcw-basic/save', { ...body({ planStartDate: start, planEndDate: addToDate(start, 30, 'd') }), isCommit: true });
    const check = async (sid: string, id: string) => ok<{ canCancel: boolean; reason: string | null }>(sid, `${LEGACY}/checkBcwCancell`, { id });

    const waiting = await filed(addToDate(today, 3, 'd'));
    expect(await check(session.unit, waiting.id)).toMatchObject({ canCancel: false, reason: '只有已受理的施工告知可以撤销' });
    expect((await post(session.unit, `${LEGACY}/cancellationNotice`, { id: waiting.id, opinion: '项目取消' })).body.result).toBe('false');

    await ok(session.authority, `/r/eqm-bcw-basic/accept/${waiting.id}`);
    expect(await check(session.unit, waiting.id)).toMatchObject({ canCancel: true, reason: null });
    expect((await check(session.authority, waiting.id)).canCancel).toBe(false);
    expect((await post(session.authority, `${LEGACY}/cancellationNotice`, { id: waiting.id, opinion: '项目取消' })).body.result).toBe('false');
    expect((await post(session.unit, `${LEGACY}/cancellationNotice`, { id: waiting.id })).body.message).toBe('请填写审核意见');
    expect((await ok(session.unit, `${LEGACY}/cancellationNotice`, { id: waiting.id, opinion: '项目取消' })).status).toBe('cancelled');
    expect((await opinions(session.unit, waiting.id)).at(-1)).toEqual(['cancel', '项目取消']);

    const started = await filed(today);
    await ok(session.authority, `/r/eqm-bcw-basic/accept/${started.id}`);
    expect(await check(session.unit, started.id)).toMatchObject({ canCancel: false, reason: '已到计划开工日期，施工告知不能撤销' });
    expect((await post(session.unit, `/r/eqm-bcw-basic/cancel/${started.id}`, { opinion: '项目取消' })).body).toMatchObject({
      result: 'false',
      message: '已到计划开工日期，施工告知不能撤销',
    });
    expect((await get(session.unit, started.id)).data!.status).toBe('accepted');
  });

  it('keeps the two demo units apart', async () => {
    const mine = await ok(session.unit, '/r/eqm-bcw-basic/save', body());
    const theirs = await ok(session.other, '/r/eqm-bcw-basic/save', body({ siteArea: '330206' }));
    expect(theirs.useUnitName).toBe('宁波北仑港城起重设备使用有限公司');
    for (const [sid, id] of [
      [session.other, mine.id],
      [session.unit, theirs.id],
    ] as const) {
      expect((await get(sid, id)).result).toBe('false');
      expect((await call(app, sid, 'GET', `${LEGACY}/detail`, { id })).body.result).toBe('false');
      expect((await post(sid, `${LEGACY}/commit`, { id })).body.message).toBe('记录不存在或无权访问');
      expect((await post(sid, `${LEGACY}/delete`, { id })).body.result).toBe('false');
      expect((await post(sid, `${LEGACY}/checkBcwCancell`, { id })).body.message).toBe('记录不存在或无权访问');
      expect((await post(sid, `${LEGACY}/showOpinion`, { id })).body.result).toBe('false');
    }
    const other = await ok<Page<Row>>(session.other, `${LEGACY}/list`, { pageSize: 100 });
    expect(other.list.some((r) => r.id === mine.id)).toBe(false);
    // A notice of alteration may pick only the unit's own equipment.
    const foreign = (await ok<Page<Row>>(session.other, '/r/equipment/list', { pageSize: 1 })).list[0];
    const picked = await post(session.unit, '/r/eqm-bcw-basic/save', body({ constructionType: 'alter', equipment: foreign.id }));
    expect(picked.body.result).toBe('false');
  });

  it('copies registered equipment for an alteration and clears it for an installation', async () => {
    const piece = (await ok<Page<Row>>(session.unit, '/r/equipment/list', { pageSize: 1, useStatus: '1' })).list[0];
    const {
      equclacode: _c,
      subCategory: _s,
      equipmentName: _n,
      factoryNo: _f,
      manufacturer: _m,
      ...rest
    } = body({ constructionType: 'repair', equipment: piece.id });
    const saved = await ok(session.unit, '/r/eqm-bcw-basic/save', rest);
    expect(saved).toMatchObject({
      equipment: piece.id,
      equipmentName: piece.equipmentName,
      equclacode: piece.equclacode,
      registrationCode: piece.registrationCode ?? null,
    });
    expect((await post(session.unit, '/r/eqm-bcw-basic/save', body({ constructionType: 'alter' }))).body.message).toBe('请选择改造/修理设备');
    const install = await ok(session.unit, '/r/eqm-bcw-basic/save', body({ equipment: piece.id }));
    expect(install.equipment ?? null).toBeNull();
  });
});
