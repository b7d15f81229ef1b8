/**
 * List filters as data: a screen's `filters` resolved to inputs, and the one mapping between the
 * filter form's values, the URL's query and the server's list parameters. The URL carries the
 * server's own parameter names (`title=..&category=1&publishDate_gte=..`), so a bookmarked or
 * restored list asks exactly what it showed.
 *
 * A filter's `default` applies while the URL carries no value for it (a cleared default travels as
 * an empty parameter, so the user can widen the list); relative dates (`today+30d`) are resolved
 * for display. A screen's `where` is sent with every request and never shown.
 */
import { isRelativeDate, resolveRelativeDate } from '../../shared/dates';
import { fieldKind } from '../../schema/kinds';
import { UNREAD_PARAM } from '../../schema/model';
import { codesOf, type CodeItem } from '../model/codes';
import { resolveField } from '../model/fields';
import type { ScreenBundle } from '../registry/registry';
import type { Field, ListFilter, ListScreen, Resource } from '../../schema/types';
import type { ListQuery, SortSpec } from '../data/provider';

export type FilterInput = 'text' | 'ref' | 'codes' | 'area' | 'dateRange' | 'number' | 'numberRange' | 'bool' | 'presence';

export interface FilterSpec {
  name: string;
  label: string;
  placeholder?: string;
  field: Field;
  input: FilterInput;
  /** Range filters: two parameters `<name>_gte` / `<name>_lte`. */
  range: boolean;
  codes: CodeItem[];
  /** Initial value while the URL has none (relative dates resolved). */
  initial?: unknown;
  /** Codes: one code at a time (`op: "eq"`), for a source that takes a single value. */
  single?: boolean;
}

/** The filter's input from its field's kind: dates always as a range, numbers as one with `op: "between"`. */
function inputOf(field: Field, codes: readonly CodeItem[], op: string | undefined, name: string): { input: FilterInput; range: boolean } {
  const { filter } = fieldKind(field.type);
  if (filter === 'area') return { input: 'area', range: false };
  if (codes.length || name === 'status') return { input: 'codes', range: false };
  if (filter === 'bool') return { input: 'bool', range: false };
  if (filter === 'presence') return { input: 'presence', range: false };
  if (filter === 'id' && field.ref) return { input: 'ref', range: false };
  if (filter === 'date') return { input: 'dateRange', range: true };
  if (filter === 'number') return op === 'between' ? { input: 'numberRange', range: true } : { input: 'number', range: false };
  return { input: 'text', range: false };
}

export function filterSpecs({ screen, resource, dicts }: Pick<ScreenBundle, 'resource' | 'dicts'> & { screen: Pick<ListScreen, 'filters'> }): FilterSpec[] {
  // A resource with read marks: every list of it can keep the rows the user has not opened.
  const unread: FilterSpec[] = resource.readMarks
    ? [{ name: UNREAD_PARAM, label: '只看未读', field: { type: 'bool', label: '只看未读' }, input: 'bool', range: false, codes: [] }]
    : [];
  return [...listedSpecs(screen, resource, dicts), ...unread];
}

function listedSpecs(screen: Pick<ListScreen, 'filters'>, resource: Resource, dicts: ScreenBundle['dicts']): FilterSpec[] {
  return (screen.filters ?? []).map((ref: ListFilter) => {
    const item = typeof ref === 'string' ? { field: ref } : ref;
    const { name, field, label } = resolveField(resource, item);
    const codes = codesOf(resource, name, field, dicts);
    const initial = 'default' in item && item.default !== undefined ? resolveDefault(item.default) : undefined;
    const input = inputOf(field, codes, item.op, name);
    const single = input.input === 'codes' && item.op === 'eq' ? { single: true } : {};
    return { name, label, placeholder: item.placeholder, field, codes, initial, ...input, ...single };
  });
}

const resolveDefault = (value: unknown): unknown =>
  Array.isArray(value) ? value.map((v: unknown) => resolveRelativeDate(v ?? undefined)) : resolveRelativeDate(value);

/**
 * What a record added from this list starts with: its fixed `where` on one value (a list of
 * 按单位 registrations adds 按单位 ones). Ranges, lists and relative dates preset nothing.
 */
export function presetOf(screen: Pick<ListScreen, 'where'>): Record<string, string> {
  const preset: Record<string, string> = {};
  for (const [param, value] of Object.entries(screen.where ?? {})) {
    const single = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
    if (/_(gte|lte)$/.test(param) || single === undefined || single === null || typeof single === 'object' || isRelativeDate(single)) continue;
    preset[param] = String(single);
  }
  return preset;
}

/** The fixed parameters of a screen (`where`), sent as they are: the server resolves relative dates at query time. */
export function fixedParams(screen: Pick<ListScreen, 'where'>): Record<string, unknown> {
  return { ...(screen.where ?? {}) };
}

export type FilterValues = Record<string, unknown>;

/** The server's keyword parameter: rows any of whose `search` fields contains the text. */
export const KEYWORD_PARAM = 'q';

export interface KeywordSearch {
  /** The box's placeholder: what it searches. */
  placeholder: string;
  /** Every field it searches (the box's tooltip). */
  title: string;
}

/**
 * The original's "the table data is searched" (isSearchTableData true): a list searches its table's
 * data by default. Every list over a resource that declares `search` fields offers one keyword box
 * over them (the server's `q`, trigram-indexed), the screen saying nothing; a resource without
 * `search` fields has nothing indexed to search, so its lists offer filters only.
 */
export function keywordSearchOf(resource: Pick<Resource, 'search' | 'fields'>): KeywordSearch | undefined {
  const labels = (resource.search ?? []).map((name) => resource.fields[name]?.label ?? name);
  if (labels.length === 0) return undefined;
  return { placeholder: `按${labels.slice(0, 2).join('、')}${labels.length > 2 ? '等' : ''}搜索`, title: `搜索：${labels.join('、')}` };
}

const GTE = '_gte';
const LTE = '_lte';
const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** No value, or a range without either bound. */
const cleared = (v: unknown) => blank(v) || (Array.isArray(v) && v.every(blank));

/** The filter values a list starts from (and returns to on reset): the filters' defaults. */
export function initialFilters(specs: readonly FilterSpec[]): FilterValues {
  return Object.fromEntries(specs.filter((s) => s.initial !== undefined).map((s) => [s.name, s.initial]));
}

/** Filter form values → server list parameters (ranges split into _gte / _lte). */
export function filterParams(specs: readonly FilterSpec[], values: FilterValues): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const spec of specs) {
    const value = values[spec.name];
    if (blank(value)) continue;
    if (spec.range) {
      const bounds: unknown[] = Array.isArray(value) ? value : [];
      const [from, to] = bounds;
      if (!blank(from)) params[spec.name + GTE] = from;
      if (!blank(to)) params[spec.name + LTE] = to;
    } else if (spec.input === 'codes') {
      params[spec.name] = Array.isArray(value) ? value : [value];
    } else {
      params[spec.name] = value;
    }
  }
  return params;
}

function parseScalar(spec: FilterSpec, raw: string): unknown {
  if (spec.input === 'bool') return raw === 'true';
  if (spec.input === 'presence') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  if (spec.input === 'number' || spec.input === 'numberRange') return raw === '' || Number.isNaN(Number(raw)) ? undefined : Number(raw);
  return raw;
}

/** The URL's query → filter form values. */
export function filterValuesFromSearch(specs: readonly FilterSpec[], search: URLSearchParams): FilterValues {
  const values: FilterValues = {};
  for (const spec of specs) {
    if (spec.initial !== undefined && !search.has(spec.name) && !search.has(spec.name + GTE) && !search.has(spec.name + LTE)) {
      values[spec.name] = spec.initial;
      continue;
    }
    if (spec.range) {
      const from = search.get(spec.name + GTE) || null;
      const to = search.get(spec.name + LTE) || null;
      if (from !== null || to !== null)
        values[spec.name] = [from === null ? undefined : parseScalar(spec, from), to === null ? undefined : parseScalar(spec, to)];
    } else if (spec.input === 'codes') {
      const all = search.getAll(spec.name).filter(Boolean);
      if (all.length) values[spec.name] = all;
    } else {
      const raw = search.get(spec.name);
      const value = raw ? parseScalar(spec, raw) : undefined;
      if (value !== undefined) values[spec.name] = value;
    }
  }
  return values;
}

export interface ListState {
  filters: FilterValues;
  /** The keyword box's text (`q`). */
  q?: string;
  pageNo: number;
  pageSize: number;
  sort?: SortSpec;
}

const PAGE = 'pageNo';
const SIZE = 'pageSize';
const ORDER = 'orderBy';

/** The URL's query → the list's state (defaults from the screen). */
export function listStateFromSearch(screen: ListScreen, specs: readonly FilterSpec[], search: URLSearchParams): ListState {
  const pageNo = Number(search.get(PAGE)) || 1;
  const pageSize = Number(search.get(SIZE)) || screen.pageSize || 10;
  const order = search.get(ORDER);
  let sort: SortSpec | undefined = screen.defaultSort;
  if (order !== null) {
    const [field, direction] = order.split(/\s+/);
    sort = field ? { field, order: direction === 'desc' ? 'desc' : 'asc' } : undefined;
  }
  const q = search.get(KEYWORD_PARAM)?.trim();
  return { filters: filterValuesFromSearch(specs, search), ...(q ? { q } : {}), pageNo, pageSize, sort };
}

/** The list's state → the URL's query (defaults left out so a plain list has a plain URL). */
export function searchFromListState(screen: ListScreen, specs: readonly FilterSpec[], state: ListState): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filterParams(specs, state.filters))) {
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  // A filter with a default that the user cleared: say so, or the default would come back.
  for (const spec of specs) if (spec.initial !== undefined && cleared(state.filters[spec.name])) search.set(spec.name, '');
  if (state.q?.trim()) search.set(KEYWORD_PARAM, state.q.trim());
  if (state.pageNo !== 1) search.set(PAGE, String(state.pageNo));
  if (state.pageSize !== (screen.pageSize || 10)) search.set(SIZE, String(state.pageSize));
  const d = screen.defaultSort;
  const s = state.sort;
  if (s?.field !== d?.field || s?.order !== d?.order) search.set(ORDER, s ? `${s.field}${s.order === 'desc' ? ' desc' : ''}` : '');
  return search;
}

/** What the list asks the server: the page, the sort, the filters, the keyword (when the list offers it) and the fixed `where`. */
export function listQueryOf(screen: Pick<ListScreen, 'where'>, specs: readonly FilterSpec[], state: ListState, keyword: KeywordSearch | undefined): ListQuery {
  const q = keyword ? state.q?.trim() : undefined;
  return {
    pageNo: state.pageNo,
    pageSize: state.pageSize,
    sort: state.sort ? [state.sort] : undefined,
    filters: { ...filterParams(specs, state.filters), ...(q ? { [KEYWORD_PARAM]: q } : {}), ...fixedParams(screen) },
  };
}
