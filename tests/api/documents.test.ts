/**
 * Printed documents (resource `document`, src/server/resources/documents.ts): the 施工告知书
 * (construction notices, also the legacy printSGGZD), the 使用登记证 of an approved use registration
 * and the 安全承诺书. A record prints only in its document's states, only to whom may see it; the
 * token of its QR code opens the verification without login, which answers the title, number,
 * unit name, date and state — no other field — and 未找到该文书 for an unknown token.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/shared/dates';
import type { Page } from '../../src/shared/contract';
import type { DocumentVerification } from '../../src/shared/documents';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { constructionFeature } from '../../src/server/domain/construction/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { useRegistrationFeature } from '../../src/server/domain/use-registration/index';
import { constructionNotice } from './construction-notice';
import { api, appSuite, call, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & { id: string; status: string; version: number };
type Printed = { record: Row; token: string };

const NOT_PRINTABLE = '该记录尚未审核通过或提交，不能打印';
const NOT_FOUND = '未找到该文书，请核对二维码或验证链接';

describe.each(dbTargets())('printed documents (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin' } });
  const { post, ok } = resourceCalls<Row>(() => app);
  const today = todayIn();

  beforeAll(async () => {
    await seedDemoRecords(app, { equipment: 12, secondEquipment: 6, features: [equipmentFeature, useRegistrationFeature, constructionFeature] });
  }, 180_000);

  const notice = () =>
    constructionNotice(today, {
      equipmentName: '打印测试电梯',
      factoryNo: 'P2026001',
      siteAddress: '宁波市鄞州区测试路9号',
      contactPerson: '王建国',
      contactMobile: '13805740001',
    });
  /** The open verification, without any session. */
  const verify = async (token: string) => {
    const res = await app.inject({ method: 'GET', url: api(`/document/verify/${token}`) });
    return { status: res.statusCode, body: res.json<{ result: string; message: string; data?: DocumentVerification }>() };
  };

  it('prints an accepted construction notice with a token whose open verification shows only the document facts', async () => {
    const draft = await ok(session.unit, '/r/eqm-bcw-basic/save', notice());
    // A draft does not print, nor does a submitted notice.
    expect((await call(app, session.unit, 'GET', `/r/eqm-bcw-basic/document/${draft.id}`)).body).toMatchObject({ result: 'false', message: NOT_PRINTABLE });
    await ok(session.unit, `/r/eqm-bcw-basic/commit/${draft.id}`);
    expect((await call(app, session.unit, 'GET', `/r/eqm-bcw-basic/document/${draft.id}`)).body).toMatchObject({ result: 'false', message: NOT_PRINTABLE });
    await ok(session.authority, `/r/eqm-bcw-basic/accept/${draft.id}`, { opinion: '予以受理' });

    const printed = (await call<Printed>(app, session.unit, 'GET', `/r/eqm-bcw-basic/document/${draft.id}`)).body.data!;
    expect(printed.record).toMatchObject({ id: draft.id, status: 'accepted', equipmentName: '打印测试电梯' });
    expect(printed.token).toMatch(/^[0-9a-f]{32}$/);
    expect(printed.token).not.toContain(draft.id);
    // The same token on every print, for the unit and for the authority that accepted it.
    expect((await call<Printed>(app, session.unit, 'GET', `/r/eqm-bcw-basic/document/${draft.id}`)).body.data!.token).toBe(printed.token);
    expect((await call<Printed>(app, session.authority, 'GET', `/r/eqm-bcw-basic/document/${draft.id}`)).body.data!.token).toBe(printed.token);

    const checked = await verify(printed.token);
    expect(checked.status).toBe(200);
    expect(checked.body.data).toEqual({
      title: '特种设备安装改造修理告知书',
      number: printed.record.noticeNo,
      unitName: printed.record.useUnitName,
      date: today,
      state: 'accepted',
      stateLabel: '已受理',
      valid: true,
    });
    // Nothing personal or beyond the document facts travels.
    const text = JSON.stringify(checked.body);
    for (const secret of ['王建国', '13805740001', draft.id, '宁波市鄞州区测试路9号']) expect(text).not.toContain(secret);
  });

  it('answers the legacy printSGGZD as the printed notice, refused before acceptance', async () => {
    const saved = await ok(session.unit, '/a/stone/eqmBcwBasic/save', { ...notice(), isCommit: true });
    expect((await call(app, session.unit, 'GET', '/a/stone/eqmBcwBasic/printSGGZD', { id: saved.id })).body).toMatchObject({
      result: 'false',
      message: NOT_PRINTABLE,
    });
    await ok(session.authority, `/r/eqm-bcw-basic/accept/${saved.id}`);
    const printed = (await call<Printed>(app, session.unit, 'GET', '/a/stone/eqmBcwBasic/printSGGZD', { id: saved.id })).body.data!;
    expect(printed.record).toMatchObject({ id: saved.id, noticeNo: saved.noticeNo });
    expect((await verify(printed.token)).body.data?.number).toBe(saved.noticeNo);
  });

  it('refuses another unit the document (the same answer as an unknown record)', async () => {
    const mine = await ok<Page<Row>>(session.unit, '/r/eqm-bcw-basic/list', { status: 'accepted', pageSize: 1 });
    const id = mine.list[0].id;
    expect((await call(app, session.other, 'GET', `/r/eqm-bcw-basic/document/${id}`)).body).toMatchObject({ result: 'false', message: '记录不存在或无权访问' });
    expect((await call(app, session.other, 'GET', '/a/stone/eqmBcwBasic/printSGGZD', { id })).body).toMatchObject({
      result: 'false',
      message: '记录不存在或无权访问',
    });
    // And the other unit's accepted notice is not ours to print.
    const theirs = await ok<Page<Row>>(session.other, '/r/eqm-bcw-basic/list', { status: 'accepted', pageSize: 1 });
    expect((await call(app, session.unit, 'GET', `/r/eqm-bcw-basic/document/${theirs.list[0].id}`)).body.result).toBe('false');
  });

  it('answers an unknown or malformed token with 未找到该文书, without a session', async () => {
    for (const token of ['0123456789abcdef0123456789abcdef', 'not-a-token', 'x'.repeat(64)]) {
      const { status, body } = await verify(token);
      expect(status).toBe(200);
      expect(body).toMatchObject({ result: 'false', message: NOT_FOUND });
    }
  });

  it('prints the 使用登记证 of an approved registration only, dated by its issue date', async () => {
    const approved = await ok<Page<Row>>(session.unit, '/r/use-regist-apply/list', { status: 'approved', pageSize: 1 });
    const row = approved.list[0];
    expect(row.certNo).toBeTruthy();
    const printed = (await call<Printed>(app, session.unit, 'GET', `/r/use-regist-apply/document/${row.id}`)).body.data!;
    expect((await verify(printed.token)).body.data).toEqual({
      title: '特种设备使用登记证',
      number: row.certNo,
      unitName: row.useUnitName,
      date: row.issueDate,
      state: 'approved',
      stateLabel: '已发证',
      valid: true,
    });
    // An application not (yet) approved has no certificate to print.
    const all = await ok<Page<Row>>(session.unit, '/r/use-regist-apply/list', { pageSize: 50 });
    const pending = all.list.filter((r) => r.status !== 'approved');
    expect(pending.length).toBeGreaterThan(0);
    for (const r of pending)
      expect((await call(app, session.unit, 'GET', `/r/use-regist-apply/document/${r.id}`)).body).toMatchObject({ result: 'false', message: NOT_PRINTABLE });
    expect((await call(app, session.other, 'GET', `/r/use-regist-apply/document/${row.id}`)).body).toMatchObject({
      result: 'false',
      message: '记录不存在或无权访问',
    });
  });

  it('prints a committed safety commitment letter, not a draft', async () => {
    const draft = (
      await post(session.unit, '/r/safety-commitment/save', {
        year: 2035,
        principal: '陈国华',
        signDate: '2026-01-10',
        scan: [{ name: '承诺书.pdf', url: '' }],
      })
    ).body.data!;
    expect((await call(app, session.unit, 'GET', `/r/safety-commitment/document/${draft.id}`)).body).toMatchObject({ result: 'false', message: NOT_PRINTABLE });
    await ok(session.unit, `/r/safety-commitment/commit/${draft.id}`);
    const printed = (await call<Printed>(app, session.unit, 'GET', `/r/safety-commitment/document/${draft.id}`)).body.data!;
    expect((await verify(printed.token)).body.data).toMatchObject({
      title: '特种设备安全承诺书',
      number: '2035',
      date: '2026-01-10',
      state: 'committed',
      valid: true,
    });
    expect((await call(app, session.other, 'GET', `/r/safety-commitment/document/${draft.id}`)).body.result).toBe('false');
  });
});
