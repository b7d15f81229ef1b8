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
  const resolved = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => resolveRelativeDate(x, today)) : resolveRelativeDate(v, today)]));
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
