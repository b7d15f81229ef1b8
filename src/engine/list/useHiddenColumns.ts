import { useCallback, useState } from 'react';

const storageKey = (screenId: string) => `engine:hidden-columns:${screenId}`;

function read(screenId: string): string[] {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(storageKey(screenId)) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

/** Columns the user hid on a list, remembered in this browser. */
export function useHiddenColumns(screenId: string): [string[], (hidden: string[]) => void] {
  const [hidden, setHidden] = useState(() => read(screenId));
  const update = useCallback(
    (next: string[]) => {
      setHidden(next);
      try {
        globalThis.localStorage?.setItem(storageKey(screenId), JSON.stringify(next));
      } catch {
        // Storage full or denied: the setting lasts for this visit only.
      }
    },
    [screenId],
  );
  return [hidden, update];
}
