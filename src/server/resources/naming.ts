/** SQL identifiers derived from schema names: columns, indexes, quoting. */
import { createHash } from 'node:crypto';

const MAX_IDENTIFIER = 63;

/** `publishDate` → `publish_date` (field names are identifiers; the result is a lower-case column). */
export function columnOf(fieldName: string): string {
  return fieldName
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** A double-quoted SQL identifier. Names come from validated schema files; quoting is defence in depth. */
export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** `<table>_<columns>_<suffix>`, shortened with a hash when PostgreSQL's 63-byte limit would cut it. */
export function indexName(table: string, columns: readonly string[], suffix: 'idx' | 'uq' | 'trgm'): string {
  const name = `${table}_${columns.join('_')}_${suffix}`;
  if (name.length <= MAX_IDENTIFIER) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_IDENTIFIER - hash.length - suffix.length - 2)}_${hash}_${suffix}`;
}
