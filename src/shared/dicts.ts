/**
 * Dictionary types the original portal filters out of every dictionary list: the original took them out of
 * the dictionaries it offered (departments, organisation and inspection-body codes, a menu tree —
 * lists that are not code tables of a form). Here they are never offered either: the schema lint
 * refuses a dictionary file or a field that names one, the server's catalogue does not load one,
 * and the browser's bundled registry does not serve one. One list, read by all three.
 */
export const FILTERED_DICT_TYPES = [
  'inspect_department',
  'monitor_department',
  'SCD_JYJGWYDM',
  'SCD_ORG',
  'department_21',
  'department_22',
  'WJTX_MENU_TREE',
] as const;

const filtered: ReadonlySet<string> = new Set(FILTERED_DICT_TYPES);

/** Whether dictionary type `name` is one the original portal filters out of dictionary lists. */
export function isFilteredDict(name: unknown): boolean {
  return typeof name === 'string' && filtered.has(name);
}
