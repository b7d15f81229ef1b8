/**
 * What each field type is, in one table: the value it holds on the wire, its column, the keywords
 * it takes, the default it accepts, how a list filters, sorts and groups by it, how a missing value
 * is asked for, and its spreadsheet cell. React-free: the lint, the server (DDL, validation, list
 * parameters, XLSX) and the engine read it. The engine's widget tables (form/field-types.ts,
 * render/values.tsx) add the components, keyed by the same types, so the compiler asks for them.
 *
 * A new field type is one entry here (the meta-schema's `$defs.fieldType` is generated from this
 * table: npm run gen:types) plus its widgets. Behaviour that depends on how a value is stored
 * (ajv shape, cell parsing, select expression) switches on `value`, not on the type: a new type
 * with an existing value kind needs nothing else.
 */
import type { Field, FieldType } from './types';

/** How a value travels and is stored: the shape every layer switches on. `rows`: a sub-table. */
export type ValueKind = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'codes' | 'json' | 'rows';

/** Field keywords that only some types take (the lint reports them elsewhere). */
export type TypeKeyword =
  | 'dict'
  | 'ref'
  | 'copy'
  | 'refWhere'
  | 'pickOnly'
  | 'resource'
  | 'min'
  | 'max'
  | 'maxLength'
  | 'accept'
  | 'maxCount'
  | 'deadline'
  | 'serial'
  | 'compute'
  | 'mask'
  | 'owner';

/**
 * The list filter a type gets: free text searched (`text`), an id matched (`id`), codes, an area
 * cascade, yes/no, a date range, a number (one value or, with `op: "between"`, bounds), or whether
 * the field holds anything (`presence`: `<name>=true` keeps the rows with at least one file, `false`
 * those with none).
 */
export type FilterKind = 'text' | 'id' | 'codes' | 'area' | 'bool' | 'date' | 'number' | 'presence';

export interface FieldKind {
  /** What the type is, for analysts (the meta-schema's completion text). */
  doc: string;
  value: ValueKind;
  /** SQL type of its column; absent: no column of its own (a sub-table's rows have their table). */
  sql?: (field: Field) => string;
  /** The JSON type a `default` must have; absent: the type takes no default. */
  defaultType?: 'string' | 'number' | 'boolean' | 'array';
  /** Type-specific keywords it takes. */
  keywords: readonly TypeKeyword[];
  /** A list can show it as a column, filter and sort on it. */
  listable: boolean;
  /** Its values are codes of a dictionary (`dict`): labels, options, tags. */
  coded: boolean;
  /** Counts can be grouped by it (stats charts). */
  groupable: boolean;
  /** Its list filter also takes the bounds `<name>_gte` / `<name>_lte`. */
  range: boolean;
  /** The list filter's input (coded types filter by codes whatever this says). */
  filter: FilterKind;
  /** A list can sort by it (default: listable types can). */
  sortable?: false;
  /** How a missing value is asked for: the message is this followed by the label. */
  requiredPrefix: '请填写' | '请选择' | '请上传' | '请至少添加一条';
  /** How a list column shows it when the screen names no `render`. */
  column: 'text' | 'date' | 'datetime' | 'money' | 'ellipsis' | 'presence';
  /** Its spreadsheet column: number format and width (characters) where they differ from the value kind's. */
  xlsx?: { numFmt?: string; width?: number };
}

const text = (field: Field) => (field.maxLength ? `varchar(${field.maxLength})` : 'text');
const fixed = (sql: string) => () => sql;

const base = { listable: true, coded: false, groupable: false, range: false, filter: 'text', requiredPrefix: '请填写', column: 'text' } as const;
const numeric = { ...base, defaultType: 'number', keywords: ['min', 'max', 'compute'], range: true, filter: 'number' } as const;
const temporal = { ...base, defaultType: 'string', keywords: ['deadline'], range: true, filter: 'date', requiredPrefix: '请选择' } as const;
const coded = { ...base, defaultType: 'string', keywords: ['dict'], coded: true, filter: 'codes', requiredPrefix: '请选择' } as const;

export const FIELD_KINDS = {
  string: {
    ...base,
    doc: 'single-line text',
    value: 'string',
    sql: text,
    defaultType: 'string',
    keywords: ['maxLength', 'serial', 'compute', 'mask', 'owner'],
  },
  text: {
    ...base,
    doc: 'multi-line text',
    value: 'string',
    sql: text,
    defaultType: 'string',
    keywords: ['maxLength'],
    column: 'ellipsis',
    xlsx: { width: 40 },
  },
  richText: {
    ...base,
    doc: 'formatted text (HTML: paragraphs, headings, lists, bold, links), edited in a rich-text editor; the server keeps only safe tags',
    value: 'string',
    sql: text,
    defaultType: 'string',
    keywords: ['maxLength'],
    listable: false,
    column: 'ellipsis',
    xlsx: { width: 40 },
  },
  int: { ...numeric, doc: 'whole number', value: 'integer', sql: fixed('integer') },
  decimal: { ...numeric, doc: 'number with decimals', value: 'number', sql: fixed('numeric') },
  money: { ...numeric, doc: 'amount in yuan, two decimals', value: 'number', sql: fixed('numeric(14,2)'), column: 'money', xlsx: { numFmt: '#,##0.00' } },
  date: { ...temporal, doc: 'calendar date, YYYY-MM-DD', value: 'date', sql: fixed('date'), column: 'date' },
  datetime: { ...temporal, doc: 'date and time, ISO 8601', value: 'datetime', sql: fixed('timestamptz'), column: 'datetime' },
  bool: {
    ...base,
    doc: 'yes or no',
    value: 'boolean',
    sql: fixed('boolean'),
    defaultType: 'boolean',
    keywords: ['compute'],
    groupable: true,
    filter: 'bool',
    requiredPrefix: '请选择',
  },
  dict: { ...coded, doc: 'one code of a dictionary (dict)', value: 'string', sql: fixed('text'), keywords: ['dict', 'compute'], groupable: true },
  multiDict: { ...coded, doc: 'several codes of a dictionary (dict)', value: 'codes', sql: fixed('text[]'), defaultType: 'array', groupable: true },
  area: {
    ...coded,
    doc: 'an administrative area code, chosen in a cascade of the dictionary (dict)',
    value: 'string',
    sql: fixed('text'),
    groupable: true,
    filter: 'area',
  },
  attachment: {
    ...base,
    doc: 'uploaded files; a list shows and filters whether any is uploaded (已上传 / 未上传)',
    value: 'json',
    sql: fixed('jsonb'),
    defaultType: undefined,
    keywords: ['accept', 'maxCount'],
    sortable: false,
    filter: 'presence',
    column: 'presence',
    requiredPrefix: '请上传',
  },
  ref: {
    ...base,
    doc: 'the id of a record of another resource (ref)',
    value: 'string',
    sql: fixed('text'),
    defaultType: undefined,
    keywords: ['ref', 'copy', 'refWhere', 'pickOnly'],
    filter: 'id',
    requiredPrefix: '请选择',
  },
  children: {
    ...base,
    doc: 'a sub-table: rows of another resource (resource) saved with the record',
    value: 'rows',
    defaultType: undefined,
    keywords: ['resource'],
    listable: false,
    requiredPrefix: '请至少添加一条',
  },
} as const satisfies Record<FieldType, FieldKind>;

/** The field types, in the table's order. */
export const FIELD_TYPES = Object.keys(FIELD_KINDS) as FieldType[];

/** The kind of a field type. */
export const fieldKind = (type: FieldType): FieldKind => FIELD_KINDS[type];

/** Type-specific keywords and the types that take them. */
export const TYPE_SPECIFIC_PROPERTIES: Readonly<Record<TypeKeyword, readonly FieldType[]>> = (() => {
  const out = {} as Record<TypeKeyword, FieldType[]>;
  for (const type of FIELD_TYPES) for (const keyword of fieldKind(type).keywords) (out[keyword] ??= []).push(type);
  return out;
})();
