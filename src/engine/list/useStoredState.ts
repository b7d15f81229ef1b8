import { useCallback, useState } from 'react';

/** A value read from this browser's storage, or undefined when absent, unreadable or not of the expected shape. */
function read<T>(key: string, accept: (value: unknown) => value is T): T | undefined {
  try {
    const text = globalThis.localStorage?.getItem(key);
    if (text === null || text === undefined) return undefined;
    const parsed: unknown = JSON.parse(text);
    return accept(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A user's setting of a screen (hidden columns, an open filter fold), remembered in this browser
 * under `key`; `initial` while nothing (valid) is stored.
 */
export function useStoredState<T>(key: string, initial: () => T, accept: (value: unknown) => value is T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => read(key, accept) ?? initial());
  const update = useCallback(
    (next: T) => {
      setValue(next);
      try {
        globalThis.localStorage?.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or denied: the setting lasts for this visit only.
      }
    },
    [key],
  );
  return [value, update];
}
