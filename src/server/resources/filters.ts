/**
 * List parameters as data, compiled once per resource:
 *
 *   <field>=v             string/text: contains (case-insensitive); ref, numbers, dates, bool: equals
 *   id=a&id=b             ids (id, ref): any of (up to MAX_PAGE_SIZE; how a screen fetches the labels of a page's references)
 *   <field>=a&<field>=b   dict, area, status: any of (a single value works too); multiDict: shares any
 *   <field>=true|false    attachment: at least one file uploaded / none
 *   <field>_gte / _lte    numbers, dates, datetimes (and createDate/updateDate): range bounds, inclusive
 *                         (a date-only upper bound on a datetime includes that whole day)
 *   dates                 may be relative: today, today+30d, today-1m, today+1y (resolved at query
 *                         time in the portal's time zone, src/shared/dates.ts)
 *   q=text                any of the resource's `search` fields contains the text (case-insensitive)
 *   orderBy=a desc,b      sort by whitelisted field names only (asc default, blanks last); id breaks ties
 *   <owner field>=text    field `owner`: the owning unit's name (or code) contains the text; matched
 *                         as unit_id IN (the ids of the units whose name matches), one lookup in sys_unit
 *
 * Fields stored encrypted (PORTAL_CRYPTO=sm: sealed-fields.ts) match whole values only, through
 * their blind index — by their own parameter and within `q` — and a sort by them is ignored.
 *   pageNo, pageSize      1-based page, at most MAX_PAGE_NO (beyond: 400); pageSize is capped at MAX_PAGE_SIZE
 *
 * Unknown parameters are ignored (legacy clients send extras such as __ajax); values are checked
 * by the generated schema before they reach SQL, and always travel as bind parameters.
 */
import { sql, type RawBuilder } from 'kysely';
import { RELATIVE_DATE, resolveRelativeDate } from '../../shared/dates';
import { containsPattern } from '../db/sql';
import { AppError } from '../errors';
import { MAX_PAGE_NO, yearInRange } from '../validation/bounds';
import { ownerColumnOf, type FieldModel, type ResourceModel } from './model';
import { quote } from './naming';
import { boundedValueSchema } from './schemas';
import { indexColumnOf } from './sealed-columns';
import { fieldKind } from '../../schema/kinds';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
const MAX_SORT_KEYS = 3;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

type Op = 'contains' | 'eq' | 'in' | 'overlap' | 'gte' | 'lte' | 'search' | 'blind' | 'owner' | 'present';

interface FilterDef {
  param: string;
  /** The quoted column; `search`: the quoted columns joined by commas. */
  column: string;
  op: Op;
  datetime: boolean;
  /** The field's label, for a refusal's message. */
  label: string;
  /** The blind index of a whole value: `blind` filters, and the `blind` columns of a search. */
  digest?: (plain: string) => string;
  /** Quoted blind-index columns among a search's columns (matched whole, through `digest`). */
  blind?: ReadonlySet<string>;
}

export interface ListPlan {
  filters: readonly FilterDef[];
  /** Sortable wire name → quoted column (or the read expression of a field without one). */
  sortable: ReadonlyMap<string, string>;
  /** Fields whose sort is ignored (encrypted: the order of ciphertexts means nothing). */
  unsorted: ReadonlySet<string>;
  /** Parameters schema (query string of GET, body of POST). */
  paramsSchema: Record<string, unknown>;
  defaultOrder: string;
}

export interface ListParams {
  pageNo?: number;
  pageSize?: number;
  orderBy?: string;
  [param: string]: unknown;
}

const RANGE_KINDS = new Set(['integer', 'number', 'date', 'datetime']);

/** A filter value: the field's wire shape, except that a date-time bound may be a bare date and free text is capped. */
function valueSchema(f: FieldModel): Record<string, unknown> {
  const relative = { pattern: RELATIVE_DATE.source };
  if (f.kind === 'datetime') return { type: 'string', anyOf: [{ format: 'date' }, { format: 'date-time' }, relative] };
  if (f.kind === 'date') return { type: 'string', anyOf: [{ format: 'date' }, relative] };
  if (f.kind === 'string') return { type: 'string', maxLength: 200 };
  return boundedValueSchema(f);
}

function filtersOf(f: FieldModel, digest: ((plain: string) => string) | undefined): { def: FilterDef; schema: Record<string, unknown> }[] {
  const base = { column: quote(f.column), datetime: f.kind === 'datetime', label: f.label };
  if (f.sealed && digest) return [{ def: { ...base, column: quote(indexColumnOf(f.column)), param: f.name, op: 'blind', digest }, schema: valueSchema(f) }];
  // The owning unit's name or code: `column` is the unit register's column it reads.
  if (f.read && f.field.owner) return [{ def: { ...base, column: quote(ownerColumnOf(f.field.owner)), param: f.name, op: 'owner' }, schema: valueSchema(f) }];
  const codes = f.codes !== undefined || f.name === 'status';
  if (f.kind === 'json')
    return fieldKind(f.type).filter === 'presence'
      ? [{ def: { ...base, param: f.name, op: 'present' }, schema: { enum: [true, false, 'true', 'false'] } }]
      : [];
  if (f.kind === 'codes' || codes) {
    return [
      {
        def: { ...base, param: f.name, op: f.kind === 'codes' ? 'overlap' : 'in' },
        schema: { type: 'array', maxItems: 100, items: { type: 'string', maxLength: 100 } },
      },
    ];
  }
  if (f.kind === 'string') {
    // Free text (a declared text field, numbers the server gives included) is searched; ids (ref, system columns) are matched.
    if (f.declared && fieldKind(f.type).filter === 'text') return [{ def: { ...base, param: f.name, op: 'contains' }, schema: valueSchema(f) }];
    const list = { type: 'array', minItems: 1, maxItems: MAX_PAGE_SIZE, items: valueSchema(f) };
    return [{ def: { ...base, param: f.name, op: 'eq' }, schema: { anyOf: [valueSchema(f), list] } }];
  }
  const filters = [{ def: { ...base, param: f.name, op: 'eq' as Op }, schema: valueSchema(f) }];
  if (RANGE_KINDS.has(f.kind)) {
    filters.push({ def: { ...base, param: `${f.name}_gte`, op: 'gte' }, schema: valueSchema(f) });
    filters.push({ def: { ...base, param: `${f.name}_lte`, op: 'lte' }, schema: valueSchema(f) });
  }
  return filters;
}

export function compileListPlan(model: ResourceModel): ListPlan {
  const listable = model.fields.filter((f) => f.name !== 'version');
  const digest = model.cipher ? model.cipher.index : undefined;
  const compiled = listable.flatMap((f) => filtersOf(f, digest));
  const properties: Record<string, unknown> = {
    pageNo: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NO, default: 1 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NO, default: DEFAULT_PAGE_SIZE, description: `capped at ${MAX_PAGE_SIZE}` },
    orderBy: { type: 'string', maxLength: 200, description: 'e.g. "createDate desc,title"' },
  };
  if (model.searchColumns.length > 0) {
    const sealed = new Set(model.sealed.map((f) => f.column));
    const columns = model.searchColumns.map((c) => quote(sealed.has(c) ? indexColumnOf(c) : c));
    const blind = new Set(model.searchColumns.filter((c) => sealed.has(c)).map((c) => quote(indexColumnOf(c))));
    compiled.push({
      def: { param: 'q', column: columns.join(','), op: 'search', datetime: false, label: '关键字', ...(blind.size > 0 ? { blind, digest } : {}) },
      schema: { type: 'string', maxLength: 100 },
    });
  }
  for (const { def, schema } of compiled) properties[def.param] = schema;
  // Rows the user has not opened (records.ts applies it: it needs the session).
  if (model.resource.readMarks) properties.unread = { enum: [true, false, 'true', 'false'] };
  const sortable = new Map(listable.filter((f) => f.kind !== 'json' && f.kind !== 'codes' && !f.sealed).map((f) => [f.name, f.read ?? quote(f.column)]));
  return {
    filters: compiled.map((c) => c.def),
    sortable,
    unsorted: new Set(model.sealed.map((f) => f.name)),
    paramsSchema: { type: 'object', properties },
    defaultOrder: `${quote('created_at')} DESC, ${quote('id')} DESC`,
  };
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * Trigram indexes (resource `search` fields) only help for text that yields trigrams: three or more
 * ASCII letters or digits under the databases' C-like locales. For anything shorter or non-ASCII
 * (a two-character Chinese name) the index would return nearly every row to recheck, so the
 * condition is written in a form the planner cannot match to it and rows are scanned instead.
 */
const TRIGRAM_FRIENDLY = /^[\x20-\x7e]*[A-Za-z0-9]{3}[\x20-\x7e]*$/;

function containsCondition(quotedColumn: string, text: string): RawBuilder<boolean> {
  const column = sql.raw(quotedColumn);
  const pattern = containsPattern(text);
  return TRIGRAM_FRIENDLY.test(text) ? sql<boolean>`${column} ILIKE ${pattern}` : sql<boolean>`(${column} || '') ILIKE ${pattern}`;
}

function condition(def: FilterDef, value: unknown): RawBuilder<boolean> {
  const column = sql.raw(def.column);
  switch (def.op) {
    case 'contains':
      return containsCondition(def.column, String(value).trim());
    case 'search': {
      const text = String(value).trim();
      return sql<boolean>`(${sql.join(
        def.column.split(',').map((c) => (def.blind?.has(c) ? sql<boolean>`${sql.raw(c)} = ${def.digest!(text)}` : containsCondition(c, text))),
        sql` OR `,
      )})`;
    }
    case 'blind':
      return sql<boolean>`${column} = ${def.digest!(String(value))}`;
    case 'owner':
      return sql<boolean>`unit_id IN (SELECT o.id FROM sys_unit AS o WHERE (o.${column} || '') ILIKE ${containsPattern(String(value).trim())})`;
    case 'eq':
      return Array.isArray(value) ? sql<boolean>`${column} = ANY(${value}::text[])` : sql<boolean>`${column} = ${value}`;
    case 'in':
      return sql<boolean>`${column} = ANY(${value}::text[])`;
    case 'overlap':
      return sql<boolean>`${column} && ${value}::text[]`;
    case 'gte':
      return sql<boolean>`${column} >= ${value}`;
    case 'present': {
      // Attachments are stored as a JSON array of files; null, a non-array or [] hold none.
      const some = sql<boolean>`(CASE WHEN jsonb_typeof(${column}) = 'array' THEN jsonb_array_length(${column}) > 0 ELSE false END)`;
      return value === true || value === 'true' ? some : sql<boolean>`NOT ${some}`;
    }
    case 'lte':
      return def.datetime && DATE_ONLY.test(String(value)) ? sql<boolean>`${column} < (${value}::date + 1)` : sql<boolean>`${column} <= ${value}`;
  }
}

/** The WHERE conditions of the given (schema-checked) parameters. */
export function filterConditions(plan: ListPlan, params: ListParams): RawBuilder<boolean>[] {
  const conditions: RawBuilder<boolean>[] = [];
  for (const def of plan.filters) {
    const value = params[def.param];
    if (isEmpty(value)) continue;
    const resolved = resolveRelativeDate(value);
    // A relative date far from today (today+9999y) resolves outside the years a date may have.
    if (resolved !== value && !yearInRange(String(resolved))) throw new AppError('VALIDATION_FAILED', `${def.label}超出可选的日期范围`, { field: def.param });
    conditions.push(condition(def, resolved));
  }
  return conditions;
}

/** Filters whose condition reads its own column alone, compared with bound values. */
const PLAIN_OPS: ReadonlySet<Op> = new Set(['eq', 'in', 'gte', 'lte']);

/**
 * Whether every given filter reads only these (quoted) columns: plain comparisons of them, and the
 * owner's name when `unit_id` is among them — so its condition holds unchanged over any table that
 * has those columns (resource `keptCounts`, kept-counts.ts).
 */
export function filtersReadOnly(plan: ListPlan, params: ListParams, columns: ReadonlySet<string>): boolean {
  return plan.filters.every(
    (def) => isEmpty(params[def.param]) || (PLAIN_OPS.has(def.op) && columns.has(def.column)) || (def.op === 'owner' && columns.has(quote('unit_id'))),
  );
}

/** ORDER BY of `orderBy` ("a desc,b"), whitelisted; the default order when absent. */
export function orderClause(plan: ListPlan, orderBy: string | undefined): string {
  if (!orderBy?.trim()) return plan.defaultOrder;
  const keys = orderBy.split(',').map((part) => part.trim().split(/\s+/));
  if (keys.length > MAX_SORT_KEYS) throw new AppError('BAD_REQUEST');
  const sorted = keys.filter(([name]) => !plan.unsorted.has(name));
  if (sorted.length === 0) return plan.defaultOrder;
  const terms = sorted.map(([name, direction = 'asc']) => {
    const column = plan.sortable.get(name);
    const dir = direction.toLowerCase();
    if (!column || (dir !== 'asc' && dir !== 'desc')) throw new AppError('BAD_REQUEST');
    return `${column} ${dir === 'desc' ? 'DESC' : 'ASC'} NULLS LAST`;
  });
  return `${terms.join(', ')}, ${quote('id')}`;
}

/** Page number and capped page size. */
export function pageOf(params: ListParams): { pageNo: number; pageSize: number } {
  return { pageNo: params.pageNo ?? 1, pageSize: Math.min(params.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE) };
}
