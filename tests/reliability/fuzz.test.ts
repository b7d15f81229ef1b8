/**
 * Fuzz (issue 17): every operation of the OpenAPI document — the legacy paths included — is called
 * with malformed path parameters, queries, headers, bodies and content types, as nobody, with a forged
 * session and as a demo user. No answer is a 5xx; every refusal is the envelope with a Chinese
 * message; nothing leaks a stack, a file or SQL; a route that needs a session answers 401 to the
 * first two; and the calls without a session change no business row (exact counts before and after;
 * only the tables anyone may write to by design — error reports, captchas, rate counters — may grow).
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { appSuite, dbTargets } from '../api/helpers';
import { answerProblems, documentedOperations, fillPath, hasParams, rowCounts, Tally, type Operation } from './support';

/** Tables an anonymous caller may add to by design (each bounded: see abuse-limits.test.ts). */
const OPEN_TABLES = new Set(['sys_error_log', 'sys_captcha', 'sys_rate_counter']);

const BAD_PARAMS = ['%00', '%ED%A0%80', '%E0%A4%A', 'x'.repeat(2000), '..%2F..%2Fetc%2Fpasswd', "'%20OR%201%3D1--", '-1'];
const BAD_QUERY = `pageNo=-1&pageSize=99999999&orderBy=${encodeURIComponent('id; DROP TABLE sys_user')}&id=%ED%A0%80&name=${'x'.repeat(3000)}&a[b][c]=1&__sid=`;
const EVIL = { id: "' OR 1=1 --", name: { $gt: '' }, list: [[[]]], n: 1e308, s: 'x'.repeat(20_000), ids: 'a,b', pageNo: -1, pageSize: 1e9, orderBy: 'id; drop table sys_user', version: 'abc' };

/** Headers a broken client or proxy sends: garbled cookies, addresses, ranges, dates and charsets. */
const BAD_HEADERS = {
  cookie: `__sid=%E0%A4%A; __sid=; lang=${'x'.repeat(6000)}; =; ;`,
  'x-forwarded-for': 'not-an-ip, ::zz, 999.1.1.1',
  'x-real-ip': '\u00ff',
  'accept-encoding': 'gzip;q=abc, br;q=-1',
  'accept-language': 'zz-ZZ;q=2, *;q=x',
  range: 'bytes=9-1,abc',
  'if-modified-since': 'yesterday',
  'if-none-match': '"',
  authorization: 'Bearer %00',
  'content-type': 'application/json; charset=utf-99',
  'x-requested-with': '\u00ff',
  referer: 'javascript:alert(1)',
};

type Identity = 'none' | 'forged' | 'user';
const FORGED_SID = 'f'.repeat(32);

/** The malformed requests of one operation. */
function cases(op: Operation): InjectOptions[] {
  const url = fillPath(op.path, 'x');
  const list: InjectOptions[] = [{ method: op.method, url: `${url}?${BAD_QUERY}` }, { method: op.method, url, headers: BAD_HEADERS, ...(op.method === 'GET' ? {} : { payload: '{}' }) }];
  if (hasParams(op.path)) for (const value of BAD_PARAMS) list.push({ method: op.method, url: fillPath(op.path, value), payload: op.method === 'GET' ? undefined : {} });
  if (op.method !== 'GET') {
    const wrongTyped = Object.fromEntries(op.bodyFields.map((f) => [f, { nested: [f] }]));
    const json = (payload: string) => ({ method: op.method, url, headers: { 'content-type': 'application/json' }, payload });
    list.push(
      json('{"a":'),
      json('[1,2]'),
      json('null'),
      { method: op.method, url, payload: { ...EVIL, ...wrongTyped } },
      { method: op.method, url, payload: { mes: 'a\u0000b', name: 'a\u0000', ...Object.fromEntries(op.bodyFields.map((f) => [f, 'x\u0000'])) } },
      { method: op.method, url, headers: { 'content-type': 'text/plain' }, payload: 'hello' },
      { method: op.method, url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%ZZ&b[=1&&=' },
      { method: op.method, url, headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, payload: '--xyz\r\ngarbage' },
      { method: op.method, url, headers: { 'content-type': 'application/json' }, payload: `{"s":"${'x'.repeat(1_100_000)}"}` },
    );
  }
  return list;
}

describe.each(dbTargets())('fuzz (%s)', (target) => {
  const { app, session } = appSuite(target, { sessions: { user: 'nbadmin' } });
  const tally = new Tally(`fuzz (${target})`);
  afterAll(() => console.log(tally.line()));

  async function send(identity: Identity, options: InjectOptions): Promise<LightMyRequestResponse> {
    tally.requests++;
    const sid = identity === 'user' ? session.user : identity === 'forged' ? FORGED_SID : null;
    return app.inject({ ...options, ...(sid ? { cookies: { __sid: sid }, headers: { ...options.headers, 'x-requested-with': 'XMLHttpRequest' } } : {}) });
  }

  async function sweep(identity: Identity, ops: readonly Operation[]): Promise<void> {
    for (const op of ops) {
      for (const options of cases(op)) {
        const res = await send(identity, options);
        const where = () => `${identity} ${String(options.method)} ${String(options.url).slice(0, 100)} (${res.statusCode})`;
        for (const problem of answerProblems(res)) tally.check(false, () => `${where()}: ${problem}`);
        tally.check(true, where);
        if (identity !== 'user' && op.access !== 'public') {
          // 401, or refused as malformed before any handler (a bad address, a body too large or of an unknown type).
          tally.check([400, 401, 413, 415].includes(res.statusCode), () => `${where()}: a route that needs a session answered without one`);
        }
      }
    }
  }

  it('answers nobody and a forged session on every route, and they change no business row', async () => {
    const ops = await documentedOperations(app);
    expect(ops.length).toBeGreaterThan(300);
    const from = tally.failures.length;
    const before = await rowCounts(app.db);
    await sweep('none', ops);
    await sweep('forged', ops);
    const after = await rowCounts(app.db);
    const changed = Object.keys(before).filter((t) => !OPEN_TABLES.has(t) && before[t] !== after[t]).map((t) => `${t}: ${before[t]} → ${after[t]}`);
    tally.check(changed.length === 0, () => `rows changed without a session: ${changed.join(', ')}`);
    expect(tally.sample(from)).toEqual([]);
  }, 600_000);

  it('answers a signed-in user on every route without a 5xx or a leak', async () => {
    // Logging out or switching roles would end the session the sweep uses: they are fuzzed above.
    const ops = (await documentedOperations(app)).filter((op) => !/\/(logout|changeRole)$/.test(op.path));
    const from = tally.failures.length;
    await sweep('user', ops);
    expect(tally.sample(from)).toEqual([]);
  }, 600_000);
});
