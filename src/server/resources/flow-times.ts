/**
 * How long a workflow takes: `GET /r/<resource>/flow-times?months=<from>,<to>`, what a stats
 * screen's `flowTimes` table reads (one call per resource with a workflow).
 *
 * - Rows: exactly those `list` would page through without filters (same RBAC and row scope,
 *   records.ts `listCriteria`), through their entries in sys_flow_log.
 * - Submission of a row: its first entry with action `commit` when the workflow's `commit` starts
 *   from the initial state (a draft is sent). When `commit` exists but only from other states (the
 *   initial state is itself a request, e.g. one returned and sent again), the row's first entry.
 *   Without a `commit` action: the row's first `commit` entry (server-side filings log one), else
 *   its first entry leaving the initial state, else its first entry.
 * - `submitted`: rows whose submission falls within the months (offsets from the current month in
 *   the portal's time zone, default `-11,0`).
 * - `finished`: of those, rows with a later entry into a final state other than by `cancel`;
 *   `avgDays` and `p90Days` (percentile_cont 0.9) of the days from submission to that entry,
 *   one decimal, null when none finished.
 * One SQL statement per call; PGlite and PostgreSQL alike.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { PORTAL_TIME_ZONE, todayIn } from '../../shared/dates';
import { envelopeOf, failureResponses } from '../../shared/wire';
import { AppError } from '../errors';
import { quote } from './naming';
import { commonOptions, inputOf, type Operation } from './operations';
import { listCriteria, type CompiledResource } from './records';
import { where, type AnyDb } from './repository';
import { actorOf, type Actor } from './scope';
import { monthsAround } from './stats';

export interface FlowTimesResult {
  submitted: number;
  finished: number;
  avgDays: number | null;
  p90Days: number | null;
}

/** Default window: the last twelve months, this one included. */
export const DEFAULT_FLOW_MONTHS: readonly [number, number] = [-11, 0];

/** `months=<from>,<to>` as month offsets (up to five years back, none ahead); BAD_REQUEST when malformed or reversed. */
export function flowMonthRange(value: unknown): [number, number] {
  if (value === undefined || value === '') return [...DEFAULT_FLOW_MONTHS];
  const parts = (Array.isArray(value) ? value : String(value).split(',')).map((v) => (String(v).trim() === '' ? NaN : Number(String(v).trim())));
  const [from, to] = parts;
  if (parts.length !== 2 || !Number.isInteger(from) || !Number.isInteger(to) || from > to || from < -60 || to > 0) throw new AppError('BAD_REQUEST');
  return [from, to];
}

/** The first instant of the month `offset` months from today's, as `YYYY-MM-01` (a day in the portal's time zone). */
const monthStart = (today: string, offset: number): string => `${monthsAround(today, [offset, offset])[0]}-01`;

/** The sequence number (per row, oldest first) of the row's submission entry, as an aggregate over its entries. */
function submissionSeq(compiled: CompiledResource): RawBuilder<number> {
  const workflow = compiled.model.workflow!;
  const commit = workflow.actions.commit;
  if (commit) {
    if (commit.from.includes(workflow.initial)) return sql<number>`min(seq) FILTER (WHERE action = 'commit')`;
    return sql<number>`min(seq)`;
  }
  return sql<number>`coalesce(min(seq) FILTER (WHERE action = 'commit'), min(seq) FILTER (WHERE from_state = ${workflow.initial} AND to_state IS DISTINCT FROM ${workflow.initial}), min(seq))`;
}

/** Submitted and finished rows of the months, and the days the finished ones took. */
export async function flowTimes(
  db: AnyDb,
  compiled: CompiledResource,
  actor: Actor,
  months: readonly [number, number],
  today = todayIn(),
): Promise<FlowTimesResult> {
  const { model } = compiled;
  if (!model.workflow) throw new AppError('BAD_REQUEST');
  const { conditions } = listCriteria(compiled, actor, {});
  const filtered = where(conditions);
  const table = sql.raw(quote(model.table));
  const start = monthStart(today, months[0]);
  const end = monthStart(today, months[1] + 1);
  const finals = sql.join(model.workflow.finals);
  const { rows } = await sql<FlowTimesResult>`
    WITH log AS (
      SELECT record_id, action, from_state, to_state, created_at,
             row_number() OVER (PARTITION BY record_id ORDER BY created_at, id) AS seq
        FROM sys_flow_log
       WHERE resource = ${model.name} AND record_id IN (SELECT id FROM ${table} ${filtered})
    ), first AS (
      SELECT record_id, ${submissionSeq(compiled)} AS seq FROM log GROUP BY record_id
    ), submitted AS (
      SELECT l.record_id, l.seq, l.created_at AS at
        FROM first f JOIN log l ON l.record_id = f.record_id AND l.seq = f.seq
       WHERE l.created_at >= (${start}::timestamp AT TIME ZONE ${PORTAL_TIME_ZONE})
         AND l.created_at < (${end}::timestamp AT TIME ZONE ${PORTAL_TIME_ZONE})
    ), finished AS (
      SELECT s.record_id, (extract(epoch FROM min(l.created_at) - s.at) / 86400)::float8 AS days
        FROM submitted s JOIN log l ON l.record_id = s.record_id AND l.seq > s.seq
       WHERE l.to_state IN (${finals}) AND l.action <> 'cancel'
       GROUP BY s.record_id, s.at
    )
    SELECT (SELECT count(*) FROM submitted)::int AS submitted,
           count(*)::int AS finished,
           round(avg(days)::numeric, 1)::float8 AS "avgDays",
           round((percentile_cont(0.9) WITHIN GROUP (ORDER BY days))::numeric, 1)::float8 AS "p90Days"
      FROM finished`.execute(db);
  const [row] = rows;
  return {
    submitted: Number(row.submitted),
    finished: Number(row.finished),
    avgDays: row.avgDays === null ? null : Number(row.avgDays),
    p90Days: row.p90Days === null ? null : Number(row.p90Days),
  };
}

const flowTimesSchema = {
  type: 'object',
  required: ['submitted', 'finished', 'avgDays', 'p90Days'],
  properties: {
    submitted: { type: 'integer' },
    finished: { type: 'integer' },
    avgDays: { type: ['number', 'null'] },
    p90Days: { type: ['number', 'null'] },
  },
};

/** The flow-times operation of a resource with a workflow (registered beside its stats operation). */
export function flowTimesOperation(compiled: CompiledResource): Operation {
  const { model } = compiled;
  return {
    name: 'flow-times',
    takesId: false,
    methods: ['GET'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: flow times (rows first submitted within months=<from>,<to>, default -11,0; how many reached a final state; average and 90th-percentile days)`,
        querystring: { type: 'object', properties: { months: { type: 'string', pattern: '^-?\\d{1,2},-?\\d{1,2}$' } } },
        response: { 200: envelopeOf(flowTimesSchema), ...failureResponses },
      },
      handler: async (request: FastifyRequest, reply) =>
        reply.ok(await flowTimes(request.server.db, compiled, actorOf(request), flowMonthRange(inputOf(request).months))),
    },
  };
}
