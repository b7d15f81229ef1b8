/**
 * The authority's side of the external simple declaration (简易申报受理, /account/declaration-audit):
 * the demo seed gives the city's authority declarations in every state; a filing belongs
 * to the district its address names (else the portal's area) and is seen only by the authorities
 * over that area; the authority accepts or returns (opinion required) a new one and closes
 * (opinion required) an accepted one, in those states only, and the visitor sees the new state;
 * using units are refused the resource, and nobody creates one through the engine.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { maskText } from '../../src/server/resources/mask-patterns';
import { addToDate, todayIn } from '../../src/shared/dates';
import { DECLARATION_API, DECLARATION_STATES, type Declaration, type DeclarationAccess } from '../../src/shared/declaration';
import type { Envelope, FlowLogEntry, Page } from '../../src/shared/contract';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { DEMO_DECLARATION_MOBILE, simpleDeclarationFeature } from '../../src/server/domain/simple-declaration/index';
import { codeIn, outboxOf } from '../../src/server/services/sms';
import { api, appSuite, dbTargets, resourceCalls } from './helpers';

type Row = Record<string, unknown> & {
  id: string;
  status: string;
  declNo: string;
  title: string;
  district: string;
  dueDate: string;
  category: string;
  createDate: string;
  mobile: string;
};

const R = '/r/simple-declaration';

describe.each(dbTargets())('declaration audit (%s)', (target) => {
  // beilun: the authority of 北仑区 (below 宁波); hangzhou: another city's authority.
  const {
    app,
    session,
    units: [beilun, hangzhou],
  } = appSuite(target, {
    units: [
      ['330206', 'authority'],
      ['330106', 'authority'],
    ],
    sessions: { authority: 'jgadmin', unit: 'nbadmin', other: 'bladmin' },
  });
  const { post, ok } = resourceCalls<Row>(() => app);
  const list = async (sid: string) => (await ok<Page<Row>>(sid, `${R}/list`, { pageSize: 200 })).list;
  let seeded: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await seedDemoRecords(app, { equipment: 0, secondEquipment: 0, features: [simpleDeclarationFeature] });
  });

  const visitor = async <T>(method: 'GET' | 'POST', path: string, data: Record<string, unknown>) => {
    const res = await app.inject({ method, url: api(path), ...(method === 'GET' ? { query: data as Record<string, string> } : { payload: data }) });
    return res.json<Envelope<T>>().data as T;
  };

  it('seeds declarations in every state across the districts, each owned by the district its address names', async () => {
    expect(seeded.declarations).toBe(7);
    const rows = await list(session.authority);
    expect(rows).toHaveLength(7);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(Object.keys(DECLARATION_STATES)));
    const byTitle = new Map(rows.map((r) => [r.title, r]));
    expect(byTitle.get('小区电梯运行异响')!.district).toBe('330212');
    expect(byTitle.get('港区门式起重机行走异常')!.district).toBe('330206');
    // An address naming no district of 宁波 belongs to the portal's area.
    expect(byTitle.get('自家小型锅炉是否需要办理使用登记')!.district).toBe('330200');
    // 受理期限: the filing day plus the category's days (danger 3, fault 5, consult 7).
    for (const r of rows) {
      const days = { danger: 3, fault: 5, consult: 7, other: 7 }[r.category]!;
      expect(r.dueDate, r.title).toBe(addToDate(todayIn(undefined, new Date(r.createDate)), days, 'd'));
    }
    // One past its deadline and one near it wait for the authority.
    const waiting = rows.filter((r) => r.status === 'submitted');
    expect(waiting.some((r) => r.dueDate < todayIn())).toBe(true);
    expect(waiting.some((r) => r.dueDate >= todayIn() && r.dueDate <= addToDate(todayIn(), 2, 'd'))).toBe(true);
    // The closed one carries both answers in its flow log.
    const closed = rows.find((r) => r.status === 'closed')!;
    const flow = await ok<FlowLogEntry[]>(session.authority, `${R}/flowLog/${closed.id}`);
    expect(flow.map((e) => e.toState).sort()).toEqual(['accepted', 'closed', 'submitted']);
  });

  it('scopes the rows by area: a district authority sees its district, another city none', async () => {
    const all = await list(session.authority);
    const inBeilun = all.filter((r) => r.district === '330206');
    expect(inBeilun.length).toBeGreaterThan(0);
    expect((await list(beilun.sid)).map((r) => r.id).sort()).toEqual(inBeilun.map((r) => r.id).sort());
    expect(await list(hangzhou.sid)).toEqual([]);
    const elsewhere = all.find((r) => r.district !== '330206')!;
    expect((await post(beilun.sid, `${R}/get/${elsewhere.id}`)).body.code).toBe('RECORD_NOT_FOUND');
    expect((await post(hangzhou.sid, `${R}/accept/${inBeilun[0].id}`)).body.code).toBe('RECORD_NOT_FOUND');
  });

  it('refuses using units the declarations, and everyone a declaration made through the engine', async () => {
    const row = (await list(session.authority))[0];
    for (const sid of [session.unit, session.other]) {
      const listed = await post(sid, `${R}/list`, {});
      expect(listed.status).toBe(403);
      expect(listed.body.code).toBe('FORBIDDEN');
      expect((await post(sid, `${R}/accept/${row.id}`)).body.code).toBe('FORBIDDEN');
    }
    const saved = await post(session.authority, `${R}/save`, { title: '伪造的申报', category: 'other' });
    expect(saved.body.result).toBe('false');
    expect((await list(session.authority)).some((r) => r.title === '伪造的申报')).toBe(false);
    expect((await post(session.authority, `${R}/delete/${row.id}`)).status).toBe(404);
  });

  it('accepts or returns a new filing with the opinions its actions ask for, in their states only, and the visitor sees it', async () => {
    const mobile = '13905742001';
    await visitor('POST', DECLARATION_API.smsCode, { mobile });
    const code = codeIn((await outboxOf(app.db, mobile))[0].text)!;
    const filed = await visitor<{ id: string } & DeclarationAccess>('POST', DECLARATION_API.save, {
      mobile,
      code,
      declarant: '钱女士',
      category: 'danger',
      title: '商场观光电梯门不关',
      address: '宁波市北仑区新碶街道某商场',
      content: '观光电梯门经常关不上仍运行。',
    });
    const row = (await list(beilun.sid)).find((r) => r.id === filed.id)!;
    // Lists show the mobile masked; the detail shows it whole to the area's authority (its owner).
    expect(row).toMatchObject({ status: 'submitted', district: '330206', mobile: maskText('mobile', mobile), dueDate: addToDate(todayIn(), 3, 'd') });
    expect((await ok<{ mobile: string }>(beilun.sid, `${R}/get/${row.id}`)).mobile).toBe(mobile);

    // Closing needs an accepted one; returning needs an opinion.
    expect((await post(beilun.sid, `${R}/close/${row.id}`, { opinion: '已处理' })).body.code).toBe('WRONG_STATE');
    expect((await post(beilun.sid, `${R}/return/${row.id}`, {})).body.code).toBe('OPINION_REQUIRED');
    // The city authority accepts it without an opinion; a second accept or a return is refused.
    expect((await ok(session.authority, `${R}/accept/${row.id}`, { version: row.version })).status).toBe('accepted');
    expect((await post(beilun.sid, `${R}/return/${row.id}`, { opinion: '不属实' })).body.code).toBe('WRONG_STATE');
    expect((await post(beilun.sid, `${R}/accept/${row.id}`)).body.code).toBe('WRONG_STATE');
    expect((await post(beilun.sid, `${R}/close/${row.id}`, {})).body.code).toBe('OPINION_REQUIRED');
    expect((await ok(beilun.sid, `${R}/close/${row.id}`, { opinion: '已责令商场停用观光电梯并维修，复检合格' })).status).toBe('closed');
    const flow = await ok<FlowLogEntry[]>(session.authority, `${R}/flowLog/${row.id}`);
    expect(flow.find((e) => e.toState === 'closed')!.opinion).toBe('已责令商场停用观光电梯并维修，复检合格');
    expect(flow.find((e) => e.toState === 'submitted')).toMatchObject({ action: 'commit', userName: '钱女士（申报人）' });

    // The visitor reads the state by its access.
    const detail = await visitor<Declaration>('GET', DECLARATION_API.detail, { access: filed.access, id: filed.id });
    expect(DECLARATION_STATES[detail.status]).toBe('已办结');

    // Another new one is returned, with its reason.
    const second = await visitor<{ id: string }>('POST', DECLARATION_API.save, {
      access: filed.access,
      declarant: '钱女士',
      category: 'other',
      title: '咨询',
      content: '无',
    });
    expect((await ok(session.authority, `${R}/return/${second.id}`, { opinion: '内容不完整，请补充具体情况后重新申报' })).status).toBe('returned');
    const mine = await visitor<Page<Declaration>>('GET', DECLARATION_API.list, { access: filed.access });
    expect(mine.list.map((d) => d.status).sort()).toEqual(['closed', 'returned']);
  });

  it('leaves the demo mobile its two declarations', async () => {
    const rows = (await list(session.authority)).filter((r) => r.mobile === maskText('mobile', DEMO_DECLARATION_MOBILE));
    expect(rows.map((r) => r.status).sort()).toEqual(['accepted', 'submitted']);
  });
});
