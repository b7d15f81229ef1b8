import { useStoredState } from './useStoredState';

const isNames = (value: unknown): value is string[] => Array.isArray(value) && value.every((n) => typeof n === 'string');

/** Columns the user hid on a list, remembered in this browser. */
export function useHiddenColumns(screenId: string): [string[], (hidden: string[]) => void] {
  return useStoredState(`engine:hidden-columns:${screenId}`, () => [], isNames);
}
