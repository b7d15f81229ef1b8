/**
 * What a stats screen computes besides drawing: the parameters each card and chart asks the server
 * for (the screen's filters narrowed by a fixed `where`), the address a card links to, and a
 * chart's rows with their labels (through the engine's code lists), shares and colours.
 */
import { resolveRelativeDate } from '../../shared/dates';
import { codeLabel, codesOf, type CodeItem } from '../model/codes';
import { filterParamsOf, isCoded, resourceFields } from '../../schema/model';
import type { Dict, Field, Resource, StatsWhere } from '../../schema/types';
import type { StatsResult } from '../data/provider';

export type Params = Record<string, unknown>;

const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const asList = (v: unknown): string[] => (Array.isArray(v) ? v : [v]).map(String);

/** The filter parameters of a resource whose values are codes (a list matches any of them). */
export function codedParams(resource: Resource): Set<string> {
  const fields = resourceFields(resource);
  const coded = new Set<string>();
  for (const [name, param] of filterParamsOf(resource)) {
    const field = fields.get(param.field)!;
    if (!param.bound && isCoded(resource, param.field, field)) coded.add(name);
  }
  return coded;
}

/**
 * The screen's filters narrowed by a card's or chart's fixed filter: codes chosen by both are
 * intersected, any other value of `where` replaces the user's. `null` when nothing can match
 * (the user chose codes the fixed filter excludes), so there is nothing to ask.
 */
export function narrow(filters: Params, where: StatsWhere | undefined, coded: ReadonlySet<string>): Params | null {
  const out: Params = { ...filters };
  for (const [key, value] of Object.entries(where ?? {})) {
    if (value === undefined) continue;
    if (!coded.has(key)) {
      out[key] = value;
      continue;
    }
    const fixed = asList(value);
    if (blank(out[key])) {
      out[key] = fixed;
      continue;
    }
    const chosen = new Set(asList(out[key]));
    const both = fixed.filter((code) => chosen.has(code));
    if (both.length === 0) return null;
    out[key] = both;
  }
  return out;
}

/** The parameters of `params` that the list of `resource` takes (a chart over another resource than the screen's). */
export function paramsOf(resource: Resource, params: Params): Params {
  const accepted = filterParamsOf(resource);
  return Object.fromEntries(Object.entries(params).filter(([name]) => accepted.has(name)));
}

/** List parameters as a query string (lists repeat a name), the form the list screens read back. */
export function searchOf(params: Params): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (blank(value)) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(name, String(v));
  }
  return search;
}

/**
 * A route with list parameters as its query. Relative dates (`today-1d`) travel as the dates they
 * mean today, so the list's date inputs can show them.
 */
export function hrefWith(route: string, params: Params, today?: string): string {
  const resolved = Object.fromEntries(
    Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.map((x: unknown) => resolveRelativeDate(x, today)) : resolveRelativeDate(v, today)]),
  );
  const query = searchOf(resolved).toString();
  return query ? `${route}${route.includes('?') ? '&' : '?'}${query}` : route;
}

export const BLANK_LABEL = '未填写';

export interface ChartDatum {
  /** The value as text (stable React key). */
  key: string;
  label: string;
  count: number;
  /** Share of the total, 0..1. */
  share: number;
  /** Colour name of the value's code (a preset name or #rrggbb), when its list gives one. */
  color?: string;
}

/** The label of a grouped value: the code's label, 是/否 for booleans, 未填写 for blanks. */
export function groupLabel(field: Field, codes: readonly CodeItem[], value: string | boolean | null): string {
  if (value === null || value === '') return BLANK_LABEL;
  if (field.type === 'bool' || typeof value === 'boolean') return value === true || value === 'true' ? '是' : '否';
  return codeLabel(codes, value);
}

/** A chart's rows in the server's order (largest first). */
export function chartData(result: StatsResult | undefined, resource: Resource, name: string, field: Field, dicts: ReadonlyMap<string, Dict>): ChartDatum[] {
  if (!result?.groups) return [];
  const codes = codesOf(resource, name, field, dicts);
  return result.groups.map((group) => {
    const code = group.value === null ? undefined : codes.find((c) => c.value === String(group.value));
    return {
      key: String(group.value),
      label: groupLabel(field, codes, group.value),
      count: group.count,
      share: result.total > 0 ? group.count / result.total : 0,
      color: code?.color,
    };
  });
}

/** More slices than this are summed up as one 其他 slice (the table still lists every value). */
export const MAX_SLICES = 8;
export const OTHER_LABEL = '其他';

/** The slices of a donut: the largest `MAX_SLICES - 1` values and the rest as 其他. */
export function slices(data: readonly ChartDatum[], max = MAX_SLICES): ChartDatum[] {
  if (data.length <= max) return [...data];
  const head = data.slice(0, max - 1);
  const rest = data.slice(max - 1);
  const count = rest.reduce((sum, d) => sum + d.count, 0);
  return [...head, { key: '__other', label: OTHER_LABEL, count, share: rest.reduce((sum, d) => sum + d.share, 0) }];
}

/** A share as a percentage with one decimal (e.g. 33.3%). */
export const percent = (share: number): string => `${(Math.round(share * 1000) / 10).toFixed(1)}%`;

/** Categorical colours (antd preset names), in the order slices take them. */
export const PALETTE = ['blue', 'cyan', 'gold', 'purple', 'green', 'magenta', 'volcano', 'geekblue', 'lime', 'orange', 'red', 'pink'] as const;

/**
 * A colour per slice: the code's own colour when it has a distinct one (e.g. a status dictionary's
 * green / orange / red), else the next unused palette colour, so no two slices look alike.
 */
export function sliceColors(data: readonly ChartDatum[]): string[] {
  const used = new Set<string>();
  const own = data.map((d) => {
    const c = d.color && d.color !== 'default' && !used.has(d.color) ? d.color : undefined;
    if (c) used.add(c);
    return c;
  });
  const free = PALETTE.filter((c) => !used.has(c));
  let next = 0;
  return own.map((c) => c ?? free[next++ % free.length] ?? PALETTE[0]);
}

/** One sentence for screen readers: "标题：甲 3（60.0%），乙 2（40.0%），合计 5". */
export function describeChart(title: string, data: readonly ChartDatum[], total: number): string {
  if (data.length === 0) return `${title}：暂无数据`;
  return `${title}：${data.map((d) => `${d.label} ${d.count}（${percent(d.share)}）`).join('，')}，合计 ${total}`;
}

/** A share as "12.5%（3 / 24）": the percentage with both numbers; "—（0 / 0）" without rows. */
export const rateText = (part: number, whole: number): string => `${whole > 0 ? percent(part / whole) : '—'}（${part} / ${whole}）`;

/** One bar of a `rate` chart: of `whole` counted rows, `part` also match the rate's filter. */
export interface RateDatum {
  key: string;
  /** The group's value (null: blank). */
  value: string | boolean | null;
  label: string;
  part: number;
  whole: number;
  /** part / whole, 0..1 (0 without rows). */
  rate: number;
}

/**
 * A rate chart's bars: per value of the denominator's groups (the chart's rows), the share that
 * also match the rate's filter (the numerator's groups), highest share first (then most rows).
 */
export function rateData(
  whole: StatsResult | undefined,
  part: StatsResult | undefined,
  resource: Resource,
  name: string,
  field: Field,
  dicts: ReadonlyMap<string, Dict>,
): RateDatum[] {
  if (!whole?.groups) return [];
  const codes = codesOf(resource, name, field, dicts);
  const parts = new Map((part?.groups ?? []).map((g) => [String(g.value), g.count]));
  return whole.groups
    .filter((g) => g.count > 0)
    .map((g) => {
      const count = parts.get(String(g.value)) ?? 0;
      return { key: String(g.value), value: g.value, label: groupLabel(field, codes, g.value), part: count, whole: g.count, rate: count / g.count };
    })
    .sort((a, b) => b.rate - a.rate || b.whole - a.whole || a.label.localeCompare(b.label, 'zh-CN'));
}

/** A month of a rate line: the share (0..100, one decimal) or null when the month has no rows. */
export interface RatePoint {
  month: string;
  part: number;
  whole: number;
  /** Percentage, or null (no rows that month: no point, not 0%). */
  rate: number | null;
}

/** A rate line's months from the two month series (same months, same order). */
export function ratePoints(whole: readonly { month: string; count: number }[], part: readonly { month: string; count: number }[]): RatePoint[] {
  const parts = new Map(part.map((p) => [p.month, p.count]));
  return whole.map((w) => {
    const count = parts.get(w.month) ?? 0;
    return { month: w.month, part: count, whole: w.count, rate: w.count > 0 ? Math.round((count / w.count) * 1000) / 10 : null };
  });
}

/** One value of a stacked bar's second field: a series, with its label and code colour. */
export interface StackSeries {
  key: string;
  value: string | boolean | null;
  label: string;
  color?: string;
}

/** A stacked bar chart's data: the bars (groups, largest total first), the parts' series and counts[series][bar]. */
export interface StackedData {
  bars: (ChartDatum & { value: string | boolean | null })[];
  series: StackSeries[];
  /** counts[i][j]: rows of series i in bar j. */
  counts: number[][];
  total: number;
}

/**
 * The stacked bars of a `groupBy` + `stackBy` answer (groups[] with `stack`): one bar per group
 * value in the server's order (its total largest first), one series per stack value (largest
 * overall first), labelled through the code lists, each series in its code's colour when it has one.
 */
export function stackedData(
  result: StatsResult | undefined,
  resource: Resource,
  name: string,
  field: Field,
  stackName: string,
  stackField: Field,
  dicts: ReadonlyMap<string, Dict>,
): StackedData {
  const empty: StackedData = { bars: [], series: [], counts: [], total: 0 };
  if (!result?.groups) return empty;
  const codes = codesOf(resource, name, field, dicts);
  const stackCodes = codesOf(resource, stackName, stackField, dicts);
  const barIndex = new Map<string, number>();
  const bars: StackedData['bars'] = [];
  const seriesTotals = new Map<string, { value: string | boolean | null; count: number }>();
  for (const g of result.groups) {
    const key = String(g.value);
    if (!barIndex.has(key)) {
      barIndex.set(key, bars.length);
      const code = g.value === null ? undefined : codes.find((c) => c.value === key);
      bars.push({ key, value: g.value, label: groupLabel(field, codes, g.value), count: 0, share: 0, color: code?.color });
    }
    bars[barIndex.get(key)!].count += g.count;
    const stack = g.stack ?? null;
    const s = seriesTotals.get(String(stack)) ?? { value: stack, count: 0 };
    s.count += g.count;
    seriesTotals.set(String(stack), s);
  }
  const series: StackSeries[] = [...seriesTotals.entries()]
    .sort(([ka, a], [kb, b]) => (a.value === null ? 1 : 0) - (b.value === null ? 1 : 0) || b.count - a.count || ka.localeCompare(kb))
    .map(([key, s]) => {
      const code = s.value === null ? undefined : stackCodes.find((c) => c.value === key);
      return { key, value: s.value, label: groupLabel(stackField, stackCodes, s.value), color: code?.color };
    });
  const seriesIndex = new Map(series.map((s, i) => [s.key, i]));
  const counts = series.map(() => bars.map(() => 0));
  for (const g of result.groups) counts[seriesIndex.get(String(g.stack ?? null))!][barIndex.get(String(g.value))!] += g.count;
  const total = result.total;
  for (const bar of bars) bar.share = total > 0 ? bar.count / total : 0;
  return { bars, series, counts, total };
}

/**
 * The list parameters of a chart's drill-down: the screen's filters, the chart's `where`, the
 * `rate` filter (a rate chart's link shows the rows of its numerator) and the clicked value(s).
 * `null` when a clicked value is blank (a list cannot filter on 未填写) or nothing can match.
 */
export function drillParams(
  filters: Params,
  chart: { groupBy: string; stackBy?: string; where?: StatsWhere; rate?: StatsWhere },
  coded: ReadonlySet<string>,
  value: string | boolean | null,
  stack?: string | boolean | null,
): Params | null {
  if (blank(value) || (chart.stackBy !== undefined && stack !== undefined && blank(stack))) return null;
  const clicked: StatsWhere = { [chart.groupBy]: String(value) };
  if (chart.stackBy !== undefined && stack !== undefined && stack !== null) clicked[chart.stackBy] = String(stack);
  let out: Params | null = filters;
  for (const where of [chart.where, chart.rate, clicked]) {
    if (out === null) return null;
    out = narrow(out, where, coded);
  }
  return out;
}

/** A stacked chart's text: "标题：甲 5（A 3，B 2），乙 …，合计 7". */
export function describeStacked(title: string, data: StackedData): string {
  if (data.bars.length === 0) return `${title}：暂无数据`;
  const bars = data.bars.map(
    (bar, j) => `${bar.label} ${bar.count}（${data.series.flatMap((s, i) => (data.counts[i][j] > 0 ? [`${s.label} ${data.counts[i][j]}`] : [])).join('，')}）`,
  );
  return `${title}：${bars.join('，')}，合计 ${data.total}`;
}

/** A rate chart's text: "标题：甲 12.5%（3 / 24），…". */
export function describeRates(title: string, data: readonly RateDatum[]): string {
  if (data.length === 0) return `${title}：暂无数据`;
  return `${title}：${data.map((d) => `${d.label} ${rateText(d.part, d.whole)}`).join('，')}`;
}
