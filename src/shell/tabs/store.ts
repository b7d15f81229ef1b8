/** The open tabs, persisted in localStorage so they survive a reload (as in the original portal). */
import { useSyncExternalStore } from 'react';
import { parseTabs, type Tab } from './model';

const STORAGE_KEY = 'portal.tabs';
const listeners = new Set<() => void>();
let tabs: readonly Tab[] = parseTabs(localStorage.getItem(STORAGE_KEY));

export const tabStore = {
  get: (): readonly Tab[] => tabs,
  set(next: readonly Tab[]): void {
    if (next === tabs) return;
    tabs = next;
    localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
    listeners.forEach((l) => l());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useTabs(): readonly Tab[] {
  return useSyncExternalStore(tabStore.subscribe, tabStore.get);
}
