/**
 * The external simple declaration (/dlgzh): filing needs the mobile's SMS code (used up
 * once), the list and details answer only the proved mobile's declarations, and a forged or
 * expired access answers nothing.
 */
import { describe, expect, it } from 'vitest';
import { DECLARATION_API, type Declaration, type DeclarationAccess } from '../../src/shared/declaration';
import type { Envelope, Page } from '../../src/shared/contract';
import { codeIn, outboxOf } from '../../src/server/services/sms';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_DECLARATION_MOBILE, simpleDeclarationFeature } from '../../src/server/domain/simple-declaration/index';
import { api, appSuite, dbTargets } from './helpers';

describe.each(dbTargets())('simple declaration (%s)', (target) => {
  const { app } = appSuite(target);
  const open = async <T>(method: 'GET' | 'POST', path: string, data: Record<string, unknown>) => {
    const res = await app.inject({ method, url: api(path), ...(method === 'GET' ? { query: data as Record<string, string> } : { payload: data }) });
    return res.json<Envelope<T>>();
  };
  const codeFor = async (mobile: string) => {
    expect((await open('POST', DECLARATION_API.smsCode, { mobile })).result).toBe('true');
    return codeIn((await outboxOf(app.db, mobile))[0].text)!;
  };
  const body = { declarant: '王先生', category: 'danger', title: '小区电梯异响', address: '宁波市鄞州区某小区3号楼', content: '电梯运行时有异响，请检查。' };

  it('files with the SMS code once, and lists and shows only that mobile’s declarations', async () => {
    const mine = '13905741001';
    const theirs = '13905741002';
    expect((await open('POST', DECLARATION_API.save, { ...body, mobile: mine, code: '000000' })).message).toBe('短信验证码错误或已失效，请重新获取');
    const code = await codeFor(mine);
    const saved = await open<{ id: string; declNo: string } & DeclarationAccess>('POST', DECLARATION_API.save, { ...body, mobile: mine, code });
    expect(saved.result).toBe('true');
    expect(saved.data!.declNo).toMatch(/^JY\d{12}$/);
    // The code is used up.
    expect((await open('POST', DECLARATION_API.save, { ...body, mobile: mine, code })).result).toBe('false');
    // With the access the filing returned: a second one, then the list.
    expect((await open('POST', DECLARATION_API.save, { ...body, title: '第二件', access: saved.data!.access })).result).toBe('true');
    const list = (await open<Page<Declaration>>('GET', DECLARATION_API.list, { access: saved.data!.access })).data!;
    expect(list.list.map((d) => d.title).sort()).toEqual(['小区电梯异响', '第二件'].sort());
    expect(list.list.every((d) => d.mobile === mine)).toBe(true);

    // Another mobile sees none of them, not even by id.
    const other = (await open<DeclarationAccess>('POST', DECLARATION_API.login, { mobile: theirs, code: await codeFor(theirs) })).data!;
    expect((await open<Page<Declaration>>('GET', DECLARATION_API.list, { access: other.access })).data!.list).toEqual([]);
    expect((await open('GET', DECLARATION_API.detail, { access: other.access, id: saved.data!.id })).message).toBe('记录不存在或无权访问');
    expect((await open<Declaration>('GET', DECLARATION_API.detail, { access: saved.data!.access, id: saved.data!.id })).data!.content).toBe(body.content);

    // A forged or expired access answers nothing.
    expect((await open('GET', DECLARATION_API.list, { access: 'x'.repeat(43) })).message).toBe('验证已过期，请重新获取短信验证码');
    await app.db
      .updateTable('ext_declaration_access' as never)
      .set({ expires_at: new Date(Date.now() - 1000) } as never)
      .execute();
    expect((await open('GET', DECLARATION_API.list, { access: saved.data!.access })).result).toBe('false');
  });

  it('refuses an incomplete declaration and a second code within a minute', async () => {
    const mobile = '13905741003';
    const code = await codeFor(mobile);
    expect((await open('POST', DECLARATION_API.save, { ...body, category: 'nope', mobile, code })).message).toBe('请完整填写申报人、事项类别、标题和申报内容');
    expect((await open('POST', DECLARATION_API.smsCode, { mobile })).message).toBe('验证码发送过于频繁，请1分钟后再试');
  });

  it('seeds two demo declarations of the demo mobile once, which its code opens', async () => {
    const seed = () => seedDemoRecords(app, { equipment: 0, secondEquipment: 0, features: [simpleDeclarationFeature] });
    expect(await seed()).toEqual({ declarations: 7 });
    expect(await seed()).toEqual({ declarations: 0 });
    const access = (
      await open<DeclarationAccess>('POST', DECLARATION_API.login, { mobile: DEMO_DECLARATION_MOBILE, code: await codeFor(DEMO_DECLARATION_MOBILE) })
    ).data!;
    const list = (await open<Page<Declaration>>('GET', DECLARATION_API.list, { access: access.access })).data!;
    expect(list.list.map((d) => d.status).sort()).toEqual(['accepted', 'submitted']);
    expect(list.list.every((d) => /^JY\d{12}$/.test(d.declNo))).toBe(true);
  });
});
