/**
 * The route tree of schemas/menu.json, read on the server for its access ids (the seed grants them
 * to roles; RBAC enforces them). Access id convention: `<group>:<leaf>`, e.g. `equipment:overview`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

import type { Menu, MenuNode } from '../schema/generated/menu';
import { projectPath } from './paths';

export type { MenuNode };
export type MenuFile = Menu;

export const MENU_FILE = projectPath('schemas', 'menu.json');

/** The menu, or null when the file does not exist (yet). Throws on a malformed file. */
export function loadMenu(file = MENU_FILE): MenuFile | null {
  if (!existsSync(file)) return null;
  const errors: ParseError[] = [];
  const menu = parse(readFileSync(file, 'utf8'), errors, { allowTrailingComma: true }) as MenuFile | undefined;
  if (errors.length > 0 || !menu || !Array.isArray(menu.routes)) {
    const detail = errors.map((e) => `${printParseErrorCode(e.error)} at offset ${e.offset}`).join(', ') || 'missing "routes"';
    throw new Error(`${file}: ${detail}`);
  }
  return menu;
}

/** Every node of the tree, depth first. */
export function flattenMenu(nodes: MenuNode[]): MenuNode[] {
  return nodes.flatMap((node) => [node, ...flattenMenu(node.children ?? [])]);
}

/** All access ids used in the menu, sorted and unique. */
export function menuAccessIds(menu: MenuFile): string[] {
  return [...new Set(flattenMenu(menu.routes).flatMap((node) => node.access ?? []))].sort();
}

/** The group of an access id: `equipment:overview` → `equipment`. */
export function accessGroup(accessId: string): string {
  return accessId.split(':')[0];
}
