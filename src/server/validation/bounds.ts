/**
 * Bounds every number and date the server accepts, so a value the database cannot hold is a 400
 * with a field message, never a 500 from SQL:
 *
 *   integers      within PostgreSQL `integer` (int4), the type of every integer column
 *   numbers       finite and within ±1e15 (15 significant digits survive a float8 read); a money
 *                 column (numeric(14,2)) is narrower: resources/schemas.ts gives its own bound
 *   page numbers  1 … 1,000,000 (with a page size ≤ 100 the row offset stays far inside int8)
 *   dates         years 1900–2100 (formats `date` and `date-time`)
 *
 * `withNumberBounds` gives these defaults to every integer or number schema that names no bound of
 * its own; the server's ajv applies it to each schema it compiles (validation/index.ts), so route
 * schemas, resource schemas and domain schemas are all covered without each repeating it. Query
 * strings are coerced before the check ("1e309" → Infinity), so the bound also refuses Infinity.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';

export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
export const NUMBER_MAX = 1e15;
export const MAX_PAGE_NO = 1_000_000;
export const MIN_YEAR = 1900;
export const MAX_YEAR = 2100;

type Schema = Record<string, unknown>;

/** Keywords holding a map of schemas, an array of schemas, or one schema: the only ones walked. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf', 'oneOf', 'prefixItems']);
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'additionalItems',
]);

const typesOf = (schema: Schema): string[] => (typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? (schema.type as string[]) : []);

/** The defaults for a number schema without its own bounds (undefined: not a number schema). */
function defaultBounds(schema: Schema): { minimum: number; maximum: number } | undefined {
  const types = typesOf(schema);
  if (types.includes('number')) return { minimum: -NUMBER_MAX, maximum: NUMBER_MAX };
  if (types.includes('integer')) return { minimum: INT4_MIN, maximum: INT4_MAX };
  return undefined;
}

const isSchema = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

function bound(schema: unknown, seen: WeakMap<object, Schema>): unknown {
  if (!isSchema(schema)) return schema;
  const done = seen.get(schema);
  if (done) return done;
  const out: Schema = {};
  seen.set(schema, out);
  for (const [key, item] of Object.entries(schema)) {
    if (SCHEMA_MAPS.has(key) && isSchema(item)) out[key] = Object.fromEntries(Object.entries(item).map(([name, s]) => [name, bound(s, seen)]));
    else if ((SCHEMA_LISTS.has(key) || key === 'items') && Array.isArray(item)) out[key] = item.map((s) => bound(s, seen));
    else if (SCHEMA_ONE.has(key)) out[key] = bound(item, seen);
    else out[key] = item;
  }
  const bounds = defaultBounds(schema);
  if (bounds) {
    if (schema.minimum === undefined && schema.exclusiveMinimum === undefined) out.minimum = bounds.minimum;
    if (schema.maximum === undefined && schema.exclusiveMaximum === undefined) out.maximum = bounds.maximum;
  }
  return out;
}

/** A copy of `schema` in which every integer or number schema without a bound has the defaults above. */
export function withNumberBounds<T>(schema: T): T {
  return bound(schema, new WeakMap<object, Schema>()) as T;
}

const yearOf = (text: string): number => Number(text.slice(0, 4));
const inYears = (text: string): boolean => yearOf(text) >= MIN_YEAR && yearOf(text) <= MAX_YEAR;

/** Whether a `YYYY-MM-DD…` text's year lies in the accepted range. */
export const yearInRange = (text: string): boolean => /^\d{4}-/.test(text) && inYears(text);

const dateFormat = fullFormats.date as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined };
const dateTimeFormat = fullFormats['date-time'] as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined };

/** ajv formats `date` and `date-time` (RFC 3339, as ajv-formats checks them) within the accepted years. */
export const BOUNDED_DATE_FORMATS = {
  date: { type: 'string', validate: (s: string) => dateFormat.validate(s) && inYears(s), compare: dateFormat.compare },
  'date-time': { type: 'string', validate: (s: string) => dateTimeFormat.validate(s) && inYears(s), compare: dateTimeFormat.compare },
} as const;
