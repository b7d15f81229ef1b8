/** The open tabs, persisted in localStorage so they survive a reload (as in the original portal). */
import { useSyncExternalStore } from 'react';
import { dropLeftTabs, parseTabs, type Tab } from './model';

const STORAGE_KEY = 'portal.tabs';
const listeners = new Set<() => void>();
/** Tabs to close as soon as another page shows (a form left for the page it came from). */
const leaving = new Set<string>();
let tabs: readonly Tab[] = parseTabs(localStorage.getItem(STORAGE_KEY));

export const tabStore = {
  get: (): readonly Tab[] => tabs,
  set(next: readonly Tab[]): void {
    if (next === tabs) return;
    tabs = next;
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    listeners.forEach((l) => l());
  },
  /** Closes the tab `key` once the current page is another one (see `dropLeftTabs`). */
  closeWhenLeft(key: string): void {
    leaving.add(key);
  },
  /** `tabs` without those marked to close that are not `currentKey`; the marks are used up on any page change. */
  dropLeft: (current: readonly Tab[], currentKey: string): readonly Tab[] => dropLeftTabs(current, leaving, currentKey),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useTabs(): readonly Tab[] {
  return useSyncExternalStore(tabStore.subscribe, tabStore.get);
}
