/** Loads the schema catalogue of a directory (or of file texts, e.g. from a git revision) for the mapping. */
import { readSchemaTexts } from '../../src/schema/node';
import { kindOf } from '../../src/schema/lint';
import type { Menu, Resource, Screen, SchemaText } from '../../src/schema/types';
import type { Catalogue } from './affected';

/** Parses what parses; a file that does not (the lint reports it) is left out. */
export function catalogueOf(texts: readonly SchemaText[]): Catalogue {
  const resources = new Map<string, Resource>();
  const screens = new Map<string, Screen>();
  let menu: Menu | undefined;
  for (const { path, text } of texts) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    const kind = kindOf(path);
    if (kind === 'resource' && typeof (value as Resource).name === 'string') resources.set((value as Resource).name, value as Resource);
    else if (kind === 'screen' && typeof (value as Screen).id === 'string') screens.set((value as Screen).id, value as Screen);
    else if (kind === 'menu' && Array.isArray((value as Menu).routes)) menu = { ...(value as Menu), public: (value as Menu).public ?? [] };
  }
  return { resources, screens, menu };
}

export const loadCatalogue = (dir: string): Catalogue => catalogueOf(readSchemaTexts(dir));
