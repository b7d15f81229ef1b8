/**
 * Bounded numbers and dates: a page number, a filter, a body field or a date the database could not
 * hold is refused with HTTP 400, the envelope and a Chinese message naming the field — never a 500
 * from SQL. The limits: page numbers ≤ 1,000,000, integers within int4, money within numeric(14,2),
 * other numbers within ±1e15, dates in the years 1900–2100 (src/server/validation/bounds.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Envelope } from '../../src/shared/contract';
import { api, appSuite, dbTargets, withSession } from './helpers';

const LISTS = ['/r/equipment/list', '/a/stone/eqm/list', '/a/stone/eqmBcwBasic/list', '/a/stone/unit/list'];

describe.each(dbTargets())('input bounds (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { unit: 'nbadmin', authority: 'jgadmin' } });

  const get = async (sid: string, path: string, query: Record<string, string>) => {
    const res = await withSession(app, sid, { method: 'GET', url: api(path), query });
    return { status: res.statusCode, body: res.json<Envelope<{ pageNo: number; list: unknown[] }>>() };
  };
  const refused = (reply: { status: number; body: Envelope<unknown> }, message: RegExp | string) => {
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.result).toBe('false');
    if (typeof message === 'string') expect(reply.body.message).toBe(message);
    else expect(reply.body.message).toMatch(message);
  };

  it('refuses a page number past 1,000,000 (or Infinity) on resource and legacy lists, and serves the last one', async () => {
    for (const path of LISTS) {
      for (const pageNo of ['99999999999999999999', '1000001', 'Infinity', '1e309', '-1', '0'])
        refused(await get(session.unit, path, { pageNo }), /^请求参数错误|不能(大于|小于)/);
      refused(await get(session.unit, path, { pageSize: 'Infinity' }), /不能大于/);
      const last = await get(session.unit, path, { pageNo: '1000000', pageSize: '100' });
      expect(last.status, path).toBe(200);
      expect(last.body.data).toMatchObject({ pageNo: 1000000, list: [] });
    }
    // A page-number schema of a route outside the resource engine.
    refused(await get(session.unit, '/a/stone/unit/bypassAccount/list', { pageNo: '99999999999999999999' }), /^请求参数错误/);
  });

  it('refuses a filter value its column cannot hold, naming the field', async () => {
    refused(await get(session.unit, '/r/equipment/list', { floors: '99999999999' }), '层数不能大于2147483647');
    refused(await get(session.unit, '/r/equipment/list', { floors_gte: '-3000000000' }), '层数不能小于-2147483648');
    refused(await get(session.unit, '/r/equipment/list', { ratedLoad_lte: 'Infinity' }), '额定载重量(kg)不能大于2147483647');
    refused(await get(session.unit, '/r/equipment/list', { volume_gte: '1e16' }), '容积(m³)不能大于1000000000000000');
    refused(await get(session.unit, '/r/unit-profile/list', { registeredCapital_gte: '1000000000000' }), '注册资本（万元）不能大于999999999999.99');
    expect((await get(session.unit, '/r/unit-profile/list', { registeredCapital_gte: '999999999999.99' })).status).toBe(200);
    expect((await get(session.unit, '/r/equipment/list', { floors: '2147483647' })).status).toBe(200);
  });

  it('refuses dates outside the years 1900–2100, relative ones too', async () => {
    for (const value of ['0000-01-01', '1899-12-31', '2101-01-01', '9999-12-31'])
      refused(await get(session.unit, '/r/demo-notice/list', { publishDate_gte: value }), '发布日期格式不正确');
    refused(await get(session.unit, '/r/demo-notice/list', { createDate_lte: '0001-01-01T00:00:00Z' }), /格式不正确/);
    refused(await get(session.unit, '/r/demo-notice/list', { publishDate_lte: 'today+9999y' }), '发布日期超出可选的日期范围');
    refused(await get(session.unit, '/r/demo-notice/list', { publishDate_gte: 'today-9999m' }), '发布日期超出可选的日期范围');
    for (const value of ['1900-01-01', '2100-12-31', 'today+30d'])
      expect((await get(session.unit, '/r/demo-notice/list', { publishDate_gte: value })).status, value).toBe(200);

    const save = async (publishDate: string) => {
      const res = await withSession(app, session.unit, {
        method: 'POST',
        url: api('/r/demo-notice/save'),
        payload: { title: `日期边界${publishDate}`, content: '正文', category: '1', publishDate },
      });
      return { status: res.statusCode, body: res.json<Envelope<unknown>>() };
    };
    refused(await save('0000-01-01'), '发布日期格式不正确');
    refused(await save('2101-01-01'), '发布日期格式不正确');
    expect((await save('2100-12-31')).body.result).toBe('true');
  });

  it('refuses a body number its column cannot hold, naming the field', async () => {
    const post = async (path: string, payload: Record<string, unknown>) => {
      const res = await withSession(app, session.unit, { method: 'POST', url: api(path), payload });
      return { status: res.statusCode, body: res.json<Envelope<unknown>>() };
    };
    const notice = { title: '版本边界', content: '正文', category: '1' };
    refused(await post('/r/demo-notice/save', { ...notice, version: 99999999999 }), /^请求参数错误|不能大于/);
    const equipment = { equipmentName: '边界测试设备', address: '宁波市', equclacode: '3000' };
    refused(await post('/r/equipment/save', { ...equipment, floors: 3_000_000_000 }), '层数不能大于2147483647');
    refused(await post('/r/equipment/save', { ...equipment, volume: 1e300 }), '容积(m³)不能大于1000000000000000');
  });
});
