/**
 * Counts of a resource: `GET|POST /r/<resource>/stats`, what the stats screens read.
 *
 * - Rows: exactly those `list` would page through for the same parameters — the same filters,
 *   RBAC and row scope (records.ts `listCriteria`); paging and order are ignored.
 * - `groupBy=<field>`: one `GROUP BY` over a groupable field (a single-choice dictionary, an area,
 *   a boolean, or the workflow state; src/schema/model.ts `isGroupable`), answered as
 *   `{ total, groups: [{ value, count }] }`, largest group first (blank values as `value: null`).
 *   Any other name answers BAD_REQUEST, like a bad `orderBy`.
 * - `groupBy=<field>&stackBy=<field>`: one `GROUP BY` over both (the second groupable too, neither
 *   a multi-value `codes` field), answered as `{ total, groups: [{ value, stack, count }] }`, the
 *   groups with the largest total first and within a group the largest part first (a stacked bar).
 * - `groupBy=<date field>&months=<from>,<to>`: counts per month of that date (offsets from the
 *   current month, e.g. `-11,0`: the last twelve), every month answered, as
 *   `{ total, months: [{ month: 'YYYY-MM', count }] }` (a stats screen's line chart).
 * - Without `groupBy`: `{ total }`.
 * - `sum=<integer field>` with any of the above: each group's, part's or month's `count` (and the
 *   `total`) is the sum of that field over its rows instead of the number of rows (a table of kept
 *   figures, e.g. a count per month). Any other name answers BAD_REQUEST.
 */
import { sql, type RawBuilder } from 'kysely';
import { PORTAL_TIME_ZONE, todayIn } from '../../shared/dates';
import type { FastifyRequest } from 'fastify';
import { isGroupable } from '../../schema/model';
import { AppError } from '../errors';
import { envelopeOf, failureResponses } from '../../shared/wire';
import type { FieldModel, ResourceModel } from './model';
import { quote } from './naming';
import { commonOptions, inputOf, type Operation } from './operations';
import { answersFromKept, type KeptCounts } from './kept-counts';
import { listCriteria, type CompiledResource } from './records';
import { where, type AnyDb } from './repository';
import type { Actor } from './scope';
import { actorOf, serves } from './scope';

export interface StatsGroup {
  value: string | boolean | null;
  /** With `stackBy`: the value of the second field. */
  stack?: string | boolean | null;
  count: number;
}

export interface StatsResult {
  total: number;
  groups?: StatsGroup[];
  months?: MonthCount[];
}

/** `months=<from>,<to>` (or a two-number array) as month offsets; BAD_REQUEST when malformed or reversed. */
function monthRange(value: unknown): [number, number] {
  const parts = (Array.isArray(value) ? value : String(value).split(',')).map((v) => Number(String(v).trim()));
  const [from, to] = parts;
  if (parts.length !== 2 || !Number.isInteger(from) || !Number.isInteger(to) || from > to || from < -60 || to > 60) throw new AppError('BAD_REQUEST');
  return [from, to];
}

/** The field `name` when counts may be grouped by it; BAD_REQUEST otherwise. */
function groupField(model: ResourceModel, name: unknown): FieldModel {
  const field = typeof name === 'string' ? model.byName.get(name) : undefined;
  if (!field || !isGroupable(model, field.name, field.field)) throw new AppError('BAD_REQUEST');
  return field;
}

/** What a group counts: its rows, or with `sum=<integer field>` the sum of that field (BAD_REQUEST for another name). */
type Measure = RawBuilder<number>;

/** The measure of counting rows. */
const COUNT_ROWS: Measure = sql<number>`count(*)::int`;

function measureOf(model: ResourceModel, sum: unknown): Measure {
  if (sum === undefined || sum === '') return COUNT_ROWS;
  const field = typeof sum === 'string' ? model.byName.get(sum) : undefined;
  if (!field || field.kind !== 'integer') throw new AppError('BAD_REQUEST');
  return sql<number>`coalesce(sum(${sql.raw(quote(field.column))}), 0)::int`;
}

/**
 * Where counts come from: the rows themselves (`count(*)`, or the `sum` measure), or the resource's
 * kept counts (kept-counts.ts: the same columns, a count per combination, `sum(n)`; zero rows skipped).
 */
interface Source {
  table: RawBuilder<unknown>;
  measure: Measure;
  having: RawBuilder<unknown>;
}

const rowsOf = (model: ResourceModel, measure: Measure): Source => ({ table: sql.raw(quote(model.table)), measure, having: sql`` });
const keptOf = (kept: KeptCounts): Source => ({
  table: sql.raw(quote(kept.table)),
  measure: sql<number>`coalesce(sum(n), 0)::int`,
  having: sql`HAVING sum(n) <> 0`,
});

/** Counts of the visible rows matching `input` (list parameters plus an optional `groupBy`). */
export async function countStats(db: AnyDb, compiled: CompiledResource, actor: Actor, input: Record<string, unknown>): Promise<StatsResult> {
  const { groupBy, stackBy, months, sum, ...params } = input;
  const measure = measureOf(compiled.model, sum);
  const stacked = stackBy !== undefined && stackBy !== '';
  if (months !== undefined && months !== '') {
    if (typeof groupBy !== 'string' || stacked) throw new AppError('BAD_REQUEST');
    const points = await countByMonth(db, compiled, actor, params, groupBy, monthsAround(todayIn(), monthRange(months)), measure);
    return { total: points.reduce((total, p) => total + p.count, 0), months: points };
  }
  const field = groupBy === undefined || groupBy === '' ? undefined : groupField(compiled.model, groupBy);
  if (stacked && !field) throw new AppError('BAD_REQUEST');
  const stack = stacked ? groupField(compiled.model, stackBy) : undefined;
  const criteria = listCriteria(compiled, actor, params);
  const { conditions } = criteria;
  const grouped = [field, stack].flatMap((f) => (f ? [f.name] : []));
  const rows = rowsOf(compiled.model, measure);
  const source =
    measure === COUNT_ROWS && !serves(compiled.model, actor) && answersFromKept(compiled.kept, compiled.listPlan, criteria.params, grouped, criteria.unread)
      ? keptOf(compiled.kept)
      : rows;
  const filtered = where(conditions);
  const totalOf = async ({ table, measure: total }: Source) =>
    (await sql<{ total: number }>`SELECT ${total} AS total FROM ${table} ${filtered}`.execute(db)).rows[0].total;
  if (!field) return { total: await totalOf(source) };
  if (stack) return countStacked(db, source, filtered, field, stack);

  const column = sql.raw(quote(field.column));
  if (field.kind === 'codes') {
    // Several codes per row: a row counts under each of its codes, the total counts rows.
    const { rows: groups } =
      await sql<StatsGroup>`SELECT code AS value, ${measure} AS count FROM ${rows.table} CROSS JOIN LATERAL unnest(${column}) AS code ${filtered} GROUP BY code ORDER BY count DESC, value`.execute(
        db,
      );
    return { total: await totalOf(rows), groups };
  }
  const { rows: groups } =
    await sql<StatsGroup>`SELECT ${column} AS value, ${source.measure} AS count FROM ${source.table} ${filtered} GROUP BY ${column} ${source.having} ORDER BY count DESC, value NULLS LAST`.execute(
      db,
    );
  return { total: groups.reduce((total, row) => total + row.count, 0), groups: groups.map((row) => ({ value: row.value ?? null, count: row.count })) };
}

/**
 * Counts per pair of values of two fields (one GROUP BY over both): groups by their totals, largest
 * first, each group's parts largest first; blanks are values (null) of their own.
 */
async function countStacked(
  db: AnyDb,
  { table, measure, having }: Source,
  filtered: RawBuilder<unknown>,
  field: FieldModel,
  stack: FieldModel,
): Promise<StatsResult> {
  // A row with several codes would count in several parts and the parts would not add up to the bar.
  if (field.kind === 'codes' || stack.kind === 'codes' || field.name === stack.name) throw new AppError('BAD_REQUEST');
  const column = sql.raw(quote(field.column));
  const stackColumn = sql.raw(quote(stack.column));
  const { rows } = await sql<StatsGroup & { total: number }>`
    SELECT value, stack, count, sum(count) OVER (PARTITION BY value)::int AS total
    FROM (SELECT ${column} AS value, ${stackColumn} AS stack, ${measure} AS count FROM ${table} ${filtered} GROUP BY ${column}, ${stackColumn} ${having}) AS pairs
    ORDER BY total DESC, value NULLS LAST, count DESC, stack NULLS LAST`.execute(db);
  return {
    total: rows.reduce((sum, row) => sum + row.count, 0),
    groups: rows.map((row) => ({ value: row.value ?? null, stack: row.stack ?? null, count: row.count })),
  };
}

const statsSchema = {
  type: 'object',
  required: ['total'],
  properties: {
    total: { type: 'integer' },
    groups: {
      type: 'array',
      items: {
        type: 'object',
        required: ['value', 'count'],
        properties: { value: { type: ['string', 'boolean', 'null'] }, stack: { type: ['string', 'boolean', 'null'] }, count: { type: 'integer' } },
      },
    },
    months: { type: 'array', items: { type: 'object', required: ['month', 'count'], properties: { month: { type: 'string' }, count: { type: 'integer' } } } },
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
        summary: `${model.title}: counts (list filters; groupBy=<dict, area or bool field> counts per value, with stackBy=<another> per pair of values; groupBy=<date field>&months=<from>,<to> per month; sum=<integer field> sums it instead of counting rows)`,
        querystring: {
          ...compiled.listPlan.paramsSchema,
          properties: {
            ...(compiled.listPlan.paramsSchema.properties as object),
            groupBy: { type: 'string', maxLength: 100 },
            stackBy: { type: 'string', maxLength: 100 },
            sum: { type: 'string', maxLength: 100 },
            months: { type: 'string', pattern: '^-?\\d{1,2},-?\\d{1,2}$' },
          },
        },
        response: { 200: envelopeOf(statsSchema), ...failureResponses },
      },
      handler: async (request: FastifyRequest, reply) => reply.ok(await countStats(request.server.db, compiled, actorOf(request), inputOf(request))),
    },
  };
}

/** Counts per month (`YYYY-MM`) of one date field. */
export interface MonthCount {
  month: string;
  count: number;
}

/** The months from `from` to `to` (offsets from the month of `today`), as `YYYY-MM`. */
export function monthsAround(today: string, [from, to]: readonly [number, number]): string[] {
  const [year, month] = today.split('-').map(Number);
  const out: string[] = [];
  for (let offset = from; offset <= to; offset++) {
    const index = year * 12 + (month - 1) + offset;
    out.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

/** The last day of a `YYYY-MM` month. */
const monthEnd = (month: string): string => {
  const [year, m] = month.split('-').map(Number);
  return `${month}-${String(new Date(Date.UTC(year, m, 0)).getUTCDate()).padStart(2, '0')}`;
};

/**
 * How many visible rows matching `input` (list parameters) have the date field `name` in each of
 * `months` (every month answered, zero included): the list's criteria plus the month's bounds;
 * with a `measure` (a sum of a field) that instead of the number of rows.
 */
export async function countByMonth(
  db: AnyDb,
  compiled: CompiledResource,
  actor: Actor,
  input: Record<string, unknown>,
  name: string,
  months: readonly string[],
  measure: Measure = COUNT_ROWS,
): Promise<MonthCount[]> {
  const field = compiled.model.byName.get(name);
  if (!field || (field.kind !== 'date' && field.kind !== 'datetime') || months.length === 0) throw new AppError('BAD_REQUEST');
  const { conditions } = listCriteria(compiled, actor, { ...input, [`${name}_gte`]: `${months[0]}-01`, [`${name}_lte`]: monthEnd(months[months.length - 1]) });
  const column = sql.raw(quote(field.column));
  const filtered = where(conditions);
  const table = sql.raw(quote(compiled.model.table));
  // A date-time counts in the month of its day in the portal's time zone.
  const month = field.kind === 'datetime' ? sql`to_char(${column} AT TIME ZONE ${PORTAL_TIME_ZONE}, 'YYYY-MM')` : sql`to_char(${column}, 'YYYY-MM')`;
  const { rows } = await sql<MonthCount>`SELECT ${month} AS month, ${measure} AS count FROM ${table} ${filtered} GROUP BY 1`.execute(db);
  const byMonth = new Map(rows.map((row) => [row.month, row.count]));
  return months.map((m) => ({ month: m, count: byMonth.get(m) ?? 0 }));
}
