/**
 * Form values → the record the server expects: sub-table rows without ArrayTable's private index
 * key, date-times as ISO 8601 (the picker shows local "YYYY-MM-DD HH:mm:ss").
 */
import dayjs from 'dayjs';
import type { RecordData } from '../data/provider';
import type { ScreenBundle } from '../registry/registry';
import type { Resource } from '../../schema/types';

/** The key @formily/antd-v5's ArrayTable adds to every row it renders. */
export const ARRAY_TABLE_INDEX_KEY = '__DO_NOT_USE_THIS_PROPERTY_index__';

function rowOf(resource: Resource, values: Record<string, unknown>, resources: ScreenBundle['resources']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name === ARRAY_TABLE_INDEX_KEY) continue;
    const field = resource.fields[name];
    const child = field?.type === 'children' && field.resource ? resources.get(field.resource) : undefined;
    if (child && Array.isArray(value)) out[name] = value.map((row) => rowOf(child, (row ?? {}) as Record<string, unknown>, resources));
    else if (field?.type === 'datetime' && typeof value === 'string' && value !== '') out[name] = dayjs(value).isValid() ? dayjs(value).format() : value;
    else out[name] = value;
  }
  return out;
}

export function toRecord(bundle: Pick<ScreenBundle, 'resource' | 'resources'>, values: Record<string, unknown>): RecordData {
  return rowOf(bundle.resource, values, bundle.resources);
}
