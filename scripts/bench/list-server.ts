/**
 * One server of the list bench, run as its own process so autocannon never shares its event loop:
 *
 *   tsx scripts/bench/list-server.ts engine     the real app (buildApp) on the bench schema dir
 *   tsx scripts/bench/list-server.ts baseline   a hand-written Fastify route + SQL for the same query
 *
 * Reads BENCH_DATABASE_URL and BENCH_SCHEMA_DIR; listens on 127.0.0.1 (random port) and prints
 * `listening <url-prefix>` once ready. Both check the session in the database and apply the
 * session's unit scope; both serve the envelope with the same page shape.
 */
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { tokenDigest } from '../../src/server/services/crypto-suite';
import { BASELINE_SELECT, TABLE } from './list-fixture';

const databaseUrl = process.env.BENCH_DATABASE_URL!;
const mode = process.argv[2];

async function engine(): Promise<string> {
  const app = await buildApp({
    databaseUrl,
    schemaDir: process.env.BENCH_SCHEMA_DIR!,
    captchaEnabled: false,
    logLevel: 'silent',
    staticDir: null,
    loginRateLimit: 100_000,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return `${address}${app.config.apiBase}`;
}

const str = { type: ['string', 'null'] } as const;
const num = { type: ['number', 'null'] } as const;
const rowSchema = {
  type: 'object',
  properties: Object.fromEntries<typeof str | typeof num>([
    ...[
      'id',
      'equipNo',
      'name',
      'category',
      'useStatus',
      'model',
      'manufacturer',
      'madeDate',
      'installDate',
      'nextCheckDate',
      'address',
      'contactMobile',
      'remarks',
      'unitId',
      'areaCode',
      'createBy',
      'createDate',
      'updateBy',
      'updateDate',
    ].map((k) => [k, str] as const),
    ...['ratedLoad', 'price', 'floors', 'version'].map((k) => [k, num] as const),
  ]),
};

async function baseline(): Promise<string> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const app = Fastify({ logger: false });
  const fail = (message: string) => ({ result: 'false', success: false, isSuccess: false, message });
  app.get(
    '/list',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: {
              result: { type: 'string' },
              success: { type: 'boolean' },
              isSuccess: { type: 'boolean' },
              message: { type: 'string' },
              data: {
                type: 'object',
                properties: {
                  pageNo: { type: 'integer' },
                  pageSize: { type: 'integer' },
                  count: { type: 'integer' },
                  list: { type: 'array', items: rowSchema },
                },
              },
            },
          },
          401: {
            type: 'object',
            properties: { result: { type: 'string' }, success: { type: 'boolean' }, isSuccess: { type: 'boolean' }, message: { type: 'string' } },
          },
        },
      },
    },
    async (request, reply) => {
      const q = request.query as Record<string, string | string[] | undefined>;
      const sid = typeof q.__sid === 'string' ? q.__sid : undefined;
      const session = sid
        ? await pool.query<{ unit_id: string }>(
            `SELECT u.unit_id FROM sys_session s JOIN sys_user u ON u.id = s.user_id WHERE s.id = $1 AND u.status = '0' AND s.last_seen_at > now() - interval '30 minutes'`,
            [tokenDigest('standard', sid)],
          )
        : undefined;
      const unitId = session?.rows[0]?.unit_id;
      if (!unitId) return reply.code(401).send(fail('登录已过期，请重新登录'));
      const pageNo = Math.max(1, Number(q.pageNo) || 1);
      const pageSize = Math.min(100, Math.max(1, Number(q.pageSize) || 20));
      // The bench's filters only, each applied when present (as any hand-written list route would).
      const params: unknown[] = [unitId];
      const conditions = ['unit_id = $1'];
      const add = (sql: string, value: unknown) => {
        params.push(value);
        conditions.push(sql.replace('?', `$${params.length}`));
      };
      if (q.category) add('category = ANY(?::text[])', [q.category].flat());
      if (q.useStatus) add('use_status = ANY(?::text[])', [q.useStatus].flat());
      if (q.installDate_gte) add('install_date >= ?', q.installDate_gte);
      if (q.installDate_lte) add('install_date <= ?', q.installDate_lte);
      const where = conditions.join(' AND ');
      const n = params.length;
      const [page, total] = await Promise.all([
        pool.query(`SELECT ${BASELINE_SELECT} FROM ${TABLE} WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`, [
          ...params,
          pageSize,
          (pageNo - 1) * pageSize,
        ]),
        pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${TABLE} WHERE ${where}`, params),
      ]);
      return { result: 'true', success: true, isSuccess: true, message: '操作成功', data: { pageNo, pageSize, count: total.rows[0].count, list: page.rows } };
    },
  );
  app.addHook('onClose', () => pool.end());
  return app.listen({ host: '127.0.0.1', port: 0 });
}

if (mode !== 'engine' && mode !== 'baseline') throw new Error('usage: list-server.ts engine|baseline');
const prefix = mode === 'engine' ? await engine() : await baseline();
console.log(`listening ${prefix}`);
