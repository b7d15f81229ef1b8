/**
 * npm run bench:area — the authority's area-wide screens over a generated city on PostgreSQL:
 * 10,000 using units and 1,000,000 pieces of equipment spread over them and Ningbo's districts
 * (`npm run seed -- --units 10000 --equipment 1000000`, bulk-city.ts), read over HTTP from a real
 * server process (src/server/main.ts) by the city authority (jgadmin) after a real login.
 *
 * Measured, each by sequential requests (one at a time: latency, not throughput), p50 and p99:
 *   (a) /r/equipment/list, first page of 辖区设备综合查询 (area-equipment-query's default order);
 *   (b) a filtered page: 区县 + 设备种类 + 使用单位 contains (the values rotate over the samples);
 *   (c) the overdue list's first page (area-equipment-timeout's fixed filter and order);
 *   (d) /r/area-unit/list (辖区单位): first page by name, sorted by equipment count, by overdue count;
 *   (e) /r/equipment/stats: groupBy=locationArea&stackBy=equclacode (the stacked bar), and
 *       groupBy=equclacode over the overdue filter (a rate chart's numerator); the 设备统计 screen's
 *       five cards and its rate charts' other counts (each rotating).
 * Goals: lists p99 ≤ 300 ms, statistics p99 ≤ 1 s.
 *
 * Then BENCH_AREA_USERS (default 50) users at once for BENCH_AREA_SECONDS (default 30): a fifth of
 * them the authority's staff, going round its screens (the area list's first page, a filtered page,
 * the overdue list, 辖区单位 by overdue count, the 设备统计 screen's requests), the rest using units'
 * clerks going round their own list's first page and a filtered page. Each user waits for the answer,
 * then "thinks" 0.5–1.5 s (1 s on average: a clerk clicking fast; people at desks take longer)
 * before the next request. Same goals per kind of request, on p99; any failed answer misses.
 * Last, the capacity behind it, for information (no goal): per kind of request, BENCH_AREA_USERS
 * connections asking without pause for 10 s (autocannon): the requests per second the server and
 * PostgreSQL sustain on this machine, and the latency once they are saturated.
 *
 * Baseline, measured in the same run against the same server and database: the same request by
 * the using unit nbadmin over its own rows (an average unit's share, ROWS/UNITS rows) — what the
 * portal costs when the scope does the narrowing; the ratio is area p99 / own-rows p99, how much
 * dearer the city-wide view is than a unit's. 辖区单位 has no unit-side equivalent (units may not
 * read it): its baseline is the unit's own equipment list, first page.
 *
 * Needs DATABASE_URL (a throw-away `portal_bench_area_*` database is made next to it and dropped at
 * the end); without it, or when the server is unreachable, it says so and exits 0.
 *
 * Env: BENCH_AREA_UNITS (default 10000), BENCH_AREA_ROWS (1000000), BENCH_AREA_SAMPLES (requests
 * per list query, default 100; statistics a third of it), BENCH_AREA_PORT (4140), BENCH_AREA_KEEP_DB=1
 * (keep the database and print its URL, to look at the plans; drop it by hand),
 * BENCH_AREA_DATABASE_URL (measure that database as it is, seeded before: no seeding, no drop).
 */
import { fileURLToPath } from 'node:url';
import type { Server } from './portal';
import { benchCommandLine, printResult } from './report';

benchCommandLine(
  'bench:area',
  "The authority's area-wide lists, 辖区单位 and statistics over a generated city (10,000 units, 1,000,000 pieces of equipment) on PostgreSQL, over HTTP as the city authority; p50/p99 against the same requests by a using unit over its own rows (goal: lists p99 ≤ 300 ms, statistics ≤ 1 s). Needs DATABASE_URL; without it, it says so and exits 0.",
  [
    ['DATABASE_URL', 'PostgreSQL server for a throw-away database next to it (dropped at the end)'],
    ['BENCH_AREA_UNITS', 'generated using units (default 10000)'],
    ['BENCH_AREA_ROWS', 'generated equipment rows (default 1000000)'],
    ['BENCH_AREA_SAMPLES', 'requests per list query (default 100; statistics a third)'],
    ['BENCH_AREA_USERS', 'users at once in the concurrent part (default 50)'],
    ['BENCH_AREA_SECONDS', 'seconds of the users at once (default 30)'],
    ['BENCH_AREA_PORT', 'port of the server (default 4140)'],
    ['BENCH_AREA_KEEP_DB', '1: keep the seeded database and print its URL (drop it by hand)'],
    ['BENCH_AREA_DATABASE_URL', 'measure this database as it is (seeded before): no seeding, no drop'],
  ],
);
// The bench's modules load once the command line is understood (`--help` answers at once).
const { sql } = await import('kysely');
const { buildApp } = await import('../../src/server/app');
const { DEMO_UNITS, seedDemoData } = await import('../../src/server/db/seed');
const { bulkEquipment } = await import('../../src/server/domain/equipment/seed');
const { CITY_DISTRICTS } = await import('../../src/server/domain/equipment/bulk-city');
const { cleanupOnce, login, reachablePostgres, startProcess, stopProcesses, throwAwayDatabase } = await import('./portal');

const UNITS = Number(process.env.BENCH_AREA_UNITS ?? 10_000);
const ROWS = Number(process.env.BENCH_AREA_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_AREA_SAMPLES ?? 100);
const PORT = Number(process.env.BENCH_AREA_PORT ?? 4140);
const USERS = Number(process.env.BENCH_AREA_USERS ?? 50);
const SECONDS = Number(process.env.BENCH_AREA_SECONDS ?? 30);
/** A user's pause between an answer and the next request: uniform in [THINK_MS / 2, THINK_MS × 1.5]. */
const THINK_MS = 1000;
/** Seconds of each capacity run (no pause between requests). */
const CAPACITY_SECONDS = 10;
/** Keep the seeded database for a look at the plans (drop it by hand). */
const KEEP_DB = process.env.BENCH_AREA_KEEP_DB === '1';
/** A database seeded before (BENCH_AREA_KEEP_DB): measured as it is, neither seeded nor dropped. */
const GIVEN_DB = process.env.BENCH_AREA_DATABASE_URL;
const LIST_GOAL_MS = 300;
const STATS_GOAL_MS = 1000;
/** The run takes ~10 minutes on an idle 2-core machine (the seed most of it); past this it aborts and cleans up. */
const DEADLINE_MS = 15 * 60_000;
const MAIN = fileURLToPath(new URL('../../src/server/main.ts', import.meta.url));

const log = (message: string) => console.log(`  ${message}`);
const since = (started: number) => `${((performance.now() - started) / 1000).toFixed(0)} s`;

/** The tables (through the engine, as `npm start` makes them), the demo accounts, the city, the demo unit's own share. */
async function prepareDatabase(url: string): Promise<void> {
  const started = performance.now();
  const app = await buildApp({ databaseUrl: url, captchaEnabled: false, logLevel: 'warn', staticDir: null, pgStatementTimeoutMs: 0 });
  try {
    await app.ready();
    await seedDemoData(app.db);
    let last = 0;
    await bulkEquipment(app, ROWS, {
      units: UNITS,
      onProgress: (done) => {
        if (done - last >= 100_000 || done === ROWS) {
          last = done;
          log(`seeding: ${done.toLocaleString('en')} / ${ROWS.toLocaleString('en')} rows over ${UNITS.toLocaleString('en')} units (${since(started)})`);
        }
      },
    });
    // The baseline unit: an average unit's share of rows.
    await bulkEquipment(app, Math.max(20, Math.round(ROWS / UNITS)), { seed: 2 });
    await sql`VACUUM ANALYZE`.execute(app.db);
    log(`seeded and analyzed in ${since(started)}`);
  } finally {
    await app.close();
  }
}

interface Reply {
  result: string;
  message?: string;
  data?: { count?: number; list?: unknown[] };
}

/** `samples` sequential GETs of the URLs (cycling), after a few warm-up ones; latencies in ms, sorted. */
async function time(urls: readonly string[], sid: string, samples: number): Promise<number[]> {
  const get = async (url: string) => {
    const started = performance.now();
    const res = await fetch(`${url}&__sid=${sid}`);
    const body = (await res.json()) as Reply;
    const ms = performance.now() - started;
    if (res.status !== 200 || body.result !== 'true') throw new Error(`${url}: ${res.status} ${body.message ?? ''}`);
    return ms;
  };
  for (const url of urls.slice(0, 3)) await get(url);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await get(urls[i % urls.length]));
  return times.sort((a, b) => a - b);
}

interface Round {
  /** Kind of request: its latencies are gathered and judged together. */
  kind: string;
  url: string;
}

/**
 * `users` simulated users at once for SECONDS: user i goes round `rounds[i]` from a place of its
 * own, waiting for each answer, then THINK_MS ± 50 % before the next. Latencies by kind, sorted, and
 * the failed answers.
 */
async function users(rounds: readonly { sid: string; round: readonly Round[] }[]): Promise<{ latencies: Map<string, number[]>; failures: number }> {
  const latencies = new Map<string, number[]>();
  let failures = 0;
  const until = performance.now() + SECONDS * 1000;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await Promise.all(
    rounds.map(async ({ sid, round }, user) => {
      await sleep(Math.random() * THINK_MS); // users arrive spread over the first second
      for (let i = user; performance.now() < until; i++) {
        const { kind, url } = round[i % round.length];
        const started = performance.now();
        try {
          const res = await fetch(`${url}&__sid=${sid}`);
          const body = (await res.json()) as Reply;
          if (res.status !== 200 || body.result !== 'true') failures++;
        } catch {
          failures++;
        }
        const list = latencies.get(kind) ?? [];
        list.push(performance.now() - started);
        latencies.set(kind, list);
        await sleep(THINK_MS * (0.5 + Math.random()));
      }
    }),
  );
  for (const list of latencies.values()) list.sort((a, b) => a - b);
  return { latencies, failures };
}

/**
 * `users` connections asking for `urls` in turn (each from its own place in the list) without
 * pause for CAPACITY_SECONDS, after a 2 s warm-up; autocannon's figures.
 */
async function underLoad(urls: readonly string[], sid: string, users: number): Promise<import('autocannon').Result> {
  const { default: autocannon } = await import('autocannon');
  const first = new URL(urls[0]);
  const requests = urls.map((u) => {
    const { pathname, search } = new URL(`${u}&__sid=${sid}`);
    return { method: 'GET', path: `${pathname}${search}` };
  });
  const origin = `${first.protocol}//${first.host}`;
  await autocannon({ url: origin, connections: users, duration: 2, timeout: 10, requests });
  return autocannon({ url: origin, connections: users, duration: CAPACITY_SECONDS, timeout: 10, requests });
}

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];

async function main(): Promise<void> {
  console.log(
    `bench:area — ${ROWS.toLocaleString('en')} equipment rows over ${UNITS.toLocaleString('en')} units on PostgreSQL, the city authority's area-wide screens over HTTP, ${SAMPLES} requests per list query`,
  );
  const adminUrl = await reachablePostgres('bench:area');
  if (!adminUrl) return;

  let database: Awaited<ReturnType<typeof throwAwayDatabase>> | undefined;
  const servers: Server[] = [];
  const cleanup = cleanupOnce(DEADLINE_MS, async () => {
    await stopProcesses(servers);
    if (GIVEN_DB) return;
    if (KEEP_DB && database) log(`kept the database (BENCH_AREA_KEEP_DB): ${database.url}`);
    else await database?.drop();
  });

  try {
    if (GIVEN_DB) database = { url: GIVEN_DB, drop: async () => undefined };
    else {
      database = await throwAwayDatabase(adminUrl, 'portal_bench_area');
      await prepareDatabase(database.url);
    }
    const server = await startProcess(
      [MAIN],
      {
        DATABASE_URL: database.url,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        PORTAL_DEMO: 'off',
        PORTAL_CAPTCHA: 'off',
        PORTAL_STATIC_DIR: '',
        PORTAL_LOGIN_RATE_LIMIT: '100000',
      },
      /Portal ready: (\S+)/,
    );
    servers.push(server);
    const api = `${server.prefix}/espServer`;
    const city = await login(api, DEMO_UNITS.authority.orgcode);
    const unit = await login(api, DEMO_UNITS.using.orgcode);
    const url = (path: string, params: Record<string, string>) => `${api}${path}?${new URLSearchParams({ pageNo: '1', pageSize: '20', ...params })}`;

    const byDue = { orderBy: 'nextInspectionDate asc' };
    const overdue = { ...byDue, useStatus: '1', nextInspectionDate_lte: 'today-1d' };
    // The filtered page's values rotate: every district, two categories, a word of the generated names.
    const words = ['精工', '华泰', '物流', '化工', '港务', '置业'];
    const filtered = CITY_DISTRICTS.flatMap((d, i) => [
      { ...byDue, locationArea: d.code, equclacode: i % 2 ? '3000' : '4000', unitName: words[i % words.length] },
      { ...byDue, locationArea: d.code, equclacode: i % 2 ? '2000' : '3000', unitName: words[(i + 3) % words.length] },
    ]);
    const statsCards: Record<string, string>[] = [
      {},
      { useStatus: '1' },
      { useStatus: '1', nextInspectionDate_lte: 'today-1d' },
      { useStatus: '1', nextInspectionDate_gte: 'today', nextInspectionDate_lte: 'today+30d' },
      { lastConclusion: '3' },
    ];
    const rateCharts: Record<string, string>[] = [
      { groupBy: 'locationArea', useStatus: '1' },
      { groupBy: 'locationArea', useStatus: '1', nextInspectionDate_lte: 'today-1d' },
      { groupBy: 'equclacode', useStatus: '1' },
    ];
    const list = '/r/equipment/list';
    const stats = '/r/equipment/stats';
    const ownFirstPage = [url(list, byDue)];
    const queries: { name: string; urls: string[]; baseline: string[]; goal: number; samples: number }[] = [
      { name: '(a) area equipment, first page', urls: [url(list, byDue)], baseline: ownFirstPage, goal: LIST_GOAL_MS, samples: SAMPLES },
      {
        name: '(b) area equipment, filtered page',
        urls: filtered.map((f) => url(list, f)),
        baseline: filtered.map((f) => url(list, { ...f, unitName: '' })),
        goal: LIST_GOAL_MS,
        samples: SAMPLES,
      },
      { name: '(c) overdue list, first page', urls: [url(list, overdue)], baseline: [url(list, overdue)], goal: LIST_GOAL_MS, samples: SAMPLES },
      {
        name: '(d) 辖区单位, first page by name',
        urls: [url('/r/area-unit/list', { orderBy: 'orgname asc' })],
        baseline: ownFirstPage,
        goal: LIST_GOAL_MS,
        samples: SAMPLES,
      },
      {
        name: '(d) 辖区单位 by equipment count',
        urls: [url('/r/area-unit/list', { orderBy: 'equipmentCount desc' })],
        baseline: ownFirstPage,
        goal: LIST_GOAL_MS,
        samples: SAMPLES,
      },
      {
        name: '(d) 辖区单位 by overdue count',
        urls: [url('/r/area-unit/list', { orderBy: 'overdueCount desc' })],
        baseline: ownFirstPage,
        goal: LIST_GOAL_MS,
        samples: SAMPLES,
      },
      {
        name: '(e) stats by district × category',
        urls: [url(stats, { groupBy: 'locationArea', stackBy: 'equclacode' })],
        baseline: [url(stats, { groupBy: 'locationArea', stackBy: 'equclacode' })],
        goal: STATS_GOAL_MS,
        samples: Math.max(10, Math.round(SAMPLES / 3)),
      },
      {
        name: '(e) stats overdue by category',
        urls: [url(stats, { groupBy: 'equclacode', useStatus: '1', nextInspectionDate_lte: 'today-1d' })],
        baseline: [url(stats, { groupBy: 'equclacode', useStatus: '1', nextInspectionDate_lte: 'today-1d' })],
        goal: STATS_GOAL_MS,
        samples: Math.max(10, Math.round(SAMPLES / 3)),
      },
      // The screen's other requests (schemas/screens/area-stats-equipment.json), rotating: its cards, and its rate charts' other counts.
      {
        name: '(e) stats cards',
        urls: statsCards.map((p) => url(stats, p)),
        baseline: statsCards.map((p) => url(stats, p)),
        goal: STATS_GOAL_MS,
        samples: Math.max(10, Math.round(SAMPLES / 3)),
      },
      {
        name: '(e) stats rate charts',
        urls: rateCharts.map((p) => url(stats, p)),
        baseline: rateCharts.map((p) => url(stats, p)),
        goal: STATS_GOAL_MS,
        samples: Math.max(10, Math.round(SAMPLES / 3)),
      },
    ];
    // A first look: what each query answers (counts), so a wrong query shows before it is timed.
    for (const q of queries) {
      const res = (await (await fetch(`${q.urls[0]}&__sid=${city}`)).json()) as Reply;
      const data = res.data;
      log(
        `${q.name}: ${res.result === 'true' ? `${data?.count ?? '-'} rows matching, ${Array.isArray(data?.list) ? data.list.length : Array.isArray(res.data) ? (res.data as unknown[]).length : '-'} on the page/groups` : `refused: ${res.message}`}`,
      );
    }
    for (const q of queries) {
      const area = await time(q.urls, city, q.samples);
      const own = await time(q.baseline, unit, q.samples);
      const [p50, p99, b99] = [quantile(area, 0.5), quantile(area, 0.99), quantile(own, 0.99)];
      printResult(
        `area ${q.name}`,
        `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms (unit's own rows: p50 ${quantile(own, 0.5).toFixed(0)} ms, p99 ${b99.toFixed(0)} ms)`,
        `p99 ≤ ${q.goal} ms`,
        p99 / b99,
        p99 <= q.goal,
        'area/own-rows p99',
      );
    }

    // USERS users at once, a fifth of them the authority's staff, the rest using units' clerks.
    const statsScreen = [
      url(stats, { groupBy: 'locationArea', stackBy: 'equclacode' }),
      url(stats, { groupBy: 'equclacode', useStatus: '1', nextInspectionDate_lte: 'today-1d' }),
      ...statsCards.map((p) => url(stats, p)),
      ...rateCharts.map((p) => url(stats, p)),
    ];
    const KINDS = {
      areaFirst: { name: 'authority list, first page', goal: LIST_GOAL_MS },
      areaFiltered: { name: 'authority list, filtered page', goal: LIST_GOAL_MS },
      overdue: { name: 'authority overdue list', goal: LIST_GOAL_MS },
      areaUnits: { name: '辖区单位 by overdue count', goal: LIST_GOAL_MS },
      stats: { name: 'authority statistics (设备统计)', goal: STATS_GOAL_MS },
      ownFirst: { name: "unit's own list, first page", goal: LIST_GOAL_MS },
      ownFiltered: { name: "unit's own list, filtered page", goal: LIST_GOAL_MS },
    } as const;
    type Kind = keyof typeof KINDS;
    const of = (kind: Kind, urls: string[]): Round[] => urls.map((u) => ({ kind, url: u }));
    const ownFiltered = filtered.map((f) => url(list, { ...f, unitName: '' }));
    // The authority's round: its screens in the order a clerk opens them, the filtered page and the statistics rotating.
    const authorityRound = filtered.flatMap((f, i) => [
      ...of('areaFirst', [url(list, byDue)]),
      ...of('areaFiltered', [url(list, f)]),
      ...of('overdue', [url(list, overdue)]),
      ...of('stats', [statsScreen[i % statsScreen.length]]),
      ...(i % 4 === 0 ? of('areaUnits', [url('/r/area-unit/list', { orderBy: 'overdueCount desc' })]) : []),
    ]);
    const unitRound = ownFiltered.flatMap((f) => [...of('ownFirst', ownFirstPage), ...of('ownFiltered', [f])]);
    const staff = Math.max(1, Math.round(USERS / 5));
    log(
      `${USERS} users at once for ${SECONDS} s (${staff} of the authority, ${USERS - staff} of using units), ${THINK_MS / 1000} s between answer and next request on average:`,
    );
    const crowd = await users(Array.from({ length: USERS }, (_, i) => (i < staff ? { sid: city, round: authorityRound } : { sid: unit, round: unitRound })));
    for (const [kind, { name, goal }] of Object.entries(KINDS) as [Kind, (typeof KINDS)[Kind]][]) {
      const times = crowd.latencies.get(kind) ?? [];
      if (!times.length) continue;
      const [p50, p99] = [quantile(times, 0.5), quantile(times, 0.99)];
      printResult(
        `area ${USERS} users: ${name}`,
        `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${times.length} requests${crowd.failures ? `; ${crowd.failures} failed answers in the run` : ''}`,
        `p99 ≤ ${goal} ms, no failures`,
        p99 / goal,
        p99 <= goal && crowd.failures === 0,
        'p99/goal',
      );
    }
    // The capacity behind it (information, no goal): each kind asked without pause.
    log(`capacity, ${USERS} connections without pause, ${CAPACITY_SECONDS} s each (no goal):`);
    const capacity: { kind: Kind; urls: string[]; sid: string }[] = [
      { kind: 'areaFirst', urls: [url(list, byDue)], sid: city },
      { kind: 'areaFiltered', urls: filtered.map((f) => url(list, f)), sid: city },
      { kind: 'overdue', urls: [url(list, overdue)], sid: city },
      { kind: 'areaUnits', urls: [url('/r/area-unit/list', { orderBy: 'overdueCount desc' })], sid: city },
      { kind: 'stats', urls: statsScreen, sid: city },
      { kind: 'ownFirst', urls: ownFirstPage, sid: unit },
      { kind: 'ownFiltered', urls: ownFiltered, sid: unit },
    ];
    for (const c of capacity) {
      const r = await underLoad(c.urls, c.sid, USERS);
      log(
        `${KINDS[c.kind].name}: ${Math.round(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${r.errors + r.non2xx} errors/timeouts/non-2xx`,
      );
    }
  } finally {
    await cleanup();
  }
}

await main();
