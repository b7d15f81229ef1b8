/**
 * schemas/README.md, the first-screen tutorial, shows the real files: each ```json file=<path>
 * block equals that file (the menu block: routes that menu.json holds, as written), so the page
 * cannot drift from the repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT as root, tutorialBlocks } from '../support/tutorial';

type Route = { name: string; children?: Route[] };
const allRoutes = (routes: readonly Route[]): Route[] => routes.flatMap((r) => [r, ...allRoutes(r.children ?? [])]);

describe('the first-screen tutorial (schemas/README.md)', () => {
  const blocks = tutorialBlocks();

  it('shows a dictionary, a resource, three screens and the routes', () => {
    expect([...blocks.keys()].map((k) => k.split('/')[1])).toEqual(['dicts', 'resources', 'screens', 'screens', 'screens', 'menu.json#routes']);
  });

  it.each([...blocks].filter(([path]) => !path.includes('#')))('%s is the file in the repository', (path, json) => {
    expect(json).toEqual(JSON.parse(readFileSync(join(root, path), 'utf8')));
  });

  it('the routes it shows are those of schemas/menu.json', () => {
    const menu = JSON.parse(readFileSync(join(root, 'schemas/menu.json'), 'utf8')) as { routes: Route[] };
    const byName = new Map(allRoutes(menu.routes).map((r) => [r.name, r]));
    const shown = blocks.get('schemas/menu.json#routes') as Route[];
    expect(shown.length).toBe(3);
    for (const route of shown) expect(byName.get(route.name)).toEqual(route);
  });
});
