/**
 * The home work desk (`GET /desk`): the stats screens marked `desk`, counted for the current
 * session in one request. Every number is the total of the list it opens:
 *
 * - a card is counted with the list parameters its link's list asks when opened from the card —
 *   the card's `where` (the link's query), the list screen's fixed `where`, and its filter defaults
 *   for the filters the query leaves unset (legacy/index.ts `screenParams`, the same rule the list
 *   screens follow in the browser) — through the resource's list criteria (stats.ts `countStats`):
 *   the same scope and filters as the list;
 * - a card whose link the role may not open (its route's access ids) is left out, as is every
 *   section over a resource the role may not read; nothing is counted for them;
 * - charts: counts per value (bar, pie) or per month of date fields (line) over the same criteria.
 *
 * The engine names no domain: what the desk shows is the JSON of the screens.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ListScreen, StatsCard, StatsChart, StatsScreen } from '../../schema/types';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveRelativeDate, todayIn } from '../../shared/dates';
import { envelopeOf, failureResponses } from '../../shared/wire';
import { screenParams } from '../legacy/index';
import { loadMenu, type MenuNode } from '../menu';
import type { CompiledResource } from './records';
import type { AnyDb } from './repository';
import { actorOf, type Actor } from './scope';
import { countByMonth, countStats, monthsAround, type MonthCount, type StatsGroup } from './stats';

type Params = Record<string, unknown>;

export interface DeskCard {
  label: string;
  count: number;
  color?: string;
  /** The route with the card's filter as its query (relative dates resolved), when it names one. */
  href?: string;
}

export interface DeskChart {
  title: string;
  type: StatsChart['type'];
  groupBy: string;
  total?: number;
  groups?: StatsGroup[];
  /** line: each line's counts per month. */
  lines?: { label: string; groupBy: string; points: MonthCount[] }[];
}

export interface DeskSection {
  /** The stats screen's id (the browser labels groups through its resource). */
  screen: string;
  resource: string;
  title: string;
  cards: DeskCard[];
  charts: DeskChart[];
}

interface RouteInfo {
  access: readonly string[];
  screen?: string;
}

/** Every menu route by its full path, with its access ids and screen. */
export function menuRoutes(nodes: readonly MenuNode[] = loadMenu()?.routes ?? [], parent = ''): Map<string, RouteInfo> {
  const routes = new Map<string, RouteInfo>();
  for (const node of nodes) {
    const path = node.path.startsWith('/') ? node.path : `${parent}/${node.path}`;
    routes.set(path, { access: node.access ?? [], screen: node.screen });
    for (const [p, info] of menuRoutes(node.children ?? [], path)) routes.set(p, info);
  }
  return routes;
}

const mayOpen = (route: RouteInfo | undefined, actor: Actor) => !!route && (route.access.length === 0 || route.access.some((id) => actor.menuIds.includes(id)));
const mayRead = (compiled: CompiledResource, actor: Actor) =>
  compiled.model.access.length === 0 || compiled.model.access.some((id) => actor.menuIds.includes(id));

function hrefOf(route: string, where: Params, today: string): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(where)) {
    const v = Array.isArray(value) ? value.map((x: unknown) => resolveRelativeDate(x, today)) : resolveRelativeDate(value, today);
    for (const item of Array.isArray(v) ? v : [v]) if (item !== undefined && item !== null && item !== '') search.append(name, String(item));
  }
  const query = search.toString();
  return query ? `${route}?${query}` : route;
}

/**
 * The list parameters of the list a card opens: the card's `where` as the query, the list's defaults
 * for the filters the query leaves unset (a range default yields to either bound), the list's `where`.
 */
export function cardParams(card: Pick<StatsCard, 'where'>, list: ListScreen | undefined): Params {
  const own: Params = { ...(card.where ?? {}) };
  if (!list) return own;
  const { fixed, defaults } = screenParams(list);
  const set = (param: string) => {
    const base = param.replace(/_(gte|lte)$/, '');
    return own[param] !== undefined || own[`${base}_gte`] !== undefined || own[`${base}_lte`] !== undefined;
  };
  const applied = Object.fromEntries(Object.entries(defaults).filter(([p]) => !set(p)));
  return { ...applied, ...own, ...fixed };
}

export interface DeskSources {
  resources: ReadonlyMap<string, CompiledResource>;
  screens: readonly StatsScreen[];
  listScreens: ReadonlyMap<string, ListScreen>;
  routes: ReadonlyMap<string, RouteInfo>;
}

async function chartOf(db: AnyDb, compiled: CompiledResource, actor: Actor, chart: StatsChart, today: string): Promise<DeskChart> {
  if (chart.type !== 'line') {
    const { total, groups } = await countStats(db, compiled, actor, { ...(chart.where ?? {}), groupBy: chart.groupBy });
    return { title: chart.title, type: chart.type, groupBy: chart.groupBy, total, groups: groups ?? [] };
  }
  const months = monthsAround(today, chart.months ?? [-11, 0]);
  const series = [
    { label: chart.label ?? compiled.model.byName.get(chart.groupBy)?.label ?? chart.groupBy, groupBy: chart.groupBy, where: chart.where },
    ...(chart.lines ?? []),
  ];
  const lines = [];
  for (const line of series)
    lines.push({ label: line.label, groupBy: line.groupBy, points: await countByMonth(db, compiled, actor, { ...(line.where ?? {}) }, line.groupBy, months) });
  return { title: chart.title, type: 'line', groupBy: chart.groupBy, lines };
}

/** The desk of one session: its sections in `desk` order, each with what the role may see. */
export async function computeDesk(db: AnyDb, sources: DeskSources, actor: Actor): Promise<DeskSection[]> {
  const today = todayIn();
  const sections: DeskSection[] = [];
  for (const screen of sources.screens) {
    const compiled = sources.resources.get(screen.resource);
    if (!compiled || !mayRead(compiled, actor)) continue;
    const cards: DeskCard[] = [];
    for (const card of screen.cards ?? []) {
      const route = card.link === undefined ? undefined : sources.routes.get(card.link);
      if (card.link !== undefined && !mayOpen(route, actor)) continue;
      const list = route?.screen ? sources.listScreens.get(route.screen) : undefined;
      const { total } = await countStats(db, compiled, actor, cardParams(card, list));
      cards.push({
        label: card.label,
        count: total,
        ...(card.color ? { color: card.color } : {}),
        ...(card.link !== undefined ? { href: hrefOf(card.link, card.where ?? {}, today) } : {}),
      });
    }
    const charts: DeskChart[] = [];
    for (const chart of screen.charts ?? []) charts.push(await chartOf(db, compiled, actor, chart, today));
    if (cards.length > 0 || charts.length > 0) sections.push({ screen: screen.id, resource: screen.resource, title: screen.title, cards, charts });
  }
  return sections;
}

const pointSchema = { type: 'object', required: ['month', 'count'], properties: { month: { type: 'string' }, count: { type: 'integer' } } };
const groupSchema = {
  type: 'object',
  required: ['value', 'count'],
  properties: { value: { type: ['string', 'boolean', 'null'] }, count: { type: 'integer' } },
};

export const deskSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['screen', 'resource', 'title', 'cards', 'charts'],
    properties: {
      screen: { type: 'string' },
      resource: { type: 'string' },
      title: { type: 'string' },
      cards: {
        type: 'array',
        items: {
          type: 'object',
          required: ['label', 'count'],
          properties: { label: { type: 'string' }, count: { type: 'integer' }, color: { type: 'string' }, href: { type: 'string' } },
        },
      },
      charts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['title', 'type', 'groupBy'],
          properties: {
            title: { type: 'string' },
            type: { type: 'string' },
            groupBy: { type: 'string' },
            total: { type: 'integer' },
            groups: { type: 'array', items: groupSchema },
            lines: {
              type: 'array',
              items: {
                type: 'object',
                required: ['label', 'groupBy', 'points'],
                properties: { label: { type: 'string' }, groupBy: { type: 'string' }, points: { type: 'array', items: pointSchema } },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** The stats screens of `<schemaDir>/screens` marked `desk`, in desk order. */
export function loadDeskScreens(schemaDir: string): StatsScreen[] {
  const dir = join(schemaDir, 'screens');
  if (!existsSync(dir)) return [];
  const screens: StatsScreen[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
    const value = JSON.parse(readFileSync(join(entry.parentPath, entry.name), 'utf8')) as Partial<StatsScreen> & { kind?: string };
    if (value?.kind === 'stats' && typeof value.desk === 'number' && typeof value.resource === 'string') screens.push(value as StatsScreen);
  }
  return screens.sort((a, b) => a.desk! - b.desk! || a.id.localeCompare(b.id));
}

/** Registers `GET /desk` (and returns the handler, for legacy paths that answer the same). */
export function registerDesk(app: FastifyInstance, sources: DeskSources): (request: FastifyRequest) => Promise<DeskSection[]> {
  const handler = (request: FastifyRequest) => computeDesk(request.server.db, sources, actorOf(request));
  app.route({
    method: ['GET', 'POST'],
    url: '/desk',
    schema: {
      tags: ['desk'],
      summary: 'The home work desk: the desk stats screens counted for the session',
      response: { 200: envelopeOf(deskSchema), ...failureResponses },
    },
    handler: async (request, reply) => reply.ok(await handler(request)),
  });
  return handler;
}
