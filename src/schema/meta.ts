/**
 * Validation of schema files against their meta-schemas (ajv, JSON Schema 2020-12), with ajv's
 * errors turned into findings an analyst can act on: one message per problem, at the property.
 * Validators are compiled once per set of meta-schemas and reused for every file.
 */
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonPath, Target } from './json-source';
import type { MetaSchemas, SchemaKind } from './types';

export interface MetaProblem {
  path: JsonPath;
  target: Target;
  message: string;
}

type AjvError = ErrorObject & { propertyName?: string };

export class MetaValidator {
  private readonly ajv: Ajv2020;

  constructor(private readonly schemas: MetaSchemas) {
    this.ajv = new Ajv2020({ allErrors: true, verbose: true, discriminator: true, strict: true, strictTypes: false, strictRequired: false });
    addFormats(this.ajv);
    // Added now, compiled on a kind's first file: the server's start reads resources only, and the
    // screen meta-schema alone took most of half a second to compile.
    for (const [kind, schema] of Object.entries(schemas) as [SchemaKind, object][]) this.ajv.addSchema(schema, `meta:${kind}`);
  }

  has(kind: SchemaKind): boolean {
    return this.schemas[kind] !== undefined;
  }

  private validator(kind: SchemaKind): ValidateFunction | undefined {
    return this.has(kind) ? this.ajv.getSchema(`meta:${kind}`) : undefined;
  }

  /** Problems of one parsed file; empty when it conforms (or its meta-schema is unknown). */
  validate(kind: SchemaKind, value: unknown): MetaProblem[] {
    const validate = this.validator(kind);
    if (!validate || validate(value)) return [];
    return reduceErrors((validate.errors ?? []) as AjvError[], this.schemas[kind]!).map(toProblem);
  }
}

const cache = new Map<string, MetaValidator>();

/** The validator of a set of meta-schemas, compiled on first use. */
export function metaValidator(schemas: MetaSchemas): MetaValidator {
  const key = JSON.stringify(schemas);
  let validator = cache.get(key);
  if (!validator) {
    validator = new MetaValidator(schemas);
    cache.set(key, validator);
  }
  return validator;
}

/** `/fields/title/type` -> ['fields', 'title', 'type'] (indexes as numbers). */
function pointerToPath(pointer: string): (string | number)[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

const isWithin = (error: AjvError, pointer: string) => error.instancePath === pointer || error.instancePath.startsWith(`${pointer}/`);

/**
 * Simplifies ajv's raw errors:
 * - `if`/`propertyNames` wrappers go (their inner errors say it better);
 * - a failed `anyOf` keeps the errors of the branch meant (those other than "wrong type" at the
 *   same place), or becomes one "must be A or B" when no branch had the right type;
 * - the discriminator's errors name the allowed kinds.
 */
function reduceErrors(errors: AjvError[], root: object): AjvError[] {
  const out: AjvError[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'propertyNames') continue;
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const branch: AjvError[] = [];
      while (out.length > 0 && isWithin(out[out.length - 1], error.instancePath)) branch.unshift(out.pop()!);
      const meant = branch.filter((e) => !(e.keyword === 'type' && e.instancePath === error.instancePath));
      if (meant.length > 0) out.push(...meant);
      else {
        const types = [...new Set(branch.filter((e) => e.keyword === 'type').map((e) => String(e.params.type)))];
        out.push({ ...error, message: `must be ${types.join(' or ') || 'one of the allowed forms'}` });
      }
      continue;
    }
    if (error.keyword === 'discriminator') {
      const tag = String(error.params.tag);
      const allowed = discriminatorValues(error.parentSchema, tag, root).join(', ');
      const unknownValue = error.params.error === 'mapping';
      out.push(
        unknownValue
          ? { ...error, instancePath: `${error.instancePath}/${tag}`, message: `must be one of: ${allowed}` }
          : { ...error, message: `missing required property '${tag}' (one of: ${allowed})` },
      );
      continue;
    }
    out.push(error);
  }
  return out.filter((e, i) => out.findIndex((o) => o.instancePath === e.instancePath && o.message === e.message && o.propertyName === e.propertyName) === i);
}

/** The `const` of the tag property in each `oneOf` branch of a discriminated union. */
function discriminatorValues(schema: unknown, tag: string, root: object): string[] {
  const branches = ((schema as { oneOf?: { $ref?: string }[] })?.oneOf ?? []).map((b) => (b.$ref ? resolveLocalRef(root, b.$ref) : b));
  return branches
    .map((b) => (b as { properties?: Record<string, { const?: unknown }> })?.properties?.[tag]?.const)
    .filter((v): v is string => typeof v === 'string');
}

function resolveLocalRef(root: object, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return pointerToPath(ref.slice(1)).reduce<unknown>((node, key) => (node as Record<string | number, unknown>)?.[key], root);
}

function describePath(path: JsonPath): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function toProblem(error: AjvError): MetaProblem {
  const path = pointerToPath(error.instancePath);
  const where = (p: JsonPath, text: string) => (p.length > 0 ? `${describePath(p)}: ${text}` : text);
  if (error.propertyName !== undefined) {
    const at = [...path, error.propertyName];
    return { path: at, target: 'key', message: `invalid name '${error.propertyName}': ${messageOf(error, true)}` };
  }
  switch (error.keyword) {
    case 'required':
      return { path, target: 'key', message: where(path, `missing required property '${error.params.missingProperty}'`) };
    case 'additionalProperties': {
      const at = [...path, String(error.params.additionalProperty)];
      return { path: at, target: 'key', message: where(path, `unknown property '${error.params.additionalProperty}'`) };
    }
    case 'dependentRequired':
      return { path, target: 'key', message: where(path, `'${error.params.property}' needs '${error.params.missingProperty}'`) };
    default:
      return { path, target: 'value', message: where(path, messageOf(error, false)) };
  }
}

function messageOf(error: AjvError, isName: boolean): string {
  const subject = (error.parentSchema as { title?: string } | undefined)?.title;
  switch (error.keyword) {
    case 'enum':
      return `must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `must be '${String(error.params.allowedValue)}'`;
    case 'pattern':
      return `${isName ? 'is' : `'${String(error.data)}' is`} not a valid ${subject ?? 'value'} (pattern ${error.params.pattern})`;
    case 'not': {
      const forbidden = (error.schema as { required?: string[] } | undefined)?.required;
      return forbidden ? `must not have both ${forbidden.map((p) => `'${p}'`).join(' and ')}` : 'must not match the excluded form';
    }
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}
