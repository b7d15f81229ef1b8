/**
 * The tab bar as pure list operations (unit-tested in tests/unit/shell-tabs.test.ts). The home tab
 * is always first and is never closed.
 */
import { titleFor, type RouteEntry } from '../../app/menu';

export interface Tab {
  /** Route pattern, or the full URL for multiPage routes (one tab per URL). */
  key: string;
  /** The URL last shown in the tab (pathname + search). */
  path: string;
  title: string;
}

export function tabFor(entry: RouteEntry, pathname: string, search = ''): Tab {
  const path = pathname + search;
  return { key: entry.multiPage ? path : entry.fullPath, path, title: titleFor(entry.title, search) };
}

// The page title rule (a form opened for adding says 新增) is the menu's: the tab and the document title share it.
export { titleFor };

/** `tabs` with `home` first (replacing any former home tab that is not in the list now). */
export function withHome(tabs: readonly Tab[], home: Tab): Tab[] {
  return [home, ...tabs.filter((t) => t.key !== home.key)];
}

/** Opens a tab, or points an open one (same key) at the new URL. */
export function openTab(tabs: readonly Tab[], tab: Tab): Tab[] {
  const index = tabs.findIndex((t) => t.key === tab.key);
  if (index < 0) return [...tabs, tab];
  if (tabs[index].path === tab.path && tabs[index].title === tab.title) return tabs as Tab[];
  return tabs.map((t, i) => (i === index ? tab : t));
}

/**
 * `tabs` without those in `leaving` other than the current one; once one is dropped the marks are
 * used up (`leaving` is emptied).
 */
export function dropLeftTabs(tabs: readonly Tab[], leaving: Set<string>, currentKey: string): readonly Tab[] {
  const gone = new Set([...leaving].filter((k) => k !== currentKey));
  if (gone.size === 0) return tabs;
  leaving.clear();
  return tabs.filter((t) => !gone.has(t.key));
}

export interface CloseResult {
  tabs: Tab[];
  /** The tab to show when the active one was closed; null when it stays open. */
  next: Tab | null;
}

function result(before: readonly Tab[], after: Tab[], activeKey: string): CloseResult {
  if (after.some((t) => t.key === activeKey)) return { tabs: after, next: null };
  const index = before.findIndex((t) => t.key === activeKey);
  // The nearest surviving tab to the right, else to the left, else home.
  const right = before.slice(index + 1).find((t) => after.includes(t));
  const left = before
    .slice(0, Math.max(index, 0))
    .reverse()
    .find((t) => after.includes(t));
  return { tabs: after, next: right ?? left ?? after[0] ?? null };
}

export function closeTabs(tabs: readonly Tab[], keys: readonly string[], homeKey: string, activeKey: string): CloseResult {
  const closing = new Set(keys.filter((k) => k !== homeKey));
  return result(
    tabs,
    tabs.filter((t) => !closing.has(t.key)),
    activeKey,
  );
}

/** Keys a context-menu action closes. */
export type CloseScope = 'self' | 'others' | 'left' | 'right' | 'all';

export function keysToClose(tabs: readonly Tab[], key: string, scope: CloseScope, homeKey: string): string[] {
  const index = tabs.findIndex((t) => t.key === key);
  const pick = (predicate: (t: Tab, i: number) => boolean) => tabs.filter((t, i) => t.key !== homeKey && predicate(t, i)).map((t) => t.key);
  switch (scope) {
    case 'self':
      return pick((t) => t.key === key);
    case 'others':
      return pick((t) => t.key !== key);
    case 'left':
      return pick((_, i) => i < index);
    case 'right':
      return pick((_, i) => i > index);
    case 'all':
      return pick(() => true);
  }
}

/** A persisted tab: an object with a string key, path and title. */
function isTab(value: unknown): value is Tab {
  if (value === null || typeof value !== 'object') return false;
  const { key, path, title } = value as Record<string, unknown>;
  return typeof key === 'string' && typeof path === 'string' && typeof title === 'string';
}

/** Parses persisted tabs, dropping anything malformed. */
export function parseTabs(raw: string | null): Tab[] {
  try {
    const value: unknown = raw ? JSON.parse(raw) : [];
    if (!Array.isArray(value)) return [];
    return value.filter(isTab);
  } catch {
    return [];
  }
}
