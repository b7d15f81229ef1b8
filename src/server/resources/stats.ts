/**
 * Counts of a resource: `GET|POST /r/<resource>/stats`, what the stats screens read.
 *
 * - Rows: exactly those `list` would page through for the same parameters — the same filters,
 *   RBAC and row scope (records.ts `listCriteria`); paging and order are ignored.
 * - `groupBy=<field>`: one `GROUP BY` over a groupable field (a single-choice dictionary, an area,
 *   a boolean, or the workflow state; src/schema/model.ts `isGroupable`), answered as
 *   `{ total, groups: [{ value, count }] }`, largest group first (blank values as `value: null`).
 *   Any other name answers BAD_REQUEST, like a bad `orderBy`.
 * - Without `groupBy`: `{ total }`.
 */
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { isGroupable } from '../../schema/model';
import { AppError } from '../errors';
import { envelopeOf, failureResponses } from '../../shared/wire';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import { commonOptions, inputOf, type Operation } from './operations';
import { listCriteria, type CompiledResource } from './records';
import { countRows, type AnyDb } from './repository';
import type { Actor } from './scope';
import { actorOf } from './scope';

export interface StatsGroup {
  value: string | boolean | null;
  count: number;
}

export interface StatsResult {
  total: number;
  groups?: StatsGroup[];
}

/** The field `name` when counts may be grouped by it; BAD_REQUEST otherwise. */
function groupField(model: ResourceModel, name: unknown): FieldModel {
  const field = typeof name === 'string' ? model.byName.get(name) : undefined;
  if (!field || !isGroupable(model, field.name, field.field)) throw new AppError('BAD_REQUEST');
  return field;
}

/** Counts of the visible rows matching `input` (list parameters plus an optional `groupBy`). */
export async function countStats(db: AnyDb, compiled: CompiledResource, actor: Actor, input: Record<string, unknown>): Promise<StatsResult> {
  const { groupBy, ...params } = input;
  const field = groupBy === undefined || groupBy === '' ? undefined : groupField(compiled.model, groupBy);
  const { conditions } = listCriteria(compiled, actor, params);
  if (!field) return { total: await countRows(db, compiled.model, conditions) };

  const column = sql.raw(quote(field.column));
  const where = conditions.length > 0 ? sql`WHERE ${sql.join(conditions, sql` AND `)}` : sql``;
  const table = sql.raw(quote(compiled.model.table));
  if (field.kind === 'codes') {
    // Several codes per row: a row counts under each of its codes, the total counts rows.
    const { rows } = await sql<StatsGroup>`SELECT code AS value, count(*)::int AS count FROM ${table} CROSS JOIN LATERAL unnest(${column}) AS code ${where} GROUP BY code ORDER BY count DESC, value`.execute(db);
    return { total: await countRows(db, compiled.model, conditions), groups: rows };
  }
  const { rows } = await sql<StatsGroup>`SELECT ${column} AS value, count(*)::int AS count FROM ${table} ${where} GROUP BY ${column} ORDER BY count DESC, value NULLS LAST`.execute(db);
  return { total: rows.reduce((sum, row) => sum + row.count, 0), groups: rows.map((row) => ({ value: row.value ?? null, count: row.count })) };
}

const statsSchema = {
  type: 'object',
  required: ['total'],
  properties: {
    total: { type: 'integer' },
    groups: {
      type: 'array',
      items: { type: 'object', required: ['value', 'count'], properties: { value: { type: ['string', 'boolean', 'null'] }, count: { type: 'integer' } } },
    },
  },
};

/** The stats operation of a resource (registered beside the list and export operations). */
export function statsOperation(compiled: CompiledResource): Operation {
  const { model } = compiled;
  return {
    name: 'stats',
    takesId: false,
    methods: ['GET', 'POST'],
    options: {
      ...commonOptions(model),
      schema: {
        tags: [model.name],
        summary: `${model.title}: counts (list filters; groupBy=<dict, area or bool field> counts per value)`,
        querystring: { ...compiled.listPlan.paramsSchema, properties: { ...(compiled.listPlan.paramsSchema.properties as object), groupBy: { type: 'string', maxLength: 100 } } },
        response: { 200: envelopeOf(statsSchema), ...failureResponses },
      },
      handler: async (request: FastifyRequest, reply) => reply.ok(await countStats(request.server.db, compiled, actorOf(request), inputOf(request))),
    },
  };
}
