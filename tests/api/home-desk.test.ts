/**
 * The home work desk (GET /desk, resources/desk.ts; the legacy /a/stone/index/statistics and
 * overview) and the authority's notices (notice-article: publish/withdraw, read marks).
 * Every desk card's count equals the total of the list it opens (its href's query through the
 * list screen's parameters), for both demo units, the authority and an inspection body, and no card
 * is counted for a role that cannot open its list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRecords } from '../../src/server/db/demo/index';
import { constructionFeature } from '../../src/server/domain/construction/index';
import { equipmentFeature } from '../../src/server/domain/equipment/index';
import { noticesFeature } from '../../src/server/domain/notices/index';
import { onlineInspectionFeature } from '../../src/server/domain/online-inspection/index';
import { useRegistrationFeature } from '../../src/server/domain/use-registration/index';
import { workersFeature } from '../../src/server/domain/workers/index';
import type { DeskSection } from '../../src/server/resources/desk';
import { menuRoutes } from '../../src/server/resources/desk';
import { cardParams } from '../../src/server/resources/desk';
import { loadListScreens } from '../../src/server/resources/xlsx/export';
import { DEFAULT_SCHEMA_DIR } from '../../src/server/resources/catalog';
import type { Page } from '../../src/shared/contract';
import { appSuite, call, dbTargets } from './helpers';
import { AUTHORITY_QUEUES } from '../support/authority-queues';

type Row = Record<string, unknown>;

describe.each(dbTargets())('home desk and notices (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', other: 'bladmin', authority: 'jgadmin', body: 'nbjy' } });
  const routes = menuRoutes();
  const lists = loadListScreens(DEFAULT_SCHEMA_DIR);

  beforeAll(async () => {
    await seedDemoRecords(app, {
      equipment: 40,
      secondEquipment: 12,
      features: [equipmentFeature, useRegistrationFeature, onlineInspectionFeature, workersFeature, constructionFeature, noticesFeature],
    });
  }, 240_000);

  const desk = async (sid: string) => {
    const res = await call<DeskSection[]>(app, sid, 'GET', '/desk');
    expect(res.status).toBe(200);
    return res.body.data!;
  };

  /** The total of the list a card opens, asked as the list screen asks it (query + its where and defaults). */
  async function listTotal(sid: string, resource: string, href: string): Promise<number> {
    const url = new URL(href, 'http://x');
    const where: Record<string, unknown> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      where[key] = key === 'status' ? all : all.length > 1 ? all : all[0] === 'true' ? true : all[0];
    }
    const list = lists.get(routes.get(url.pathname)!.screen!);
    const res = await call<Page<Row>>(app, sid, 'POST', `/r/${resource}/list`, { ...cardParams({ where: where as never }, list), pageSize: 1 });
    expect(res.body.result, JSON.stringify(res.body)).toBe('true');
    return res.body.data!.count as number;
  }

  async function expectCountsMatchLists(sid: string) {
    const sections = await desk(sid);
    let cards = 0;
    for (const section of sections) {
      for (const card of section.cards) {
        cards++;
        expect(card.href, card.label).toBeTruthy();
        expect(await listTotal(sid, section.resource, card.href!), `${section.title} ${card.label}`).toBe(card.count);
      }
    }
    return { sections, cards };
  }

  const labels = (sections: DeskSection[]) => sections.flatMap((s) => s.cards.map((c) => c.label));
  const count = (sections: DeskSection[], label: string) => sections.flatMap((s) => s.cards).find((c) => c.label === label)?.count;

  it('the unit desk: its cards equal the lists they open; no authority queue', async () => {
    const { sections, cards } = await expectCountsMatchLists(session.unit);
    expect(cards).toBeGreaterThan(5);
    expect(labels(sections)).toEqual(expect.arrayContaining(['超期未检', '30天内到期', '检验不合格', '证书已过期', '报检待缴费', '未读公告']));
    expect(labels(sections)).not.toContain('使用登记待审核');
    expect(count(sections, '超期未检')).toBeGreaterThan(0);
    const equipment = sections.find((s) => s.resource === 'equipment')!;
    expect(equipment.charts.map((c) => c.type)).toEqual(['bar', 'pie']);
    expect(equipment.charts[0].total).toBe((await call<Page<Row>>(app, session.unit, 'POST', '/r/equipment/list', { pageSize: 1 })).body.data!.count);
    const trend = sections.find((s) => s.resource === 'inspection-record')!.charts[0];
    expect(trend.type).toBe('line');
    expect(trend.lines!.map((l) => l.label)).toEqual(['应检', '已检']);
    expect(trend.lines![0].points).toHaveLength(12);
  });

  it('the second unit sees its own figures only', async () => {
    const { sections } = await expectCountsMatchLists(session.other);
    const mine = await desk(session.unit);
    const total = (s: DeskSection[]) => s.find((x) => x.resource === 'equipment')!.charts[0].total;
    expect(total(sections)).not.toBe(total(mine));
  });

  it("the authority's desk: its queues, equal to its audit lists; no unit equipment", async () => {
    const { sections } = await expectCountsMatchLists(session.authority);
    expect(labels(sections)).toEqual(expect.arrayContaining(AUTHORITY_QUEUES));
    expect(labels(sections)).not.toContain('超期未检');
    expect(count(sections, '施工告知待受理')).toBeGreaterThan(0);
    // Online inspection: it oversees (待分派, late ones of its area); the body's queues are not its.
    expect(labels(sections)).toEqual(expect.arrayContaining(['报检待分派', '辖区报检超时未办']));
    expect(labels(sections)).not.toContain('在线报检待受理');
    expect(count(sections, '辖区报检超时未办')).toBeGreaterThan(0);
    // The authority's state charts (drawn side by side on the desk).
    expect(sections.flatMap((s) => s.charts.filter((c) => c.type !== 'line').map((c) => c.title))).toEqual(
      expect.arrayContaining(['使用登记按状态', '在线报检按状态']),
    );
  });

  it("the inspection body's desk (nbjy): its queues, equal to its lists; none of the authority's", async () => {
    const { sections } = await expectCountsMatchLists(session.body);
    const online = sections.find((s) => s.resource === 'online-apply')!;
    expect(online.cards.map((c) => c.label)).toEqual(['在线报检待受理', '报检待核定费用', '报检待确认缴费', '报检待录入结果', '报检超时未办']);
    for (const queue of AUTHORITY_QUEUES) expect(labels(sections)).not.toContain(queue);
    expect(count(sections, '在线报检待受理')).toBeGreaterThan(0);
    expect(count(sections, '报检超时未办')).toBeGreaterThan(0);
    // 报检待确认缴费: 待缴费 with the unit's certificate uploaded, not 已缴费 (that is 报检待录入结果).
    const rows = (await call<Page<Row>>(app, session.body, 'POST', '/r/online-apply/list', { status: ['unpaid'], pageSize: 100 })).body.data!.list;
    const certified = rows.filter((r) => Array.isArray(r.payCertificate) && r.payCertificate.length > 0);
    expect(certified.length).toBeGreaterThan(0);
    expect(certified.length).toBeLessThan(rows.length);
    expect(count(sections, '报检待确认缴费')).toBe(certified.length);
    const paid = (await call<Page<Row>>(app, session.body, 'POST', '/r/online-apply/list', { status: ['paid'], pageSize: 1 })).body.data!.count;
    expect(count(sections, '报检待录入结果')).toBe(paid);
    expect(online.charts.map((c) => c.title)).toEqual(['在线报检按状态']);
  });

  it('legacy index statistics and overview answer the same counts', async () => {
    const sid = session.unit;
    const stats = await call<{ label: string; count: number }[]>(app, sid, 'POST', '/a/stone/index/statistics', {});
    const sections = await desk(sid);
    expect(stats.body.data!.map((c) => [c.label, c.count])).toEqual(sections.flatMap((s) => s.cards.map((c) => [c.label, c.count])));
    const overview = await call<DeskSection[]>(app, sid, 'GET', '/a/stone/index/overview');
    expect(overview.body.data).toEqual(sections);
  });

  describe('notices', () => {
    const N = '/r/notice-article';
    it('units read published notices only; the authority sees every state', async () => {
      const unit = await call<Page<Row>>(app, session.unit, 'POST', `${N}/list`, { pageSize: 100 });
      expect(unit.body.data!.count).toBe(5);
      expect(unit.body.data!.list.every((r) => r.status === 'published')).toBe(true);
      const all = await call<Page<Row>>(app, session.authority, 'POST', `${N}/list`, { pageSize: 100 });
      expect(all.body.data!.count).toBe(7);
      const draft = all.body.data!.list.find((r) => r.status === 'draft')!;
      const hidden = await call(app, session.unit, 'POST', `${N}/get/${String(draft.id)}`);
      expect(hidden.body.result).toBe('false');
    });

    it('the authority’s unread count holds published notices only, never its drafts', async () => {
      const a = session.authority;
      const unreadOf = async () =>
        (await call<Page<Row>>(app, a, 'POST', `${N}/list`, { unread: true, pageSize: 100 })).body.data! as { count: number; list: Row[] };
      const before = await unreadOf();
      expect(before.list.every((r) => r.status === 'published')).toBe(true);
      const saved = await call<Row>(app, a, 'POST', `${N}/save`, { title: '未发布的草稿', category: '1', publishDate: '2026-01-01', content: '<p>草稿</p>' });
      expect(saved.body.result, JSON.stringify(saved.body)).toBe('true');
      expect((await unreadOf()).count).toBe(before.count);
      expect(count(await desk(a), '未读公告')).toBe(before.count);
      expect((await call(app, a, 'POST', `${N}/publish/${String(saved.body.data!.id)}`, {})).body.result).toBe('true');
      expect((await unreadOf()).count).toBe(before.count + 1);
      expect((await call(app, a, 'POST', `${N}/withdraw/${String(saved.body.data!.id)}`, {})).body.result).toBe('true');
      expect((await unreadOf()).count).toBe(before.count);
    });

    it('keeps only safe formatting of a rich-text body, and an empty editor is a missing body', async () => {
      const a = session.authority;
      const dirty =
        '<h2 style="color:red">标题</h2><p onclick="steal()">正文<strong>加粗</strong><script>alert(1)</script></p>' +
        '<a href="javascript:alert(1)">坏链接</a><a href="https://example.org/x">好链接</a><img src="x" onerror="alert(2)"><iframe src="https://evil.example"></iframe><ul><li>一</li></ul>';
      const saved = await call<Row>(app, a, 'POST', `${N}/save`, { title: '富文本清理', category: '1', publishDate: '2026-01-01', content: dirty });
      expect(saved.body.result, JSON.stringify(saved.body)).toBe('true');
      const stored = (await call<Row>(app, a, 'GET', `${N}/get/${String(saved.body.data!.id)}`)).body.data!.content as string;
      expect(stored).toBe(
        '<h2>标题</h2><p>正文<strong>加粗</strong></p><a target="_blank" rel="noopener noreferrer">坏链接</a><a href="https://example.org/x" target="_blank" rel="noopener noreferrer">好链接</a><ul><li>一</li></ul>',
      );
      const empty = await call(app, a, 'POST', `${N}/save`, { title: '空正文', category: '1', publishDate: '2026-01-01', content: '<p></p><p><br></p>' });
      expect(empty.body.result).toBe('false');
      expect(JSON.stringify(empty.body)).toContain('请填写正文');
      expect((await call(app, a, 'POST', `${N}/delete/${String(saved.body.data!.id)}`, {})).body.result).toBe('true');
    });

    it('a unit can neither write nor publish', async () => {
      const save = await call(app, session.unit, 'POST', `${N}/save`, { title: '单位发布', category: '1', publishDate: '2026-01-01', content: '正文' });
      expect(save.body.result).toBe('false');
      const published = (await call<Page<Row>>(app, session.unit, 'POST', `${N}/list`, { pageSize: 1 })).body.data!.list[0];
      const withdraw = await call(app, session.unit, 'POST', `${N}/withdraw/${String(published.id)}`, {});
      expect(withdraw.body.result).toBe('false');
    });

    it('publish and withdraw move a notice in and out of the units’ lists; read marks are per user', async () => {
      const a = session.authority;
      const saved = await call<Row>(app, a, 'POST', `${N}/save`, { title: '新发布的公告', category: '2', publishDate: '2026-01-01', content: '正文内容' });
      expect(saved.body.result, JSON.stringify(saved.body)).toBe('true');
      const id = saved.body.data!.id as string;
      const unreadOf = async (sid: string) =>
        (await call<Page<Row>>(app, sid, 'POST', `${N}/list`, { unread: true, pageSize: 100 })).body.data!.count as number;
      const before = await unreadOf(session.unit);
      expect((await call(app, a, 'POST', `${N}/publish/${id}`, {})).body.result).toBe('true');
      expect(await unreadOf(session.unit)).toBe(before + 1);
      const otherBefore = await unreadOf(session.other);
      // nbadmin reads it: its unread count goes down, bladmin's does not.
      expect((await call(app, session.unit, 'GET', `${N}/get/${id}`)).body.result).toBe('true');
      expect(await unreadOf(session.unit)).toBe(before);
      expect(await unreadOf(session.other)).toBe(otherBefore);
      expect(count(await desk(session.unit), '未读公告')).toBe(before);
      expect((await call(app, a, 'POST', `${N}/withdraw/${id}`, {})).body.result).toBe('true');
      expect((await call(app, session.other, 'GET', `${N}/get/${id}`)).body.result).toBe('false');
      expect(await unreadOf(session.other)).toBe(otherBefore - 1);
      // The legacy article paths answer the same list and detail.
      const legacy = await call<Page<Row>>(app, session.unit, 'POST', '/a/stone/index/articles/list', { pageSize: 100 });
      expect(legacy.body.data!.count).toBe(5);
      const page = await call<Page<Row>>(app, session.unit, 'POST', '/a/stone/index/articles/page', { pageSize: 100 });
      expect(page.body.data!.count).toBe(5);
      const detail = await call<Row>(app, session.unit, 'POST', '/a/stone/index/articles/detail', { id: legacy.body.data!.list[0].id });
      expect(detail.body.data!.title).toBe(legacy.body.data!.list[0].title);
    });
  });
});
