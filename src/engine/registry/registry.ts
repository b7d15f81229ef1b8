/**
 * Where screens, resources and dictionaries come from. The engine asks a `SchemaRegistry`; the
 * bundled one (bundled.ts) serves the repository's schemas/ compiled into the build, tests and the
 * playground use `memoryRegistry`. `loadScreenBundle` gathers everything one screen needs.
 */
import { ownProof, screenResource } from '../../schema/screen-fields';
import type { Dict, Field, Resource, Screen } from '../../schema/types';

export interface SchemaRegistry {
  screen(id: string): Promise<Screen>;
  resource(name: string): Promise<Resource>;
  dict(name: string): Promise<Dict>;
}

/** A screen with its resource, the resources of its sub-tables and every dictionary they use. */
export interface ScreenBundle {
  screen: Screen;
  resource: Resource;
  /** Child resources of `children` fields, and the resources a stats screen's charts read (`resource`), by name. */
  resources: ReadonlyMap<string, Resource>;
  dicts: ReadonlyMap<string, Dict>;
}

export class SchemaNotFoundError extends Error {
  constructor(kind: string, name: string) {
    super(`${kind} '${name}' not found`);
    this.name = 'SchemaNotFoundError';
  }
}

const lookup = <T>(kind: string, table: Readonly<Record<string, T>>, name: string): Promise<T> =>
  Object.hasOwn(table, name) ? Promise.resolve(table[name]) : Promise.reject(new SchemaNotFoundError(kind, name));

/** A registry over in-memory documents (tests, the playground). */
export function memoryRegistry(docs: { screens?: readonly Screen[]; resources?: readonly Resource[]; dicts?: readonly Dict[] }): SchemaRegistry {
  const screens = Object.fromEntries((docs.screens ?? []).map((s) => [s.id, s]));
  const resources = Object.fromEntries((docs.resources ?? []).map((r) => [r.name, r]));
  const dicts = Object.fromEntries((docs.dicts ?? []).map((d) => [d.name, d]));
  return {
    screen: (id) => lookup('screen', screens, id),
    resource: (name) => lookup('resource', resources, name),
    dict: (name) => lookup('dict', dicts, name),
  };
}

const fieldsOf = (resource: Resource): Field[] => Object.values(resource.fields).filter((f): f is Field => f !== undefined);

/** A screen whose `proof` is another screen's (`of`) takes that proof, with its own `links` if it gives them (lint: that screen has a proof of its own). */
async function sharedProof(registry: SchemaRegistry, screen: Screen): Promise<Screen> {
  if ((screen.kind !== 'list' && screen.kind !== 'detail') || !screen.proof || !('of' in screen.proof)) return screen;
  const { of, links } = screen.proof;
  const proof = ownProof(await registry.screen(of));
  if (!proof) throw new SchemaNotFoundError('proof of screen', of);
  return { ...screen, proof: links ? { ...proof, links } : proof };
}

export async function loadScreenBundle(registry: SchemaRegistry, screenId: string): Promise<ScreenBundle> {
  const screen = await sharedProof(registry, await registry.screen(screenId));
  const named = screen.resource === undefined ? undefined : await registry.resource(screen.resource);
  // A form's own fields join its resource's (an open form, or a list or detail over a `source`, may have no resource at all).
  const resource = screen.kind === 'form' || screen.kind === 'list' || screen.kind === 'detail' ? screenResource(screen, named) : named!;
  const resources = new Map<string, Resource>();
  if (screen.kind === 'stats') {
    for (const chart of screen.charts ?? [])
      if (chart.resource && !resources.has(chart.resource)) resources.set(chart.resource, await registry.resource(chart.resource));
  }
  const pending = [resource, ...resources.values()];
  while (pending.length) {
    const next = pending.pop()!;
    for (const field of fieldsOf(next)) {
      if (field.type === 'children' && field.resource && !resources.has(field.resource)) {
        const child = await registry.resource(field.resource);
        resources.set(child.name, child);
        pending.push(child);
      }
    }
  }
  const dictNames = new Set([resource, ...resources.values()].flatMap(fieldsOf).flatMap((f) => (f.dict ? [f.dict] : [])));
  const dicts = new Map(await Promise.all([...dictNames].map(async (name) => [name, await registry.dict(name)] as const)));
  return { screen, resource, resources, dicts };
}
