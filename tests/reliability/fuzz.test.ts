/**
 * Fuzz: every operation of the OpenAPI document — the legacy paths included — is called
 * with malformed path parameters, queries, headers, bodies and content types, as nobody, with a forged
 * session and as a demo user. No answer is a 5xx; every refusal is the envelope with a Chinese
 * message; nothing leaks a stack, a file or SQL; a route that needs a session answers 401 to the
 * first two; and the calls without a session change no business row (exact counts before and after;
 * only the tables anyone may write to by design — error reports, captchas, rate counters — may grow).
 * Signed in as the demo users of both using units and of the authority, every declared parameter
 * (path, query, body property) is sent at the edges of its schema and with sampled hostile values
 * (numbers past every column, NaN, Infinity, SQL-like and formula text, dates out of range, wrong
 * shapes): no 5xx, and a failure names the user, the path and the values it sent.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { appSuite, dbTargets, sessionOf } from '../api/helpers';
import { answerProblems, documentedOperations, fillPath, hasParams, rowCounts, Tally, type DeclaredParam, type Operation, type ParamSchema } from './support';

/** Tables an anonymous caller may add to by design (each bounded: see abuse-limits.test.ts). */
const OPEN_TABLES = new Set(['sys_error_log', 'sys_captcha', 'sys_rate_counter']);

const BAD_PARAMS = ['%00', '%ED%A0%80', '%E0%A4%A', 'x'.repeat(2000), '..%2F..%2Fetc%2Fpasswd', "'%20OR%201%3D1--", '-1'];
const BAD_QUERY = `pageNo=-1&pageSize=99999999&orderBy=${encodeURIComponent('id; DROP TABLE sys_user')}&id=%ED%A0%80&name=${'x'.repeat(3000)}&a[b][c]=1&__sid=`;
const EVIL = {
  id: "' OR 1=1 --",
  name: { $gt: '' },
  list: [[[]]],
  n: 1e308,
  s: 'x'.repeat(20_000),
  ids: 'a,b',
  pageNo: -1,
  pageSize: 1e9,
  orderBy: 'id; drop table sys_user',
  version: 'abc',
};

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

/**
 * Hostile values for any declared parameter: numbers past every column and past double, strings a
 * number parser reads as NaN or Infinity, text that looks like SQL or a spreadsheet formula, dates
 * out of range or not dates at all, unicode edge cases, and the wrong shape (arrays, objects, null).
 */
const HOSTILE: readonly unknown[] = [
  '99999999999999999999',
  1e20,
  -1e20,
  2147483648,
  -2147483649,
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  // eslint-disable-next-line no-loss-of-precision -- 2^53 + 1 on purpose: a number past Number.MAX_SAFE_INTEGER
  9007199254740993,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '0x7fffffff',
  '1e-400',
  'x'.repeat(5000),
  '',
  ' ',
  "' OR '1'='1' --",
  '1); DROP TABLE sys_user; --',
  '=HYPERLINK("http://evil.example","x")',
  '+SUM(1,1)',
  '-2+3',
  '@cmd',
  '\t=1+1',
  '\r=1+1',
  '0000-01-01',
  '9999-12-31',
  '2024-02-30',
  '1899-12-31',
  '2101-01-01T00:00:00Z',
  '2024-01-01T25:61:00Z',
  '+275760-09-13',
  'today+9999y',
  'today-9999y',
  'today+9999m',
  'yesterday',
  '\u{20BB7}\u{1F600}\u202e\u200b中文\uffff',
  '%_\\',
  '..%2F..%2Fetc%2Fpasswd',
  true,
  false,
  null,
  [],
  ['a', 'b'],
  [1e20, 'x'],
  { a: { b: { c: [1] } } },
  { $gt: '' },
];

/** The types a declared schema allows (anyOf branches included). */
function typesOf(schema: ParamSchema): string[] {
  const own = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  return [...own, ...(schema.anyOf ?? []).flatMap(typesOf)];
}

/**
 * Values at the edges of what a parameter's schema lets through, so they reach the handler and the
 * SQL: the largest integer a column holds, the widest number, the first and last accepted dates,
 * text as long as allowed with LIKE wildcards, quotes and formula characters.
 */
function edgesOf(schema: ParamSchema): unknown[] {
  if (schema.enum?.length) return [schema.enum[0], schema.enum[schema.enum.length - 1]];
  const types = typesOf(schema);
  const format = schema.format ?? schema.anyOf?.find((s) => s.format)?.format;
  if (types.includes('integer')) return [schema.maximum ?? 2147483647, schema.minimum ?? -2147483648, 1_000_000, 0];
  if (types.includes('number')) return [schema.maximum ?? 1e15, schema.minimum ?? -1e15, 999999999999.99, 1e-300];
  if (format === 'date') return ['1900-01-01', '2100-12-31', 'today+9999d', 'today-1y'];
  if (format === 'date-time') return ['1900-01-01T00:00:00Z', '2100-12-31T23:59:59+14:00', '2100-12-31', '2000-02-29T12:00:00.123456Z'];
  if (types.includes('boolean')) return [true, false, 'true', 'false'];
  if (types.includes('array')) return [[], ['%_\\'], Array.from({ length: 100 }, (_, i) => `v${i}`), ['']];
  if (types.includes('object')) return [{}, { id: '0'.repeat(32) }];
  const long = Math.min(schema.maxLength ?? 200, 5000);
  return ['x'.repeat(long), "%_\\' OR 1=1 --", '=1+1', '0'.repeat(32)];
}

/** One request of the hostile sweep: the operation with the given values of its declared parameters. */
function request(op: Operation, values: ReadonlyMap<DeclaredParam, unknown>): InjectOptions {
  const text = (v: unknown) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  let url = op.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [param, value] of values) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(text(value).slice(0, 300)) || 'x');
    else if (param.in === 'body' || op.method !== 'GET') body[param.name] = value;
    else if (Array.isArray(value)) for (const item of value) query.append(param.name, text(item));
    else query.append(param.name, text(value));
  }
  url = fillPath(url, '0'.repeat(32));
  const search = query.toString();
  return { method: op.method, url: search ? `${url}?${search}` : url, ...(op.method === 'GET' ? {} : { payload: body }) };
}

/** What a failure names: the request and the values it carried (cut short). */
const described = (values: ReadonlyMap<DeclaredParam, unknown>) =>
  [...values]
    .map(([p, v]) => `${p.in}:${p.name}=${JSON.stringify(v)?.slice(0, 40)}`)
    .join(' ')
    .slice(0, 400);

/** Hostile values each parameter gets (in turn from HOSTILE, so neighbours get different ones). */
const VALUES_PER_PARAM = Number(process.env.PORTAL_FUZZ_VALUES ?? 1);

type Identity = 'none' | 'forged' | 'user';
const FORGED_SID = 'f'.repeat(32);

/** The malformed requests of one operation. */
function cases(op: Operation): InjectOptions[] {
  const url = fillPath(op.path, 'x');
  const list: InjectOptions[] = [
    { method: op.method, url: `${url}?${BAD_QUERY}` },
    { method: op.method, url, headers: BAD_HEADERS, ...(op.method === 'GET' ? {} : { payload: '{}' }) },
  ];
  if (hasParams(op.path))
    for (const value of BAD_PARAMS) list.push({ method: op.method, url: fillPath(op.path, value), payload: op.method === 'GET' ? undefined : {} });
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
  const { app, session } = appSuite(target, { sessions: { user: 'nbadmin', second: 'bladmin', authority: 'jgadmin' } });
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
    const changed = Object.keys(before)
      .filter((t) => !OPEN_TABLES.has(t) && before[t] !== after[t])
      .map((t) => `${t}: ${before[t]} → ${after[t]}`);
    tally.check(changed.length === 0, () => `rows changed without a session: ${changed.join(', ')}`);
    expect(tally.sample(from)).toEqual([]);
  }, 600_000);

  it('answers hostile values of every declared parameter, as users of both using units and an authority, without a 5xx', async () => {
    // Demo users of the two using units and of the authority take turns; a session a call ended is renewed.
    const users = ['nbadmin', 'bladmin', 'jgadmin'];
    const sids = new Map([
      ['nbadmin', session.user],
      ['bladmin', session.second],
      ['jgadmin', session.authority],
    ]);
    const ops = (await documentedOperations(app)).filter((op) => !/\/(logout|changeRole)$/.test(op.path));
    const from = tally.failures.length;
    let turn = 0;
    const hit = async (op: Operation, values: Map<DeclaredParam, unknown>) => {
      const user = users[turn++ % users.length];
      const options = request(op, values);
      tally.requests++;
      const res = await app.inject({ ...options, cookies: { __sid: sids.get(user)! }, headers: { 'x-requested-with': 'XMLHttpRequest' } });
      const where = () => `${user} ${op.method} ${op.path} ${described(values)} (${res.statusCode})`;
      for (const problem of answerProblems(res)) tally.check(false, () => `${where()}: ${problem}`);
      tally.check(true, where);
      if (res.statusCode === 401 && op.access !== 'public') sids.set(user, await sessionOf(app, user));
    };
    let k = 0;
    for (const op of ops) {
      // Every parameter at the edges of its schema at once (these pass validation and reach SQL) ...
      for (let variant = 0; variant < 4; variant++) await hit(op, new Map(op.params.map((p) => [p, edgesOf(p.schema)[variant % edgesOf(p.schema).length]])));
      // ... then each parameter alone with hostile values, sampled in turn from the whole list.
      for (const param of op.params) {
        for (let n = 0; n < VALUES_PER_PARAM; n++) await hit(op, new Map([[param, HOSTILE[k++ % HOSTILE.length]]]));
      }
    }
    expect(tally.sample(from)).toEqual([]);
  }, 900_000);

  it('answers a signed-in user on every route without a 5xx or a leak', async () => {
    // Logging out or switching roles would end the session the sweep uses: they are fuzzed above.
    const ops = (await documentedOperations(app)).filter((op) => !/\/(logout|changeRole)$/.test(op.path));
    const from = tally.failures.length;
    await sweep('user', ops);
    expect(tally.sample(from)).toEqual([]);
  }, 600_000);
});
