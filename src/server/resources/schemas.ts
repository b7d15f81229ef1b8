/**
 * JSON Schemas generated from a resource: the save body (validation, x-rules for the validator
 * catalogue), the list parameters and the row (fast serialisation). They also feed OpenAPI.
 */
import { INT4_MAX, INT4_MIN, NUMBER_MAX } from '../validation/bounds';
import type { FieldModel, ResourceModel, ValueKind } from './model';

type JsonSchema = Record<string, unknown>;

const ID_PATTERN = '^[0-9a-f]{32}$';

/** The schema or null (an enum must list null too, or ajv refuses null whatever the type says). */
const nullable = (schema: JsonSchema): JsonSchema => ({
  ...schema,
  type: [schema.type as string, 'null'],
  ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
});

/**
 * An attachment field's value: the files as `{ id, name, url, size }` (id = the attachment's
 * attsysid, url its download path). Only `name` is required, so rows stored before uploads existed
 * (`{ name, url }`, legacy `attsysid`) stay valid; a url is empty, a path or an http(s) address,
 * never another scheme (it becomes a link).
 */
export const ATTACHMENT_LIST: JsonSchema = {
  type: ['array', 'null'],
  items: {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: ID_PATTERN },
      attsysid: { type: 'string', maxLength: 64 },
      name: { type: 'string', minLength: 1, maxLength: 255 },
      url: { type: 'string', maxLength: 2000, pattern: '^(?:$|/|https?://)' },
      size: { type: 'integer', minimum: 0 },
    },
    required: ['name'],
  },
};

/** The wire shape of a value (without null). */
export function valueSchema(kind: ValueKind): JsonSchema {
  switch (kind) {
    case 'integer':
      return { type: 'integer' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'codes':
      return { type: 'array', items: { type: 'string' } };
    case 'json':
      return ATTACHMENT_LIST;
    case 'string':
      return { type: 'string' };
  }
}

/**
 * The range a number column holds: int4 for `integer`, the digits of `numeric(p,s)` (money:
 * numeric(14,2), below 10^12), ±NUMBER_MAX otherwise; undefined for a column that is not a number.
 */
export function columnBounds(f: Pick<FieldModel, 'kind' | 'sqlType'>): { minimum: number; maximum: number } | undefined {
  if (f.kind === 'integer') return { minimum: INT4_MIN, maximum: INT4_MAX };
  if (f.kind !== 'number') return undefined;
  const digits = /^numeric\((\d+),\s*(\d+)\)$/.exec(f.sqlType);
  if (!digits) return { minimum: -NUMBER_MAX, maximum: NUMBER_MAX };
  const [precision, scale] = [Number(digits[1]), Number(digits[2])];
  const maximum = Number((10 ** (precision - scale) - 10 ** -scale).toFixed(scale));
  return { minimum: -maximum, maximum };
}

/** A field's wire shape with its column's range (numbers): what a body or a filter may carry. */
export function boundedValueSchema(f: Pick<FieldModel, 'kind' | 'sqlType'>): JsonSchema {
  return { ...valueSchema(f.kind), ...columnBounds(f) };
}

/** One writable field in a request body: type, length and range, dictionary codes, catalogue rules. */
function inputSchema(f: FieldModel): JsonSchema {
  const { field } = f;
  const schema: JsonSchema = { ...boundedValueSchema(f), title: f.label };
  if (f.kind === 'string') {
    if (field.maxLength) schema.maxLength = field.maxLength;
    if (field.required) schema.minLength = 1;
    if (f.codes) schema.enum = f.codes;
  }
  if (f.kind === 'codes') {
    schema.items = f.codes ? { type: 'string', enum: f.codes } : { type: 'string' };
    schema.uniqueItems = true;
    if (field.required) schema.minItems = 1;
  }
  if (f.kind === 'json' && field.maxCount) schema.maxItems = field.maxCount;
  // The field's own range, within the column's.
  if (field.min !== undefined) schema.minimum = Math.max(field.min, (schema.minimum as number | undefined) ?? -Infinity);
  if (field.max !== undefined) schema.maximum = Math.min(field.max, (schema.maximum as number | undefined) ?? Infinity);
  if (field.rules?.length) schema['x-rules'] = field.rules;
  if (f.kind === 'json' || field.required) return schema;
  return nullable(schema);
}

/**
 * Body of `save`: the writable fields, sub-table rows, and id/version/isCommit. An insert must
 * carry every required field; an update changes only the fields it carries (a required one may
 * not be emptied). Sub-table rows are always complete rows.
 */
export function saveBodySchema(model: ResourceModel, mode: 'insert' | 'update' = 'insert'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of model.writable) properties[f.name] = inputSchema(f);
  for (const child of model.children) {
    properties[child.name] = { type: 'array', title: child.label, items: saveBodySchema(child.model) };
  }
  if (model.isChild) return { type: 'object', properties, required: model.writable.filter((f) => f.field.required).map((f) => f.name) };
  return {
    type: 'object',
    properties: {
      id: { type: ['string', 'null'], pattern: ID_PATTERN, description: 'absent: insert; present: update' },
      version: { type: ['integer', 'null'], minimum: 0, maximum: INT4_MAX, description: 'optimistic concurrency: the version read' },
      isCommit: { type: ['boolean', 'string', 'null'], description: 'true: save and commit in one transaction' },
      ...properties,
    },
    required: mode === 'insert' ? model.writable.filter((f) => f.field.required).map((f) => f.name) : [],
  };
}

/**
 * The fields a workflow action asks for (its `input`): each required, with the field's own type,
 * dictionary codes, limits and catalogue rules (readonly fields included: the action sets them).
 */
export function actionInputSchema(model: ResourceModel, names: readonly string[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const name of names) {
    const f = model.byName.get(name);
    if (!f || f.type === 'children') throw new Error(`resource '${model.name}': an action asks for '${name}', which is not a field`);
    const schema = inputSchema({ ...f, field: { ...f.field, required: true } });
    properties[name] = f.kind === 'json' || f.kind === 'codes' ? { ...schema, type: 'array', minItems: 1 } : schema;
  }
  return { type: 'object', properties, required: [...names] };
}

/** Body of a workflow action. */
export const actionBodySchema = {
  type: 'object',
  properties: {
    opinion: { type: ['string', 'null'], maxLength: 2000, description: 'audit opinion (kept in the flow log)' },
    version: { type: ['integer', 'null'], description: 'optimistic concurrency: the version read' },
  },
} as const;

export const idParamsSchema = {
  type: 'object',
  properties: { id: { type: 'string', maxLength: 64 } },
  required: ['id'],
} as const;

/** A stored row as sent to the client. */
export function rowSchema(model: ResourceModel): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const f of model.fields) properties[f.name] = f.kind === 'json' ? {} : nullable(valueSchema(f.kind));
  for (const child of model.children) properties[child.name] = { type: 'array', items: rowSchema(child.model) };
  return { type: 'object', title: model.title, properties };
}

export { auditEntrySchema, fieldFilesSchema, flowLogEntrySchema } from '../../shared/wire';
