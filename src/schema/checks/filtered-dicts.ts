/**
 * Dictionary types filtered out of every dictionary list (the original portal, FILTERED_DICT_TYPES in
 * src/shared/dicts.ts): no dictionary file may define one and no field may offer one. Checked on the
 * raw file, before the meta-schema, so the analyst reads why rather than a name-pattern mismatch.
 */
import { FILTERED_DICT_TYPES, isFilteredDict } from '../../shared/dicts';
import type { JsonPath } from '../json-source';
import type { SchemaKind } from '../types';

export interface FilteredDictRef {
  path: JsonPath;
  message: string;
}

const WHY = `filtered out of every dictionary list (as in the original portal: ${FILTERED_DICT_TYPES.join(', ')})`;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a dictionary file or a resource names a filtered-out dictionary type. */
export function filteredDictRefs(kind: SchemaKind, value: unknown): FilteredDictRef[] {
  if (!isObject(value)) return [];
  if (kind === 'dict') {
    return isFilteredDict(value.name) ? [{ path: ['name'], message: `dictionary '${String(value.name)}' is ${WHY}: remove this file` }] : [];
  }
  if (kind !== 'resource' || !isObject(value.fields)) return [];
  return Object.entries(value.fields).flatMap(([name, field]) =>
    isObject(field) && isFilteredDict(field.dict)
      ? [{ path: ['fields', name, 'dict'], message: `field '${name}' may not offer dictionary '${String(field.dict)}': it is ${WHY}` }]
      : [],
  );
}
