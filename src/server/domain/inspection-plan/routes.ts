/**
 * The open results of random inspection plans (一公开), without login:
 *
 *   GET /open/inspection-results   `pageNo`, `pageSize`, `q` (unit name or plan title): the recorded
 *       checks of finished plans (state done) — plan number and title, unit name, check date and
 *       result — newest publication first. Nothing else of a check leaves the server: no officers,
 *       no certificate numbers, no findings, no ids.
 */
import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { AnyDb } from '../../resources/repository';
import { envelopeOf, failureResponses } from '../../../shared/wire';
import { INSPECTION_RESULTS_ROUTE, inspectionResultsPageSchema, inspectionResultsQuerySchema, type InspectionResult } from '../../../shared/inspection-results';
import { CHECK, PLAN } from './hooks';

/** Requests per minute per IP: a citizen pages through a list; a scraper is slowed. */
const RESULTS_RATE_LIMIT = 60;

export const inspectionResultRoutes: FastifyPluginAsync = async (app) => {
  app.route({
    method: 'GET',
    url: INSPECTION_RESULTS_ROUTE,
    config: { public: true, rateLimit: { max: RESULTS_RATE_LIMIT, timeWindow: 60_000 } },
    schema: {
      tags: [PLAN],
      summary: 'Open results of finished random inspection plans: plan, unit name, check date and result only',
      querystring: inspectionResultsQuerySchema,
      response: { 200: envelopeOf(inspectionResultsPageSchema), ...failureResponses },
    },
    handler: async (request, reply) => {
      const query = request.query as { pageNo?: number; pageSize?: number; q?: string };
      const pageNo = query.pageNo ?? 1;
      const pageSize = query.pageSize ?? 20;
      const plans = app.resources.get(PLAN)!.model;
      const checks = app.resources.get(CHECK)!.model;
      const p = (name: string) => sql.ref(`p.${plans.byName.get(name)!.column}`);
      const c = (name: string) => sql.ref(`c.${checks.byName.get(name)!.column}`);
      const q = query.q?.trim();
      const keyword = q ? sql`AND (${c('unitName')} LIKE ${`%${q}%`} OR ${p('title')} LIKE ${`%${q}%`})` : sql``;
      const from = sql`FROM ${sql.table(checks.table)} c JOIN ${sql.table(plans.table)} p ON p.id = ${c('plan')}
        WHERE p.status = 'done' AND c.status = 'checked' ${keyword}`;
      const db = app.db as AnyDb;
      const { rows: counted } = await sql<{ n: number }>`SELECT count(*)::int AS n ${from}`.execute(db);
      const { rows } = await sql<Omit<InspectionResult, 'resultLabel'>>`
        SELECT ${p('planNo')} AS "planNo", ${p('title')} AS "planTitle", ${c('unitName')} AS "unitName",
          to_char(${c('checkDate')}, 'YYYY-MM-DD') AS "checkDate", ${c('result')} AS result,
          to_char(${p('publishDate')}, 'YYYY-MM-DD') AS "publishDate"
        ${from}
        ORDER BY ${p('publishDate')} DESC, p.id DESC, ${c('drawOrder')} ASC
        LIMIT ${pageSize} OFFSET ${(pageNo - 1) * pageSize}`.execute(db);
      const labels = new Map((app.resources.get(CHECK)!.runtime.dicts.get('inspection-result') ?? []).map((i) => [i.value, i.label]));
      const list = rows.map((r) => ({ ...r, resultLabel: r.result ? (labels.get(r.result) ?? r.result) : null }));
      return reply.ok({ pageNo, pageSize, count: Number(counted[0]?.n ?? 0), list });
    },
  });
};
