/**
 * The route tree of schemas/menu.json as data the router, the side menu, the tabs and the
 * breadcrumbs share. Pure functions only (unit-tested in tests/unit/shell-menu.test.ts).
 */
import { matchPath } from 'react-router-dom';
import { canAccess, type AccessSubject } from './access';

import type { Menu, MenuNode } from '../schema/generated/menu';

/** Nodes and the file come from the types generated from schemas/meta/menu.schema.json. */
export type { MenuNode };
export type MenuFile = Menu;
export type HrefAppend = NonNullable<MenuNode['hrefAppend']>;

/** A routable leaf with its absolute path and its ancestors (for breadcrumbs and access). */
export interface RouteEntry {
  name: string;
  fullPath: string;
  title: string;
  icon?: string;
  access?: string[];
  seedOnly: boolean;
  hideInMenu: boolean;
  notCache: boolean;
  multiPage: boolean;
  page?: string;
  screen?: string;
  href?: string;
  /** Name of a configured external link (the app config's `links`) that replaces href. */
  hrefSetting?: string;
  hrefAppend?: HrefAppend;
  /** Titles and paths of the enclosing groups, outermost first. */
  ancestors: { title: string; fullPath: string }[];
  /** Name of the top-level menu node the route sits under (its own name at the top level). */
  rootRouter: string;
}

/** A side-menu item: a group (children) or a link (route path or external href). */
export interface MenuItem {
  key: string;
  title: string;
  icon?: string;
  href?: string;
  hrefSetting?: string;
  hrefAppend?: HrefAppend;
  children?: MenuItem[];
}

/**
 * A page's title for its address (its tab and the document title): a form opened for adding
 * (`mode=add`) says 新增 and drops an editing word its menu title ends with (作业人员编辑 → 新增作业人员).
 */
export function titleFor(title: string, search: string): string {
  if (new URLSearchParams(search).get('mode') !== 'add' || title.startsWith('新增')) return title;
  return `新增${title.replace(/(编辑|修改|录入)$/, '')}`;
}

/** The document title of a page: the product, then the page's title for its address. */
export const documentTitle = (productName: string, title: string | undefined, search: string): string =>
  title ? `${productName} - ${titleFor(title, search)}` : productName;

export function joinPath(parent: string, child: string): string {
  if (child.startsWith('/') || child === '*') return child;
  return `${parent.replace(/\/+$/, '')}/${child}`;
}

/** Every leaf of the tree (nodes without children), depth first. */
export function flattenRoutes(nodes: readonly MenuNode[], parent = '', ancestors: RouteEntry['ancestors'] = [], seedOnly = false, root?: string): RouteEntry[] {
  return nodes.flatMap((node) => {
    const fullPath = joinPath(parent, node.path);
    const nodeSeedOnly = seedOnly || Boolean(node.seedOnly);
    const rootRouter = root ?? node.name;
    if (node.children?.length) {
      return flattenRoutes(node.children, fullPath, [...ancestors, { title: node.title, fullPath }], nodeSeedOnly, rootRouter);
    }
    return [
      {
        name: node.name,
        fullPath,
        title: node.title,
        icon: node.icon,
        access: node.access,
        seedOnly: nodeSeedOnly,
        hideInMenu: Boolean(node.hideInMenu),
        notCache: Boolean(node.notCache),
        multiPage: Boolean(node.multiPage),
        page: node.page,
        screen: node.screen,
        href: node.href,
        hrefSetting: node.hrefSetting,
        hrefAppend: node.hrefAppend,
        ancestors,
        rootRouter,
      },
    ];
  });
}

/** The side menu for a subject: permitted, visible items; a group shows if any child does. */
export function buildMenu(nodes: readonly MenuNode[], subject: AccessSubject, parent = ''): MenuItem[] {
  const items: MenuItem[] = [];
  for (const node of nodes) {
    if (node.hideInMenu || (node.seedOnly && !subject.isUserSeed)) continue;
    const fullPath = joinPath(parent, node.path);
    if (node.children?.length) {
      const children = buildMenu(node.children, subject, fullPath);
      if (children.length === 0) continue;
      if (children.length === 1 && !node.showAlways && !children[0].children) items.push(children[0]);
      else items.push({ key: fullPath, title: node.title, icon: node.icon, children });
    } else if (canAccess(node, subject)) {
      items.push({ key: fullPath, title: node.title, icon: node.icon, href: node.href, hrefSetting: node.hrefSetting, hrefAppend: node.hrefAppend });
    }
  }
  return items;
}

/** An external link (a fixed href or a configured one), not a route. */
export const isExternal = (item: { href?: string; hrefSetting?: string }): boolean => Boolean(item.href || item.hrefSetting);

/**
 * The menu with its configured external links resolved: an item naming a link (hrefSetting) takes
 * the configured URL as its href, and is left out when neither is set; a group left empty goes too.
 */
export function withLinks(items: readonly MenuItem[], links: Readonly<Record<string, string>>): MenuItem[] {
  return items.flatMap((item): MenuItem[] => {
    if (item.children) {
      const children = withLinks(item.children, links);
      return children.length ? [{ ...item, children }] : [];
    }
    if (!item.hrefSetting) return [item];
    const href = linkOf(item, links);
    return href ? [{ ...item, href }] : [];
  });
}

/** The address of an external item: its configured link (hrefSetting), else its fixed href; undefined when neither is set. */
export function linkOf(item: { href?: string; hrefSetting?: string }, links: Readonly<Record<string, string>>): string | undefined {
  return (item.hrefSetting ? links[item.hrefSetting] : undefined) ?? item.href;
}

/** The first routable (non-external) leaf of a menu, depth first. */
export function firstMenuPath(items: readonly MenuItem[]): string | null {
  for (const item of items) {
    if (item.children) {
      const found = firstMenuPath(item.children);
      if (found) return found;
    } else if (!isExternal(item)) {
      return item.key;
    }
  }
  return null;
}

function enclosingGroups(items: readonly MenuItem[], path: string): string[] {
  for (const item of items) {
    if (!item.children) continue;
    if (item.children.some((c) => c.key === path)) return [item.key];
    const inner = enclosingGroups(item.children, path);
    if (inner.length) return [item.key, ...inner];
  }
  return [];
}

/**
 * The keys of the groups to open for a path. A page hidden from the menu opens the groups its
 * route sits in (a group may gather pages of other addresses: absolute child paths), else the
 * group of its first path segment.
 */
export function openKeysFor(items: readonly MenuItem[], path: string, entries: readonly RouteEntry[] = []): string[] {
  const found = enclosingGroups(items, path);
  if (found.length) return found;
  const groups = (matchRoute(entries, path)?.ancestors ?? []).map((a) => a.fullPath).filter((key) => items.some((i) => i.key === key && i.children));
  if (groups.length) return groups.slice(0, 1);
  const top = `/${path.split('/')[1]}`;
  return items.some((i) => i.key === top && i.children) ? [top] : [];
}

/** The route entry whose pattern matches a pathname. */
export function matchRoute(entries: readonly RouteEntry[], pathname: string): RouteEntry | undefined {
  return entries.find((e) => e.fullPath !== '*' && matchPath({ path: e.fullPath, end: true }, pathname));
}

/**
 * How an external item opens. One that carries the user's identity (hrefAppend) to a configured
 * link asks the server for its address (`{ link }`: the server appends a single-use token, or the
 * user id, see src/server/routes/external-link.ts), so the session token never leaves the portal;
 * every other one opens at its address (`{ url }`), a fixed href with hrefAppend `userId` with the
 * user id appended. A fixed href never gets a token (the server signs only for configured links).
 */
export type ExternalTarget = { url: string } | { link: string };

export function externalTarget(
  item: { href?: string; hrefSetting?: string; hrefAppend?: HrefAppend },
  links: Readonly<Record<string, string>>,
  userId: string | null | undefined,
): ExternalTarget | undefined {
  if (item.hrefAppend && item.hrefSetting && links[item.hrefSetting]) return { link: item.hrefSetting };
  const href = linkOf(item, links);
  if (!href) return undefined;
  if (item.hrefAppend !== 'userId' || !userId) return { url: href };
  const url = new URL(href);
  url.searchParams.set('userId', userId);
  return { url: url.toString() };
}
