/**
 * Which inspection body serves an application (dictionary `inspection-routing`): each rule names an
 * area (a code covers every code below it: 330200 covers 3302xx), optionally an equipment category,
 * and the body's unified social credit code. The most specific rule wins — the longest area prefix,
 * then a rule naming one of the categories over one that does not. Online inspection applications and
 * report re-issues are routed by the same table, so one body serves a unit's equipment throughout.
 */
import type { AnyDb } from '../../resources/repository';
import type { HookContext } from '../../resources/hooks';
import { areaPrefix } from '../../resources/scope';

export const ROUTING_DICT = 'inspection-routing';

export interface RoutingRule {
  /** The rule's code in the dictionary. */
  code: string;
  area: string;
  category: string | null;
  /** The body's unified social credit code. */
  body: string;
}

export interface ServingBody {
  id: string;
  orgname: string;
  orgcode: string;
}

/** The rules of the routing table, as data. */
export function routingRules(dicts: HookContext['dicts']): RoutingRule[] {
  return (dicts.get(ROUTING_DICT) ?? []).flatMap((item) => {
    const { area, category, body } = item.data ?? {};
    if (typeof area !== 'string' || typeof body !== 'string') return [];
    return [{ code: item.value, area, category: typeof category === 'string' && category ? category : null, body }];
  });
}

/** The most specific rule covering `areaCode` and (when the rule names one) one of `categories`; undefined when none does. */
export function matchRule(rules: readonly RoutingRule[], areaCode: string, categories: readonly string[]): RoutingRule | undefined {
  let best: { rule: RoutingRule; rank: number } | undefined;
  for (const rule of rules) {
    const prefix = areaPrefix(rule.area);
    if (!areaCode.startsWith(prefix)) continue;
    if (rule.category && !categories.some((c) => c.startsWith(rule.category!.replace(/0+$/, '')))) continue;
    const rank = prefix.length * 2 + (rule.category ? 1 : 0);
    if (!best || rank > best.rank) best = { rule, rank };
  }
  return best?.rule;
}

/** The inspection body serving equipment of `categories` in `areaCode`, read from the unit register; undefined when no rule routes it or its body is not registered. */
export async function routeInspectionBody(
  db: AnyDb,
  dicts: HookContext['dicts'],
  areaCode: string,
  categories: readonly string[],
): Promise<ServingBody | undefined> {
  const rule = matchRule(routingRules(dicts), areaCode, categories);
  if (!rule) return undefined;
  return db
    .selectFrom('sys_unit')
    .select(['id', 'orgname', 'orgcode'])
    .where('orgcode', '=', rule.body)
    .where('unit_type', '=', 'inspection')
    .executeTakeFirst();
}
